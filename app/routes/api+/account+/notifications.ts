import { z } from "zod";

import { EMAIL_CHOICES, emailChoicesBodySchema, NOTIFICATION_KINDS, type EmailChoice, type NotificationKind } from "~/domain/notifications";
import { statusData } from "~/domain/schemas/api";
import { notificationSettingsOf, updateNotificationSettings } from "~/models/notifications.server";
import { apiRoute } from "~/web/api.server";

/*
 * Your e-mail choice per kind of notification: instant, daily (one digest at 08:00 in your time zone)
 * or off (docs/decisions/290). Security e-mails are not among them: they always go.
 */

const choices = z.object(
  Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, z.enum(EMAIL_CHOICES)])) as Record<NotificationKind, z.ZodEnum<{ [K in EmailChoice]: K }>>,
);
const response = statusData(z.object({ email: choices, timeZone: z.string() }));

/** GET /api/account/notifications: every kind's choice and your time zone. */
export const loader = apiRoute(
  { method: "GET", auth: "any", response, summary: "Your e-mail choice for each kind of notification, and your time zone." },
  async ({ user }) => ({ status: "success", data: await notificationSettingsOf(user.id) }),
);

/** PUT /api/account/notifications {email:{kind: choice}, timeZone?}: changes the kinds given; answers every kind's choice. */
export const action = apiRoute(
  {
    method: "PUT",
    auth: "any",
    body: emailChoicesBodySchema,
    response,
    summary: "Change your e-mail choice (instant, daily or off) for some kinds of notification, and your time zone.",
  },
  async ({ user, body }) => ({
    status: "success",
    data: await updateNotificationSettings(user.id, { email: body.email as Partial<Record<NotificationKind, EmailChoice>>, timeZone: body.timeZone }),
  }),
);
