import { z } from "zod";

import { NOTIFICATION_MESSAGES } from "~/domain/notifications";
import { statusData } from "~/domain/schemas/api";
import { markNotificationsRead } from "~/models/notifications.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/** POST /api/notifications/read {ids?, all?}: marks some or all of your notifications read; answers your unread count. */

const body = z
  .object({
    ids: z
      .array(z.uuid({ error: "Each id must be a notification id." }), { error: "`ids` must be a list of notification ids." })
      .max(500)
      .optional(),
    all: z.literal(true, { error: "`all` must be true." }).optional(),
  })
  .strict()
  .refine((value) => value.all === true || (value.ids?.length ?? 0) > 0, NOTIFICATION_MESSAGES.nothingToMark);

export const action = apiRoute(
  {
    method: "POST",
    auth: "any",
    body,
    response: statusData(z.object({ unread: z.number().int() })),
    summary: "Mark some of your notifications (ids) or all of them read.",
  },
  async ({ user, body }) => ({ status: "success", data: { unread: await markNotificationsRead(user.id, body) } }),
);

export const loader = methodNotAllowed;
