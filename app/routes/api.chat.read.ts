import { z } from "zod";
import { findChatCustomer, markRead } from "~/models/chat.server";
import { apiRoute } from "~/utils/api.server";
import { methodNotAllowed, notFound } from "~/utils/http.server";
import { can, supportRoomId } from "~/utils/permissions";

/*
 * POST /api/chat/read {userId} — the signed-in user has seen the support thread of customer
 * `userId` up to now. Drives unread badges and when the next reply e-mail may go out.
 */

const body = z.object({ userId: z.string({ message: "userId is required." }).uuid({ message: "Conversation not found." }) });

export const action = apiRoute({ auth: "any", body }, async ({ request, user, body }) => {
  if (request.method !== "POST") return methodNotAllowed();
  if (!can(user, "chat:read-conversation", { ownerId: body.userId })) throw notFound("Conversation not found.");
  if (!(await findChatCustomer(body.userId))) throw notFound("Conversation not found.");
  await markRead(user.id, supportRoomId(body.userId));
  return { status: "success", message: "Conversation marked as read." };
});

export const loader = methodNotAllowed;
