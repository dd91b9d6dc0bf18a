import { z } from "zod";

import { statusData } from "~/domain/schemas/api";
import { staffJson } from "~/domain/schemas/ops";
import { listStaff, toMemberJson } from "~/models/team.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/** GET /api/team (staff): every staff account, active, invited or disabled, oldest first. */
export const loader = apiRoute(
  { method: "GET", auth: "team", response: statusData(z.object({ users: staffJson.array() })), summary: "The staff accounts (active, invited or disabled)." },
  async () => ({ status: "success", data: { users: (await listStaff()).map(toMemberJson) } }),
);

export const action = methodNotAllowed;
