import { EventEmitter } from "node:events";
import { and, count, desc, eq, gt, inArray, isNull, lt, or, sql, type SQL } from "drizzle-orm";

import { rolesCovering, type ClientCapability } from "~/domain/clients";
import {
  BELL_COUNT_CAP,
  DEFAULT_EMAIL_CHOICES,
  NOTIFICATION_KIND_LABELS,
  NOTIFICATION_KINDS,
  NOTIFICATIONS_PAGE_SIZE,
  type EmailChoice,
  type EmailChoices,
  type NotificationJson,
  type NotificationKind,
} from "~/domain/notifications";
import { queryRows } from "~/utils/db-cursor.server";
import { db, schema, type Tx } from "~/utils/db.server";
import { sendEmail, sendStoredEmails } from "~/utils/email.server";
import { env } from "~/utils/env.server";
import { defineJob, jobs } from "~/utils/jobs.server";
import { logger } from "~/utils/logger.server";
import { startSweep } from "~/utils/sweep.server";
import { readUnsubscribeToken } from "~/utils/unsubscribe-links.server";

/*
 * Notifications (docs/decisions/289): `notify` stores one per recipient, pushes it live as the socket
 * event `notification` (app/realtime listens to `notificationEvents` and emits to the person's room on
 * every node) and e-mails it by the person's choice for its kind (decision 290): at once, in the
 * morning digest, or not at all.
 */

const n = schema.notifications;
const settings = schema.notificationSettings;

interface NotificationEventMap {
  /** A committed notification for one person, with their unread count after it. */
  created: [userId: string, notification: NotificationJson, unread: number];
}

export const notificationEvents = new EventEmitter<NotificationEventMap>();
// One listener per attached socket server; tests attach several in one process.
notificationEvents.setMaxListeners(50);

export interface NotificationInput {
  kind: NotificationKind;
  title: string;
  body?: string;
  /** A path inside the app (`/dashboard/...`) or a full URL of it. */
  url: string;
  /**
   * false: the producer sends its own instant e-mail (a chat reply's, once per quiet period; an
   * order's note to the team inbox), so `instant` adds none; `daily` and the page work as usual.
   */
  instantEmail?: boolean;
}

type Row = typeof n.$inferSelect;

const toJson = (row: Pick<Row, "id" | "kind" | "title" | "body" | "url" | "readAt" | "createdAt">): NotificationJson => ({
  _id: row.id,
  kind: row.kind,
  title: row.title,
  body: row.body,
  url: row.url,
  readAt: row.readAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
});

const absolute = (url: string) => (url.startsWith("/") ? `${env.appUrl}${url}` : url);

/** A person's e-mail choice for every kind: theirs where they chose, else the default. */
function mergeChoices(stored: Partial<Record<NotificationKind, EmailChoice>> | null | undefined): EmailChoices {
  const choices = { ...DEFAULT_EMAIL_CHOICES };
  for (const kind of NOTIFICATION_KINDS) {
    const choice = stored?.[kind];
    if (choice) choices[kind] = choice;
  }
  return choices;
}

/*
 * The live push (`notification` to each person's sockets on every node). Notifications written in a
 * caller's transaction push through a job stored with them, so it runs only after they commit,
 * whoever commits them (`afterCommit` runs it at once, otherwise the job engine within a poll).
 * Notifications `notify` commits itself (a chat message's, on the busiest path) push straight
 * after their commit, with no job's round trips: the bell reads the stored count on any page anyway.
 */
const PUSH_JOB = defineJob<{ ids: string[] }>({
  kind: "notification-push",
  retryLimit: 2,
  retryDelaySeconds: 5,
  leaseSeconds: 60,
  run: async ({ ids }) => {
    if (notificationEvents.listenerCount("created") === 0 || ids.length === 0) return;
    await push(await db.select().from(n).where(inArray(n.id, ids)));
  },
});

