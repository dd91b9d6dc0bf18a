import { z } from "zod";

import { statusData } from "~/domain/schemas/api";
import { staffJson } from "~/domain/schemas/ops";
import { setAccountDisabled, toMemberJson } from "~/models/team.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

const params = z.object({ id: z.string().max(64) });

export const loader = methodNotAllowed;

/** POST /api/users/:id/disable (staff): its sessions, API tokens and sockets end at once; it cannot sign in. */
export const action = apiRoute(
  {
    method: "POST",
    auth: "team",
    params,
    response: statusData(z.object({ user: staffJson })),
    summary: "Disables an account (staff or customer): its sessions, API tokens and sockets end at once; it cannot sign in.",
  },
  async ({ params, user }) => ({ status: "success", data: { user: toMemberJson(await setAccountDisabled(user.id, params.id, true)) } }),
);
