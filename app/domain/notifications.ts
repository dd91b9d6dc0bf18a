import { z } from "zod";

import type { notificationJson } from "./schemas/api";
import { TIME_ZONES } from "./time-zones";

/*
 * Notifications (docs/decisions/289): what a person is told, stored and shown under the bell, and
 * how each kind reaches them by e-mail (decision 290).
 */

export const NOTIFICATION_KINDS = ["message", "post_review", "post_overdue", "post_decided", "brief_needed", "report_ready", "billing", "order"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const EMAIL_CHOICES = ["instant", "daily", "off"] as const;
export type EmailChoice = (typeof EMAIL_CHOICES)[number];
export type EmailChoices = Record<NotificationKind, EmailChoice>;

/** What each kind is called on the settings page and in the digest. */
export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, string> = {
  message: "New messages",
  post_review: "Posts waiting for your review",
  post_overdue: "Reviews past their deadline",
  post_decided: "Posts approved or sent back",
  brief_needed: "Briefs to fill in",
  report_ready: "New reports",
  billing: "Billing (failed payments, plan changes)",
  order: "New orders and submitted briefs",
};

/**
 * Until a person chooses: what needs them now (a review, an overdue post, a brief, billing) comes at
 * once; what only informs (decisions on posts, new orders) comes in the morning digest (decision 290).
 */
export const DEFAULT_EMAIL_CHOICES: EmailChoices = {
  message: "instant",
  post_review: "instant",
  post_overdue: "instant",
  post_decided: "daily",
  brief_needed: "instant",
  report_ready: "instant",
  billing: "instant",
  order: "daily",
};

/** What an e-mail is: a security e-mail always goes; any other is about a kind its recipient can turn off. */
export type EmailCategory = "security" | NotificationKind;

export const NOTIFICATIONS_PAGE_SIZE = 50;

/**
 * The bell counts unread notifications up to this many (it shows "99+" from 100): what a message's
 * push and every page's bell count costs stays the same for someone who never opens it
 * (docs/decisions/334). The notifications page and the API count them all.
 */
export const BELL_COUNT_CAP = 100;

/** A notification as the API and the socket's `notification` event send it: its schema's type (app/domain/schemas/api.ts). */
export type NotificationJson = z.infer<typeof notificationJson>;

export const NOTIFICATION_MESSAGES = {
  badCursor: "`before` must be a cursor from an earlier page.",
  nothingToMark: "Send `ids` (a list of notification ids) or `all: true`.",
  badChoice: 'Each e-mail choice must be "instant", "daily" or "off".',
  unknownKind: `Unknown kind of notification: the kinds are ${NOTIFICATION_KINDS.join(", ")}.`,
  badTimeZone: "Choose a time zone from the list (for example Europe/Paris).",
  badUnsubscribe: "This unsubscribe link is not valid. Change your e-mail choices on your notification settings page.",
} as const;

const timeZoneSchema = z.enum(TIME_ZONES, { error: NOTIFICATION_MESSAGES.badTimeZone });

const choiceSchema = z.enum(EMAIL_CHOICES, { error: NOTIFICATION_MESSAGES.badChoice });

/** PUT /api/account/notifications: some or all kinds, each instant, daily or off. */
export const emailChoicesBodySchema = z
  .object({
    email: z.record(z.string(), choiceSchema, { error: "Send `email`: an object of kind → choice." }).check((ctx) => {
      for (const key of Object.keys(ctx.value)) {
        if (!(NOTIFICATION_KINDS as readonly string[]).includes(key))
          ctx.issues.push({ code: "custom", message: NOTIFICATION_MESSAGES.unknownKind, input: key });
      }
    }),
    timeZone: timeZoneSchema.optional(),
  })
  .strict();

/** The notification settings form: one select per kind and the time zone. */
export const notificationSettingsFormSchema = z.object({
  timeZone: timeZoneSchema,
  ...Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, choiceSchema])),
} as { timeZone: typeof timeZoneSchema } & Record<NotificationKind, typeof choiceSchema>);

/** The list's cursor: the createdAt and id of the last notification of the page before. */
export function encodeCursor(createdAt: string, id: string) {
  return `${createdAt}_${id}`;
}

export function decodeCursor(value: string): { createdAt: Date; id: string } | null {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z)_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i.exec(value);
  if (!match) return null;
  const createdAt = new Date(match[1]!);
  return Number.isNaN(createdAt.getTime()) ? null : { createdAt, id: match[2]!.toLowerCase() };
}

/** The notifications page's form: mark one (`id`) or all (`all=1`) read. */
export const markReadFormSchema = z
  .object({ id: z.uuid({ error: "That notification is not there." }).optional(), all: z.literal("1").optional() })
  .refine((value) => value.all === "1" || value.id, NOTIFICATION_MESSAGES.nothingToMark);