/**
 * A person's unread notifications counted to `upTo` (the bell's figure is BELL_COUNT_CAP at most):
 * a subquery on the unread index that reads at most that many of its entries.
 */
export function unreadUpTo(userId: unknown, upTo: number = BELL_COUNT_CAP): SQL {
  return sql`(select count(*)::int from (select 1 from ${n} where ${n.userId} = ${userId}::uuid and ${n.readAt} is null limit ${sql.raw(String(upTo))}) as unread)`;
}

/** Emits each committed notification with its person's bell count (one read for them all). */
async function push(rows: (typeof n.$inferSelect)[]) {
  if (notificationEvents.listenerCount("created") === 0 || rows.length === 0) return;
  const people = [...new Set(rows.map((row) => row.userId))];
  const counts = await queryRows<{ userId: string; count: number }>(
    sql`select p.id::text as "userId", ${unreadUpTo(sql`p.id`)} as "count" from unnest(array[${sql.join(
      people.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}]) as p(id)`,
  );
  const unread = new Map(counts.map((row) => [row.userId, Number(row.count)]));
  for (const row of rows) notificationEvents.emit("created", row.userId, toJson(row), unread.get(row.userId) ?? 0);
}

/** What happens once the notifications are committed: the live pushes and the instant e-mails. */
export interface Notified {
  ids: string[];
  /** Inside the caller's transaction, call this once it has committed to push and send at once (outside one, `notify` did); otherwise the job engine does within seconds. */
  afterCommit: () => Promise<void>;
}

/**
 * Tells each recipient (user ids; repeats and disabled accounts left out) one thing: a stored
 * notification, and an e-mail now when their choice for the kind is `instant` (a `daily` one waits
 * for the morning digest). In `tx` everything is written in the caller's transaction; the live push
 * and the sending wait for `afterCommit`.
 */
export async function notify(recipients: readonly string[], input: NotificationInput, tx?: Tx): Promise<Notified> {
  const ids = [...new Set(recipients)];
  if (ids.length === 0) return { ids: [], afterCommit: async () => {} };
  const write = async (t: Tx) => {
    const people = await t
      .select({ id: schema.users.id, email: schema.users.email, name: schema.users.name, choices: settings.email })
      .from(schema.users)
      .leftJoin(settings, eq(settings.userId, schema.users.id))
      .where(and(inArray(schema.users.id, ids), isNull(schema.users.disabledAt)));
    if (people.length === 0) return { rows: [], jobIds: [], pushJobId: null };
    // Milliseconds, as JavaScript and the list's cursor read them.
    const now = new Date();
    const rows = await t
      .insert(n)
      .values(
        people.map((person) => ({
          userId: person.id,
          kind: input.kind,
          title: input.title,
          body: input.body ?? "",
          url: input.url,
          createdAt: now,
          email: mergeChoices(person.choices)[input.kind],
        })),
      )
      .returning();
    const jobIds: string[] = [];
    // In a caller's transaction the live push is a job of it: it exists, and runs, only once the change commits.
    const pushJobId = tx ? await jobs.enqueue(PUSH_JOB.kind, { ids: rows.map((row) => row.id) }, { tx: t }) : null;
    for (const person of people) {
      if (input.instantEmail === false || mergeChoices(person.choices)[input.kind] !== "instant") continue;
      const { jobId } = await sendEmail(
        {
          to: person.email,
          category: input.kind,
          subject: input.title,
          heading: input.title,
          paragraphs: input.body ? [input.body] : [],
          action: { label: "Open it in BrandLift", url: absolute(input.url) },
        },
        { tx: t, userId: person.id },
      );
      jobIds.push(jobId);
    }
    return { rows, jobIds, pushJobId };
  };
  const written = tx ? await write(tx) : await db.transaction(write);
  const afterCommit = async () => {
    if (written.pushJobId) await jobs.runNow(PUSH_JOB.kind, written.pushJobId).catch(() => false);
    await sendStoredEmails(written.jobIds);
  };
  if (!tx) {
    await push(written.rows).catch((error: unknown) =>
      logger.warn({ err: error }, "the notifications' live push failed; the bell shows them on the next page"),
    );
    await afterCommit();
  }
  return { ids: written.rows.map((row) => row.id), afterCommit };
}

