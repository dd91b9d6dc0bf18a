import { z } from "zod";

import { statusData } from "~/domain/schemas/api";
import { staffJson } from "~/domain/schemas/ops";
import { setAccountDisabled, toMemberJson } from "~/models/team.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

const params = z.object({ id: z.string().max(64) });

export const loader = methodNotAllowed;

/** POST /api/users/:id/enable (staff): it can sign in again. */
export const action = apiRoute(
  {
    method: "POST",
    auth: "team",
    params,
    response: statusData(z.object({ user: staffJson })),
    errors: [409],
    summary: "Enables an account (staff or customer): it can sign in again. A deleted customer account cannot be (409).",
  },
  async ({ params, user }) => ({ status: "success", data: { user: toMemberJson(await setAccountDisabled(user.id, params.id, false)) } }),
);
