import { z } from "zod";

import { statusData } from "~/domain/schemas/api";
import { inviteBodySchema, staffJson } from "~/domain/schemas/ops";
import { inviteStaff, toMemberJson } from "~/models/team.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

export const loader = methodNotAllowed;

/** POST /api/team/invite {email,name} (staff): a staff account and a set-password e-mail; 409 when the e-mail has an account. */
export const action = apiRoute(
  {
    method: "POST",
    auth: "team",
    body: inviteBodySchema,
    errors: [409],
    status: 201,
    response: statusData(z.object({ user: staffJson })),
    summary: "Invites a colleague: a staff account without a password and a one-hour set-password link by e-mail.",
  },
  async ({ body, user }) => {
    const { member } = await inviteStaff(user, body);
    return { status: "success", data: { user: toMemberJson(member) } };
  },
);