/** Every active staff account (team notices: new orders, submitted briefs, messages nobody is assigned). */
async function staffIds(executor: Pick<Tx, "select"> = db): Promise<string[]> {
  const rows = await executor
    .select({ id: schema.users.id })
    .from(schema.users)
    .where(and(eq(schema.users.role, "team"), isNull(schema.users.disabledAt)));
  return rows.map((row) => row.id);
}

/** A message's text as its notification's body: the first 140 characters. */
export const excerpt = (text: string) => (text.length > 140 ? `${text.slice(0, 139)}…` : text);

/** The same excerpt of a text only the statement knows (a file's name sent without a caption). */
export const excerptSql = (text: SQL) => sql`case when char_length(${text}) > 140 then left(${text}, 139) || '…' else ${text} end`;

/** A support message's notification as the message's statement answers it, for the live push. */
export interface MessageNotified {
  id: string;
  userId: string;
  url: string;
  title: string;
  body: string;
  createdAt: string;
  unread: number;
}

/**
 * A support message told to the other side, written by the message's own statement
 * (docs/decisions/327): from staff, each member of the client who chats (a customer not yet moved
 * into a client of one: the customer); from the client, the thread's assignee, else every staff
 * member; never the sender. Each stored with the person's e-mail choice; the chat's own e-mail
 * (once per quiet period, to a member who is away) stays its instant e-mail, so these add none.
 * CTEs after `msg` and `thread`; `messageNotifiedColumn` answers them with each person's unread count.
 */
export function messageNotificationWrites(message: {
  /** The sender's id and the thread's customer's id: each a statement parameter. */
  senderId: unknown;
  customerId: unknown;
  title: SQL;
  body: SQL;
  createdAt: SQL;
}): SQL {
  const { senderId, customerId } = message;
  const chatRoles = sql.join(
    rolesCovering("chat").map((role) => sql`${role}`),
    sql`, `,
  );
  const u = schema.users;
  const m = schema.clientMembers;
  const assignee = sql`(select assignee_id from thread)`;
  return sql`notify_sender as (select ${u.role} as role from ${u} where ${u.id} = ${senderId}::uuid),
    notify_members as (
      select ${m.userId} as id from ${m} join ${u} on ${u.id} = ${m.userId}
      where ${m.clientId} = ${customerId}::uuid and ${m.removedAt} is null and ${m.role} in (${chatRoles}) and ${u.disabledAt} is null),
    notify_recipients as (
      select id, '/dashboard/messages' as url from notify_members where (select role from notify_sender) = 'team'
      union
      select ${customerId}::uuid, '/dashboard/messages' where (select role from notify_sender) = 'team' and not exists (select 1 from notify_members)
      union
      select id, '/dashboard/inbox/' || ${customerId}::text from (
        select ${assignee} as id where ${assignee} is not null
        union
        select ${u.id} from ${u} where ${u.role} = 'team' and ${u.disabledAt} is null and ${assignee} is null) as staff
      where (select role from notify_sender) is distinct from 'team' and id is distinct from ${senderId}::uuid),
    notify_stored as (
      insert into ${n} (user_id, kind, title, body, url, created_at, email)
      select r.id, 'message', ${message.title}, ${message.body}, r.url, ${message.createdAt}::timestamptz,
        coalesce(nullif(${settings.email} ->> 'message', ''), ${DEFAULT_EMAIL_CHOICES.message})
      from notify_recipients r join ${u} on ${u.id} = r.id and ${u.disabledAt} is null
        left join ${settings} on ${settings.userId} = r.id
      where exists (select 1 from thread)
      returning id, user_id, url, title, body, created_at)`;
}

