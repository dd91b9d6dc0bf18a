import crypto from "node:crypto";
import { and, asc, eq, gte, inArray, isNull } from "drizzle-orm";
import ical from "ical-generator";

import { CHANNEL_LABELS } from "~/domain/calendar";
import { roleCovers } from "~/domain/clients";
import { db, schema } from "~/utils/db.server";
import { env, sessionSecrets } from "~/utils/env.server";

import { clientOfAccount } from "./clients.server";

/*
 * The private iCalendar link of a client member's content calendar (decision 212):
 * /calendar/<token>.ics, one event per approved or published post. The token is an HMAC of a
 * random salt with the session secret; the table keeps the salt and only the token's SHA-256, so
 * the page can show the same link again while a copy of the database opens no calendar. Renewing
 * draws a new salt: the old token's hash is gone, so the old link answers 404.
 */

const l = schema.calendarLinks;
const p = schema.posts;

/** Posts older than this stay out of the feed: a calendar app wants what is coming, not years of history. */
const FEED_HISTORY_MS = 365 * 24 * 60 * 60 * 1000;
const FEED_LIMIT = 5000;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

const tokenOf = (secret: string, customerId: string, salt: string) =>
  crypto.createHmac("sha256", secret).update(`calendar-link:${customerId}:${salt}`).digest("base64url");
const hashOf = (token: string) => crypto.createHash("sha256").update(token).digest("hex");
const urlOf = (token: string) => `${env.appUrl}/calendar/${token}.ics`;

async function issue(customerId: string): Promise<string> {
  const salt = crypto.randomBytes(16).toString("base64url");
  const token = tokenOf(sessionSecrets(env)[0]!, customerId, salt);
  const row = { customerId, salt, tokenHash: hashOf(token), createdAt: new Date() };
  await db
    .insert(l)
    .values(row)
    .onConflictDoUpdate({ target: l.customerId, set: { salt, tokenHash: row.tokenHash, createdAt: row.createdAt } });
  return urlOf(token);
}

/**
 * The customer's link, made on first asking. With every secret that signed it rotated away, the
 * token cannot be shown again: a new one replaces it.
 */
export async function calendarLinkFor(customerId: string): Promise<string> {
  const [row] = await db.select().from(l).where(eq(l.customerId, customerId)).limit(1);
  if (row) {
    for (const secret of sessionSecrets(env)) {
      const token = tokenOf(secret, customerId, row.salt);
      if (hashOf(token) === row.tokenHash) return urlOf(token);
    }
  }
  return issue(customerId);
}

/** A new link; the previous one stops working at once. */
export const renewCalendarLink = (customerId: string): Promise<string> => issue(customerId);

/**
 * The iCalendar text of the link's customer, or null for a token that is not (or no longer) a link,
 * or whose account is disabled (the link works again if the account is enabled again).
 */
export async function calendarFeed(token: string, now = new Date()): Promise<string | null> {
  if (!TOKEN.test(token)) return null;
  // A link is its member's (a removed member's account is off, so their copy stops); the posts are their client's.
  const client = clientOfAccount(l.customerId);
  const [link] = await db
    .select({ customerId: client.id, name: client.name(schema.users.name), role: client.role })
    .from(l)
    .innerJoin(schema.users, eq(schema.users.id, l.customerId))
    .leftJoin(...client.membership)
    .leftJoin(...client.client)
    .where(and(eq(l.tokenHash, hashOf(token)), isNull(schema.users.disabledAt)))
    .limit(1);
  if (!link || (link.role && !roleCovers(link.role, "work"))) return null;
  const posts = await db
    .select({ id: p.id, channel: p.channel, scheduledAt: p.scheduledAt, caption: p.caption, status: p.status, updatedAt: p.updatedAt })
    .from(p)
    .where(and(eq(p.customerId, link.customerId), inArray(p.status, ["approved", "published"]), gte(p.scheduledAt, new Date(now.getTime() - FEED_HISTORY_MS))))
    .orderBy(asc(p.scheduledAt))
    .limit(FEED_LIMIT);
  const calendar = ical({ name: `BrandLift posts — ${link.name}`, prodId: { company: "BrandLift", product: "Content calendar", language: "EN" } });
  for (const post of posts) {
    const channel = CHANNEL_LABELS[post.channel];
    calendar.createEvent({
      id: `${post.id}@brandlift`,
      start: post.scheduledAt,
      end: new Date(post.scheduledAt.getTime() + 30 * 60 * 1000),
      stamp: post.updatedAt,
      lastModified: post.updatedAt,
      summary: `${channel} post${post.status === "published" ? " (published)" : ""}`,
      description: post.caption,
      url: `${env.appUrl}/dashboard/calendar#post-${post.id}`,
    });
  }
  return calendar.toString();
}
