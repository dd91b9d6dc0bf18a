import { z } from "zod";

import { decodeCursor, NOTIFICATION_MESSAGES } from "~/domain/notifications";
import { notificationJson, statusData } from "~/domain/schemas/api";
import { listNotifications, unreadCount } from "~/models/notifications.server";
import { apiRoute } from "~/web/api.server";

/** GET /api/notifications[?unread=1&before=]: your notifications, newest first, 50 a page (docs/decisions/289). */

const query = z.object({
  unread: z.enum(["1", "0", "true", "false"], { error: "`unread` must be 1 or 0." }).optional(),
  before: z
    .string()
    .transform((value, ctx) => {
      const cursor = decodeCursor(value);
      if (!cursor) ctx.issues.push({ code: "custom", message: NOTIFICATION_MESSAGES.badCursor, input: value });
      return cursor;
    })
    .optional()
    .meta({ description: "The `createdAt` and `_id` of the last notification of the page before, joined by `_`." }),
});

export const loader = apiRoute(
  {
    method: "GET",
    auth: "any",
    query,
    response: statusData(z.object({ notifications: z.array(notificationJson), unread: z.number().int() })),
    summary: "Your notifications, newest first, 50 a page, with your unread count.",
  },
  async ({ user, query }) => {
    const unreadOnly = query.unread === "1" || query.unread === "true";
    const [notifications, unread] = await Promise.all([listNotifications(user.id, { unread: unreadOnly, before: query.before }), unreadCount(user.id)]);
    return { status: "success", data: { notifications, unread } };
  },
);