/**
 * The statement's answer for `messageNotificationWrites`: its notifications as JSON text, each with its
 * person's bell count after it (its own rows are not in its snapshot: the others, to one fewer, + 1).
 */
export const messageNotifiedColumn = sql`(select coalesce(json_agg(json_build_object('id', s.id, 'userId', s.user_id, 'url', s.url, 'title', s.title,
    'body', s.body, 'createdAt', to_char(s.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'unread', ${unreadUpTo(sql`s.user_id`, BELL_COUNT_CAP - 1)} + 1)), '[]')::text
  from notify_stored as s) as "notified"`;

/** The live push of a message's stored notifications, with the bell counts its statement answered. */
export function pushMessageNotifications(rows: readonly MessageNotified[]) {
  if (notificationEvents.listenerCount("created") === 0) return;
  for (const row of rows) {
    const json = toJson({ id: row.id, kind: "message", title: row.title, body: row.body, url: row.url, readAt: null, createdAt: new Date(row.createdAt) });
    notificationEvents.emit("created", row.userId, json, row.unread);
  }
}

/** The client's members whose role covers `capability`, read in `tx` (a client of one without member rows: the client's own account). */
async function clientMembersWho(tx: Tx, clientId: string, capability: ClientCapability): Promise<string[]> {
  const rows = await tx
    .select({ id: schema.users.id })
    .from(schema.clientMembers)
    .innerJoin(schema.users, eq(schema.users.id, schema.clientMembers.userId))
    .where(
      and(
        eq(schema.clientMembers.clientId, clientId),
        isNull(schema.clientMembers.removedAt),
        inArray(schema.clientMembers.role, rolesCovering(capability)),
        isNull(schema.users.disabledAt),
      ),
    );
  if (rows.length > 0) return rows.map((row) => row.id);
  const [anyMember] = await tx
    .select({ id: schema.clientMembers.userId })
    .from(schema.clientMembers)
    .where(eq(schema.clientMembers.clientId, clientId))
    .limit(1);
  return anyMember ? [] : [clientId];
}

/**
 * A paid order, in its fulfilment's transaction: staff are told of the new order (their instant
 * e-mail is the order's team note), and when it opened a brief, the client's members who answer
 * briefs are asked for it. Answers what to run once the transaction has committed.
 */
export async function notifyOfPaidOrder(tx: Tx, order: { id: string; name: string }, clientId: string): Promise<() => Promise<void>> {
  const staff = await notify(
    await staffIds(tx),
    { kind: "order", title: `New order from ${order.name}`, url: `/dashboard/orders/${order.id}`, instantEmail: false },
    tx,
  );
  const [open] = await tx
    .select({ count: count() })
    .from(schema.briefs)
    .where(
      and(
        isNull(schema.briefs.submittedAt),
        or(
          inArray(schema.briefs.purchaseId, tx.select({ id: schema.purchases.id }).from(schema.purchases).where(eq(schema.purchases.orderId, order.id))),
          inArray(
            schema.briefs.subscriptionId,
            tx.select({ id: schema.subscriptions.id }).from(schema.subscriptions).where(eq(schema.subscriptions.orderId, order.id)),
          ),
        ),
      ),
    );
  if (!open?.count) return staff.afterCommit;
  const brief = await notify(
    await clientMembersWho(tx, clientId, "answer"),
    { kind: "brief_needed", title: "Tell us about your project", body: "Answer a few questions so we can start on your order.", url: "/dashboard/services" },
    tx,
  );
  return async () => {
    await staff.afterCommit();
    await brief.afterCommit();
  };
}

/** A submitted brief, told to staff (the thread's assignee is not known here: everyone). */
export async function notifyOfSubmittedBrief(brief: { title: string; clientId: string }) {
  await notify(await staffIds(), { kind: "order", title: `Brief submitted: ${brief.title}`, url: `/dashboard/users/${brief.clientId}` });
}

