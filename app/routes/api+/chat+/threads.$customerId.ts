import { z } from "zod";

import { statusData, threadJson } from "~/domain/schemas/api";
import { updateThread } from "~/models/inbox.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute, uuidParam } from "~/web/api.server";

/*
 * PATCH /api/chat/threads/:customerId {status?, assigneeId?} — close, reopen or assign a thread
 * (team). :customerId is the customer's id, or a visitor thread's own id (its `customer._id`).
 * Two staff at once: the last write wins, and both see it through `threadUpdated`.
 */

const params = z.object({ customerId: uuidParam("Conversation not found.") });
const body = z
  .object({
    status: z.enum(["open", "closed"], { message: "status must be open or closed." }).optional(),
    assigneeId: z
      .string({ message: "assigneeId must be a team member's id or null." })
      .uuid({ message: "assigneeId must be a team member's id or null." })
      .nullable()
      .optional(),
  })
  .refine((b) => b.status !== undefined || b.assigneeId !== undefined, { message: "Nothing to change: give status or assigneeId." });

export const action = apiRoute(
  { method: "PATCH", auth: "team", params, body, response: statusData(threadJson), summary: "Close, reopen or assign a support thread (team)." },
  async ({ user, params, body }) => {
    const thread = await updateThread(user, params.customerId, body);
    return { status: "success", data: thread };
  },
);

export const loader = methodNotAllowed;
