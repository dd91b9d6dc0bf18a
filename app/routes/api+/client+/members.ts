import { z } from "zod";

import { statusData } from "~/domain/schemas/api";
import { inviteMemberSchema, memberJson } from "~/domain/schemas/clients";
import { inviteMember, toMemberJson } from "~/models/clients.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/** POST /api/client/members {email, name, role} — an owner invites a member: an e-mail whose link (7 days, once) sets a password. */
export const action = apiRoute(
  {
    method: "POST",
    auth: "user",
    allow: "client:manage",
    body: inviteMemberSchema,
    errors: [409],
    status: 201,
    response: statusData(z.object({ member: memberJson })),
    summary: "Invites a member to your client (owners): 409 when the e-mail belongs to another client or to staff, or the client has 50 members.",
  },
  async ({ user, body }) => ({ status: "success", data: { member: toMemberJson((await inviteMember(user, body)).member) } }),
);

export const loader = methodNotAllowed;
