import { z } from "zod";

import { statusData } from "~/domain/schemas/api";
import { memberJson, memberRoleSchema } from "~/domain/schemas/clients";
import { changeMemberRole, removeMember, toMemberJson } from "~/models/clients.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiMethods, apiRoute, uuidParam } from "~/web/api.server";

/*
 * PATCH /api/client/members/:userId {role} — an owner changes a member's role (the last owner stays one: 409).
 * DELETE /api/client/members/:userId — an owner removes a member, or a member leaves; their sessions,
 * tokens and sockets end on every node; the last owner cannot go (409).
 */

const params = z.object({ userId: uuidParam("Member not found.") });

const patch = apiRoute(
  {
    method: "PATCH",
    auth: "user",
    allow: "client:manage",
    params,
    body: memberRoleSchema,
    errors: [404, 409],
    response: statusData(z.object({ member: memberJson })),
    summary: "Changes a member's role (owners).",
  },
  async ({ user, params, body }) => ({ status: "success", data: { member: toMemberJson(await changeMemberRole(user, params.userId, body.role)) } }),
);

const remove = apiRoute(
  {
    method: "DELETE",
    auth: "user",
    params,
    errors: [404, 409],
    response: z.object({ status: z.literal("success") }),
    summary: "Removes a member (owners) or leaves the client (yourself).",
  },
  async ({ user, params }) => {
    await removeMember(user, params.userId);
    return { status: "success" };
  },
);

export const action = apiMethods(patch, remove);

export const loader = methodNotAllowed;
