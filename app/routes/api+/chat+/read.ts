import { z } from "zod";

import { supportRoomId } from "~/domain/chat";
import { can } from "~/domain/permissions";
import { statusMessage } from "~/domain/schemas/api";
import { findChatCustomer, markRead } from "~/models/chat.server";
import { methodNotAllowed, notFound } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/*
 * POST /api/chat/read {userId} — the signed-in user has seen the support thread of customer
 * `userId` up to now. Drives unread badges and when the next reply e-mail may go out.
 */

const body = z.object({ userId: z.string({ message: "userId is required." }).uuid({ message: "Conversation not found." }).toLowerCase() });

export const action = apiRoute(
  { method: "POST", auth: "any", scope: "messages:write", body, errors: [404], response: statusMessage, summary: "Mark a support thread read up to now." },
  async ({ user, body }) => {
    const customer = await findChatCustomer(body.userId);
    if (!customer || !can(user, "chat:read-conversation", { ownerId: customer.id })) throw notFound("Conversation not found.");
    await markRead(user.id, supportRoomId(customer.id));
    return { status: "success", message: "Conversation marked as read." };
  },
);

export const loader = methodNotAllowed;
