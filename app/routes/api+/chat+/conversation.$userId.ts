import { z } from "zod";

import { can } from "~/domain/permissions";
import { chatMessageJson, statusData } from "~/domain/schemas/api";
import { CONVERSATION_MAX_PAGE_SIZE, CONVERSATION_PAGE_SIZE, findChatCustomer, getConversation, type Cursor } from "~/models/chat.server";
import { badRequest, methodNotAllowed, notFound } from "~/utils/http.server";
import { apiRoute, uuidParam } from "~/web/api.server";

/*
 * GET /api/chat/conversation/:userId — the customer's support thread, oldest first.
 * Paging: `before=<id>` for earlier messages; `after=<id>` (ours, for clients
 * catching up after a reconnect) for the messages since; `limit` 1–200, default 50.
 */

const params = z.object({ userId: uuidParam("Conversation not found.") });
const messageId = z.string().uuid({ message: "Unknown message id." }).optional();
const query = z.object({
  before: messageId,
  after: messageId,
  limit: z.coerce
    .number({ message: `limit must be a number from 1 to ${CONVERSATION_MAX_PAGE_SIZE}.` })
    .int({ message: `limit must be a number from 1 to ${CONVERSATION_MAX_PAGE_SIZE}.` })
    .min(1, { message: `limit must be a number from 1 to ${CONVERSATION_MAX_PAGE_SIZE}.` })
    .max(CONVERSATION_MAX_PAGE_SIZE, { message: `limit must be a number from 1 to ${CONVERSATION_MAX_PAGE_SIZE}.` })
    .default(CONVERSATION_PAGE_SIZE),
});

const response = statusData(z.object({ messages: chatMessageJson.array() }));

export const loader = apiRoute(
  { method: "GET", auth: "any", params, query, response, summary: "A customer's support thread, oldest first, paged." },
  async ({ user, params, query }) => {
    // Someone else's thread answers 404 like a missing one: "not found or not yours".
    const customer = await findChatCustomer(params.userId);
    if (!customer || !can(user, "chat:read-conversation", { ownerId: customer.id })) throw notFound("Conversation not found.");
    if (query.before && query.after) throw badRequest("Use either before or after, not both.");
    const cursor: Cursor = query.before ? { before: query.before } : query.after ? { after: query.after } : {};
    const messages = await getConversation(customer.id, cursor, query.limit);
    if (!messages) throw badRequest("Unknown message id.");
    return { status: "success", data: { messages } };
  },
);

export const action = methodNotAllowed;