/** The bell's figure: a person's unread notifications, counted to BELL_COUNT_CAP. */
export async function bellCount(userId: string): Promise<number> {
  const [row] = await queryRows<{ count: number }>(sql`select ${unreadUpTo(userId)} as "count"`);
  return Number(row?.count ?? 0);
}

/** How many of a person's notifications are unread, all of them (one query on the unread index). */
export async function unreadCount(userId: string): Promise<number> {
  const [row] = await db
    .select({ count: count() })
    .from(n)
    .where(and(eq(n.userId, userId), isNull(n.readAt)));
  return Number(row?.count ?? 0);
}

/** A page of a person's notifications, newest first (50 unless `limit`), after the cursor `before` when given. */
export async function listNotifications(userId: string, options: { unread?: boolean; before?: { createdAt: Date; id: string } | null; limit?: number } = {}) {
  const before = options.before;
  const rows = await db
    .select({ id: n.id, kind: n.kind, title: n.title, body: n.body, url: n.url, readAt: n.readAt, createdAt: n.createdAt })
    .from(n)
    .where(
      and(
        eq(n.userId, userId),
        options.unread ? isNull(n.readAt) : undefined,
        before ? or(lt(n.createdAt, before.createdAt), and(eq(n.createdAt, before.createdAt), lt(n.id, before.id))) : undefined,
      ),
    )
    .orderBy(desc(n.createdAt), desc(n.id))
    .limit(options.limit ?? NOTIFICATIONS_PAGE_SIZE);
  return rows.map(toJson);
}

/** Marks some of a person's notifications (or all of them) read; answers the unread count after. */
export async function markNotificationsRead(userId: string, which: { ids?: string[]; all?: boolean }) {
  const ids = (which.ids ?? []).filter((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id));
  if (which.all || ids.length > 0) {
    await db
      .update(n)
      .set({ readAt: new Date() })
      .where(and(eq(n.userId, userId), isNull(n.readAt), which.all ? undefined : inArray(n.id, ids)));
  }
  return unreadCount(userId);
}

/** A person's e-mail choices (every kind) and time zone. */
export async function notificationSettingsOf(userId: string): Promise<{ email: EmailChoices; timeZone: string }> {
  const [row] = await db
    .select({ choices: settings.email, timeZone: schema.users.timeZone })
    .from(schema.users)
    .leftJoin(settings, eq(settings.userId, schema.users.id))
    .where(eq(schema.users.id, userId));
  return { email: mergeChoices(row?.choices), timeZone: row?.timeZone ?? "UTC" };
}

/** Changes some e-mail choices (and the time zone, when given); answers every kind's choice after. */
export async function updateNotificationSettings(userId: string, change: { email?: Partial<Record<NotificationKind, EmailChoice>>; timeZone?: string }) {
  await db.transaction(async (tx) => {
    if (change.email && Object.keys(change.email).length > 0) {
      const patch = JSON.stringify(change.email);
      await tx
        .insert(settings)
        .values({ userId, email: change.email })
        .onConflictDoUpdate({ target: settings.userId, set: { email: sql`${settings.email} || ${patch}::jsonb`, updatedAt: new Date() } });
    }
    if (change.timeZone) await tx.update(schema.users).set({ timeZone: change.timeZone }).where(eq(schema.users.id, userId));
  });
  return notificationSettingsOf(userId);
}

/** One-click unsubscribe (decision 291): turns the token's kind off for its person. Answers what was turned off, or null for a bad token. */
export async function unsubscribe(token: string) {
  const target = readUnsubscribeToken(token);
  if (!target) return null;
  const [user] = await db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.id, target.userId));
  if (!user) return null;
  await updateNotificationSettings(target.userId, { email: { [target.kind]: "off" } });
  return { kind: target.kind, label: NOTIFICATION_KIND_LABELS[target.kind] };
}

/*
 * The morning digest (decision 290): at 08:00 in each person's time zone, one e-mail of the `daily`
 * notifications no digest has carried. The job walks the people who have any, in id order a batch at
 * a time (bounded memory on any number of people); each person's items are claimed in one
 * transaction with the e-mail, so a digest never carries an item twice, whatever runs at once.
 */

const DIGEST_HOUR = 8;
const DIGEST_BATCH = 500;
const DIGEST_LIST_LIMIT = 50;

/** The person's own date (YYYY-MM-DD) and hour at `now`. */
export function localClock(now: Date, timeZone: string) {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    hourCycle: "h23",
  }).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "00";
  return { date: `${part("year")}-${part("month")}-${part("day")}`, hour: Number(part("hour")) };
}

/** Sends each person whose 08:00 has come today their digest. Answers how many digests went. */
export async function sendDueDigests(now: Date = new Date()): Promise<number> {
  let after = "00000000-0000-0000-0000-000000000000";
  let sent = 0;
  for (;;) {
    const people = await db
      .selectDistinct({ userId: n.userId, timeZone: schema.users.timeZone, lastDigestOn: settings.lastDigestOn })
      .from(n)
      .innerJoin(schema.users, eq(schema.users.id, n.userId))
      .leftJoin(settings, eq(settings.userId, n.userId))
      .where(and(eq(n.email, "daily"), isNull(n.digestedAt), gt(n.userId, after)))
      .orderBy(n.userId)
      .limit(DIGEST_BATCH);
    for (const person of people) {
      const local = localClock(now, person.timeZone);
      if (local.hour < DIGEST_HOUR || (person.lastDigestOn && person.lastDigestOn >= local.date)) continue;
      if (await sendDigest(person.userId, local.date, now)) sent++;
    }
    if (people.length < DIGEST_BATCH) return sent;
    after = people.at(-1)!.userId;
  }
}

async function sendDigest(userId: string, localDate: string, now: Date) {
  return db.transaction(async (tx) => {
    // The claim: a run beside this one waits here, then finds nothing left to carry.
    const items = await tx
      .update(n)
      .set({ digestedAt: now })
      .where(and(eq(n.userId, userId), eq(n.email, "daily"), isNull(n.digestedAt)))
      .returning({ title: n.title, body: n.body, kind: n.kind, createdAt: n.createdAt });
    await tx
      .insert(settings)
      .values({ userId, lastDigestOn: localDate })
      .onConflictDoUpdate({ target: settings.userId, set: { lastDigestOn: localDate } });
    const [person] = await tx
      .select({ email: schema.users.email, name: schema.users.name, disabledAt: schema.users.disabledAt })
      .from(schema.users)
      .where(eq(schema.users.id, userId));
    if (items.length === 0 || !person || person.disabledAt) return false;
    items.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    const listed = items.slice(0, DIGEST_LIST_LIMIT).map((item) => (item.body ? `${item.title}: ${item.body}` : item.title));
    const more = items.length - listed.length;
    await sendEmail(
      {
        to: person.email,
        subject: `Your BrandLift summary: ${items.length} ${items.length === 1 ? "update" : "updates"}`,
        heading: `Good morning ${person.name}, here is what happened`,
        paragraphs: [...listed, ...(more > 0 ? [`And ${more} more on your notifications page.`] : [])],
        action: { label: "See your notifications", url: `${env.appUrl}/dashboard/notifications` },
        // Its one-click link turns off the kind most of it is about; the settings page has the rest.
        category: mostCommonKind(items.map((item) => item.kind)),
      },
      { tx, userId },
    );
    return true;
  });
}

function mostCommonKind(kinds: NotificationKind[]): NotificationKind {
  const counts = new Map<NotificationKind, number>();
  for (const kind of kinds) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
}

/** The digest's job: every 15 minutes, once across nodes (each zone's 08:00 falls within a quarter hour). */
export function startNotificationDigest(): () => void {
  return startSweep({
    kind: "notification-digest",
    everyMs: 15 * 60_000,
    work: () => sendDueDigests(),
    done: "sent morning digests",
    failed: "the morning digest failed",
  });
}
