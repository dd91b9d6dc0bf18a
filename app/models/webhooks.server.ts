import crypto from "node:crypto";
import { and, desc, eq, sql, type SQL } from "drizzle-orm";

import type { ChatMessage } from "~/domain/chat";
import { withWireId } from "~/domain/ids";
import {
  DELIVERY_TIMEOUT_MS,
  FAILURES_BEFORE_TURN_OFF,
  MAX_ATTEMPTS,
  RESPONSE_EXCERPT_BYTES,
  RETRY_DELAYS_SECONDS,
  type DeliveryJson,
  type Webhook,
  type WebhookDelivery,
  type WebhookEvent,
  type WebhookJson,
} from "~/domain/webhooks";
import { afterResponse } from "~/utils/background.server";
import { queryRows } from "~/utils/db-cursor.server";
import { db, schema, type Db, type Tx } from "~/utils/db.server";
import { sendEmail } from "~/utils/email.server";
import { env } from "~/utils/env.server";
import { HttpError } from "~/utils/http.server";
import { defineJob, jobRowsOf, jobs } from "~/utils/jobs.server";
import { logger } from "~/utils/logger.server";
import { webhookDeliveries as deliveryCounter } from "~/utils/metrics.server";
import { postWebhook, type WebhookRequestOptions } from "~/utils/webhook-request.server";

import { recordAudit } from "./audit.server";
import { teamRecipients } from "./order-emails.server";

/*
 * Webhooks (docs/decisions/286): an event is a row, with one delivery row and one job per webhook
 * that wants it, written in the transaction of the change that causes it. The job POSTs the signed
 * body; a failure stores the answer and enqueues the next try on the schedule of
 * RETRY_DELAYS_SECONDS, always with the same event id and body. A webhook whose last 7 events all
 * ended failed is turned off and the team is told by e-mail.
 */

const w = schema.webhooks;
const d = schema.webhookDeliveries;
const e = schema.webhookEvents;

type WebhookRow = typeof w.$inferSelect;

const toWebhook = (row: WebhookRow): Webhook => ({
  id: row.id,
  url: row.url,
  events: row.events,
  active: row.active,
  consecutiveFailures: row.consecutiveFailures,
  disabledReason: row.disabledReason,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** The API's edge: a webhook with its id as `_id` (docs/api.md). */
export const toWebhookJson = (webhook: Webhook): WebhookJson => withWireId(webhook);

/** The API's edge: a delivery with its id as `_id`. */
export const toDeliveryJson = (delivery: WebhookDelivery): DeliveryJson => withWireId(delivery);

/** The signature header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export function signatureHeader(secret: string, body: string, at = new Date()) {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = crypto.createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
  return `t=${t},v1=${v1}`;
}

export async function listWebhooks(): Promise<Webhook[]> {
  const rows = await db.select().from(w).orderBy(desc(w.createdAt)).limit(200);
  return rows.map(toWebhook);
}

export async function getWebhook(id: string): Promise<Webhook | null> {
  const [row] = await db.select().from(w).where(eq(w.id, id));
  return row ? toWebhook(row) : null;
}

/** A new webhook; its signing secret is answered here and never again. */
export async function createWebhook(actor: { id: string }, input: { url: string; events: WebhookEvent[] }) {
  const secret = `whsec_${crypto.randomBytes(24).toString("base64url")}`;
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(w).values({ url: input.url, events: input.events, secret, createdBy: actor.id }).returning();
    await recordAudit({ actor, action: "webhook.create", target: { kind: "webhook", id: row!.id, label: row!.url }, detail: input.events.join(", ") }, tx);
    return { webhook: toWebhook(row!), secret };
  });
}

/** Changes the address, the events or whether it is on (turning it on starts its failure count again). */
export async function updateWebhook(actor: { id: string }, id: string, input: { url?: string; events?: WebhookEvent[]; active?: boolean }) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(w)
      .set({
        ...(input.url !== undefined ? { url: input.url } : {}),
        ...(input.events !== undefined ? { events: input.events } : {}),
        ...(input.active !== undefined ? { active: input.active } : {}),
        ...(input.active === true ? { consecutiveFailures: 0, disabledReason: null } : {}),
        updatedAt: new Date(),
      })
      .where(eq(w.id, id))
      .returning();
    if (!row) return null;
    const changes = [
      input.url !== undefined && `address ${input.url}`,
      input.events !== undefined && `events ${input.events.join(", ")}`,
      input.active !== undefined && (input.active ? "turned on" : "turned off"),
    ].filter(Boolean);
    await recordAudit({ actor, action: "webhook.update", target: { kind: "webhook", id, label: row.url }, detail: changes.join("; ") }, tx);
    return toWebhook(row);
  });
}

export async function deleteWebhook(actor: { id: string }, id: string) {
  return db.transaction(async (tx) => {
    // Its deliveries go with it, and the events only it was delivering (an event with a once key
    // stays: it keeps that event from happening twice).
    await tx.execute(sql`with gone as (delete from ${d} where ${d.webhookId} = ${id}::uuid returning ${d.eventId} as event_id)
      delete from ${e} as ev where ev.id in (select event_id from gone) and ev.once_key is null
        and not exists (select 1 from ${d} as other where other.event_id = ev.id and other.webhook_id <> ${id}::uuid)`);
    const [row] = await tx.delete(w).where(eq(w.id, id)).returning({ url: w.url });
    if (!row) return false;
    await recordAudit({ actor, action: "webhook.delete", target: { kind: "webhook", id, label: row.url } }, tx);
    return true;
  });
}

/**
 * Stores an event and a delivery (and its job) for each webhook that is on and wants it, in `tx`:
 * they exist exactly when the change commits; an event no webhook wants is not kept. `onceKey`
 * makes an event that must happen once (stored even when no webhook wants it; a second emit with the
 * same key stores nothing). Answers the event id, or null when its once key was already taken.
 */
export async function emitEvent(tx: Db | Tx, type: WebhookEvent, data: Record<string, unknown>, options: { onceKey?: string } = {}): Promise<string | null> {
  // One statement, the writes a chat message's event also uses (eventWrites): the event, the
  // deliveries and their jobs. The id and time are ours; the body is built from them and the data's
  // JSON text as JSON.stringify({ id, type, createdAt, data }) writes it.
  const id = crypto.randomUUID();
  const [written] = await queryRows<{ written: boolean; deliveries: number; deliveryJobs: number }>(
    sql`with event_source as (select ${id}::uuid as id, ${new Date().toISOString()}::text as at, ${JSON.stringify(data)}::text as data),
    ${eventWrites(type, options)}
    select exists (select 1 from webhook_event) as "written", ${eventWritesCounts}`,
    tx,
  );
  // Not stored: no webhook wants it (its id is still the event's), or its once key was taken (null).
  if (!written?.written) return options.onceKey === undefined ? id : null;
  await afterEventWrites(id, written, { tx });
  return id;
}

/*
 * What each event carries (docs/integrations.md). Money is in cents with its currency; a customer's
 * belongings are named by their client id (the id of the account the client started from).
 */
type OrderLike = { id: string; kind: string; email: string; name: string; totalCents: number; refundedCents: number; currency: string; planId: string | null };

export const orderEventData = (order: OrderLike, clientId: string | null, paidAt: Date) => ({
  order: {
    _id: order.id,
    clientId,
    kind: order.kind,
    email: order.email,
    name: order.name,
    totalCents: order.totalCents,
    currency: order.currency,
    planId: order.planId,
    paidAt: paidAt.toISOString(),
  },
});

export const refundEventData = (order: OrderLike & { userId: string | null; status: string }, amountCents: number) => ({
  order: {
    _id: order.id,
    clientId: order.userId,
    status: order.status,
    totalCents: order.totalCents,
    refundedCents: order.refundedCents,
    currency: order.currency,
  },
  refund: { amountCents, currency: order.currency },
});

export const subscriptionEventData = (
  subscription: { id: string; userId: string | null; planId: string; priceCents: number; currency: string; currentPeriodEnd: Date | null },
  status: string,
) => ({
  subscription: {
    _id: subscription.id,
    clientId: subscription.userId,
    planId: subscription.planId,
    status,
    priceCents: subscription.priceCents,
    currency: subscription.currency,
    currentPeriodEnd: subscription.currentPeriodEnd?.toISOString() ?? null,
  },
});

/** JSON text, written by SQL byte for byte as JSON.stringify writes it: each field's value is JSON text already. */
function jsonObjectText(fields: [key: string, json: SQL][]): SQL {
  const parts = fields.map(([key, json], i) => sql`${`${i === 0 ? "{" : ","}${JSON.stringify(key)}:`}::text || ${json}`);
  return sql`(${sql.join(parts, sql` || `)} || '}')`;
}

/** A value the statement reads, as JSON text (to_json escapes strings as JSON.stringify does). */
export const jsonOf = (value: SQL) => sql`coalesce(to_json(${value})::text, 'null')`;

/** A value known before the statement, as JSON text. */
const jsonKnown = (value: unknown) => sql`${JSON.stringify(value)}::text`;

/** A `message.created` event's data (docs/integrations.md), built by the message's own statement from what it stores. */
export function messageEventDataText(message: {
  /** The message's id, room and client as JSON text. */
  id: SQL;
  roomId: SQL;
  clientId: SQL;
  sender: { id: SQL; name: SQL };
  text: SQL;
  messageType: ChatMessage["messageType"];
  attachment: { id: SQL; fileName: SQL; mimeType: SQL; fileSize: SQL } | null;
  createdAt: SQL;
}): SQL {
  const { attachment } = message;
  return jsonObjectText([
    [
      "message",
      jsonObjectText([
        ["_id", message.id],
        ["roomId", message.roomId],
        ["clientId", message.clientId],
        [
          "sender",
          jsonObjectText([
            ["_id", message.sender.id],
            ["name", message.sender.name],
          ]),
        ],
        ["text", message.text],
        ["messageType", jsonKnown(message.messageType)],
        [
          "attachment",
          attachment
            ? jsonObjectText([
                ["_id", attachment.id],
                ["fileName", attachment.fileName],
                ["mimeType", attachment.mimeType],
                ["fileSize", attachment.fileSize],
              ])
            : jsonKnown(null),
        ],
        ["createdAt", message.createdAt],
      ]),
    ],
  ]);
}

/**
 * Every webhook event's writes (emitEvent's, and a chat message's in its own statement,
 * docs/decisions/327), as CTEs after one named `event_source` (`id` uuid, `at` the ISO time, `data`
 * the event's data as JSON text; no row, no event): `webhook_wanting`, the webhooks that are on and
 * want it; `webhook_event`; then `webhook_deliveries` and `webhook_jobs`, a delivery and its job for
 * each of them. An event no webhook wants is not stored (docs/decisions/330), unless it has a
 * `onceKey`: then it is stored, to be refused the second time, and an event whose key is already
 * stored is not written, nor its deliveries and jobs.
 */
export function eventWrites(type: WebhookEvent, options: { onceKey?: string } = {}): SQL {
  const body = sql`${`{"id":`}::text || to_json(src.id::text)::text || ${`,"type":${JSON.stringify(type)},"createdAt":`}::text
    || to_json(src.at)::text || ',"data":' || src.data || '}'`;
  // Without a once key the event is kept only for a webhook that wants it; with one, always, once.
  const [onceKey, keep] =
    options.onceKey === undefined
      ? [sql`null`, sql`where exists (select 1 from webhook_wanting)`]
      : [sql`${options.onceKey}::text`, sql`on conflict do nothing`];
  return sql`webhook_wanting as (select ${w.id} as id from ${w} where ${w.active} and ${type} = any(${w.events})),
    webhook_event as (
      insert into ${e} (id, type, data, once_key, created_at)
      select id, ${type}, data::jsonb, ${onceKey}, at::timestamptz from event_source
      ${keep}
      returning id),
    webhook_deliveries as (
      insert into ${d} (webhook_id, event_id, request_body, next_attempt_at)
      select wanting.id, src.id, ${body}, src.at::timestamptz
      from webhook_wanting as wanting, event_source as src join webhook_event as ev on ev.id = src.id
      returning id),
    webhook_jobs as (${jobRowsOf(DELIVERY_JOB.kind, sql`select jsonb_build_object('deliveryId', id, 'after', 0) as data from webhook_deliveries`)})`;
}

/** What `eventWrites` wrote, for the statement's answer: its deliveries and their jobs. */
export const eventWritesCounts = sql`(select count(*) from webhook_deliveries)::int as "deliveries", (select count(*) from webhook_jobs)::int as "deliveryJobs"`;

/**
 * After a statement with `eventWrites`: a delivery without its job (the delivery queue not made yet
 * in this database) gets one the usual way, and the job loop looks soon rather than at its next poll.
 * A statement run in a transaction still open (emitEvent's, in its caller's `tx`) passes it: the
 * missing jobs are stored in it and commit with the event or not at all.
 */
export async function afterEventWrites(eventId: string, written: { deliveries: number; deliveryJobs: number }, options: { tx?: Db | Tx } = {}) {
  if (written.deliveries === 0) return;
  if (written.deliveryJobs < written.deliveries) {
    const rows = await (options.tx ?? db).select({ id: d.id }).from(d).where(eq(d.eventId, eventId));
    const enqueueOptions = options.tx ? { tx: options.tx as Tx } : {};
    for (const row of rows) await jobs.enqueue(DELIVERY_JOB.kind, { deliveryId: row.id, after: 0 }, enqueueOptions);
  }
  // Without a transaction the statement has committed: the loop looks now. In a caller's
  // transaction, in 50 ms: it has normally committed by then (only its owner knows when); if it
  // has not, the loop's next poll finds the jobs.
  if (options.tx) setTimeout(() => jobs.kick(), 50).unref();
  else jobs.kick();
}

const POST_STATUS_EVENTS: Partial<Record<string, WebhookEvent>> = {
  in_review: "post.review_requested",
  approved: "post.approved",
  changes_requested: "post.changes_requested",
};

/** A post moved to `status` in `tx`: the matching event (review requested, approved, changes requested), if any. */
export async function emitPostStatusEvent(tx: Db | Tx, postId: string, status: string) {
  const type = POST_STATUS_EVENTS[status];
  if (!type) return;
  const p = schema.posts;
  const [post] = await tx
    .select({ id: p.id, clientId: p.customerId, channel: p.channel, caption: p.caption, scheduledAt: p.scheduledAt })
    .from(p)
    .where(eq(p.id, postId));
  if (!post) return;
  await emitEvent(tx, type, {
    post: { _id: post.id, clientId: post.clientId, channel: post.channel, caption: post.caption, status, scheduledAt: post.scheduledAt.toISOString() },
  });
}

/** Test seam: how a delivery reaches its address. */
let send = postWebhook;
export function sendWebhooksWith(sender: (url: string, body: string, options: WebhookRequestOptions) => ReturnType<typeof postWebhook>) {
  send = sender;
}

const DELIVERY_JOB = defineJob<{ deliveryId: string; after: number }>({
  kind: "webhook.delivery",
  // A try that fails is recorded and the next is a new job (RETRY_DELAYS_SECONDS); the engine's own
  // retries only cover a node dying or the database failing mid-run.
  retryLimit: 3,
  retryDelaySeconds: 30,
  leaseSeconds: 60,
  run: ({ deliveryId, after }) => attemptDelivery(deliveryId, after),
});

/** One try of a delivery that has had `after` tries; a job finding another try already recorded does nothing. */
async function attemptDelivery(deliveryId: string, after: number) {
  const [row] = await db
    .select({ delivery: d, webhook: w })
    .from(d)
    .innerJoin(w, eq(w.id, d.webhookId))
    .where(and(eq(d.id, deliveryId), eq(d.attempts, after), eq(d.status, "pending")));
  if (!row) return;
  const { delivery, webhook } = row;
  if (!webhook.active) {
    await db
      .update(d)
      .set({ status: "failed", nextAttemptAt: null, lastError: "The webhook is turned off", updatedAt: new Date() })
      .where(and(eq(d.id, deliveryId), eq(d.attempts, after)));
    return;
  }
  const eventId = (JSON.parse(delivery.requestBody) as { id: string }).id;
  let status: number | null = null;
  let excerpt: string | null = null;
  let error: string | null = null;
  try {
    const answer = await send(webhook.url, delivery.requestBody, {
      headers: { "BrandLift-Event-Id": eventId, "BrandLift-Signature": signatureHeader(webhook.secret, delivery.requestBody) },
      timeoutMs: DELIVERY_TIMEOUT_MS,
      excerptBytes: RESPONSE_EXCERPT_BYTES,
    });
    status = answer.status;
    excerpt = answer.excerpt;
  } catch (failure) {
    error = (failure instanceof Error ? failure.message : String(failure)).slice(0, 500);
  }
  const attempts = after + 1;
  const delivered = status !== null && status >= 200 && status < 300;
  const retryIn = !delivered && attempts < MAX_ATTEMPTS ? RETRY_DELAYS_SECONDS[attempts - 1]! : null;
  const nextAttemptAt = retryIn === null ? null : new Date(Date.now() + retryIn * 1000);
  const finalStatus = delivered ? "delivered" : retryIn === null ? "failed" : "pending";

  // Read before the transaction (the embedded database has one connection: no read beside it).
  const team = finalStatus === "failed" ? await teamRecipients() : [];
  const turnedOff = await db.transaction(async (tx) => {
    const [recorded] = await tx
      .update(d)
      .set({
        attempts,
        status: finalStatus,
        lastStatusCode: status,
        responseExcerpt: excerpt,
        lastError: error ?? (delivered ? null : `The receiver answered ${status}`),
        nextAttemptAt,
        ...(delivered ? { deliveredAt: new Date() } : {}),
        updatedAt: new Date(),
      })
      .where(and(eq(d.id, deliveryId), eq(d.attempts, after)))
      .returning({ id: d.id });
    // Another run recorded this try first (a job taken over after its lease): nothing more.
    if (!recorded) return false;
    if (nextAttemptAt) await jobs.enqueue(DELIVERY_JOB.kind, { deliveryId, after: attempts }, { tx, startAfter: nextAttemptAt });
    if (finalStatus === "pending") return false;
    const [hook] = await tx
      .update(w)
      .set({ consecutiveFailures: delivered ? 0 : sql`${w.consecutiveFailures} + 1` })
      .where(eq(w.id, webhook.id))
      .returning({ failures: w.consecutiveFailures, active: w.active });
    if (delivered || !hook?.active || hook.failures < FAILURES_BEFORE_TURN_OFF) return false;
    const reason = `Turned off after ${hook.failures} events in a row failed to reach it`;
    await tx.update(w).set({ active: false, disabledReason: reason, updatedAt: new Date() }).where(eq(w.id, webhook.id));
    if (team.length > 0) {
      await sendEmail(
        {
          to: team,
          subject: "A webhook was turned off",
          heading: "A webhook was turned off",
          paragraphs: [
            `BrandLift stopped sending events to ${webhook.url}: the last ${hook.failures} events could not be delivered after every retry (last answer: ${error ?? `status ${status}`}).`,
            "Check the receiver, then turn the webhook on again; its delivery log shows each attempt and can send an event again.",
          ],
          action: { label: "Open webhooks", url: `${env.appUrl}/dashboard/webhooks/${webhook.id}` },
        },
        { tx },
      );
    }
    return true;
  });
  deliveryCounter.inc({ result: delivered ? "delivered" : "failed" });
  if (turnedOff) logger.warn({ webhookId: webhook.id, url: webhook.url }, "a webhook was turned off after repeated failures");
}

/** A webhook's deliveries, newest first, with the body sent and the last answer (the delivery log). */
export async function listDeliveries(webhookId: string, limit = 50): Promise<WebhookDelivery[]> {
  const rows = await db
    .select({ delivery: d, event: e.type })
    .from(d)
    .innerJoin(e, eq(e.id, d.eventId))
    .where(eq(d.webhookId, webhookId))
    .orderBy(desc(d.createdAt), desc(d.id))
    .limit(limit);
  return rows.map(({ delivery, event }) => ({
    id: delivery.id,
    eventId: delivery.eventId,
    event,
    attempts: delivery.attempts,
    status: delivery.status,
    lastStatusCode: delivery.lastStatusCode,
    nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
    createdAt: delivery.createdAt.toISOString(),
    requestBody: delivery.requestBody,
    response:
      delivery.attempts === 0
        ? null
        : { status: delivery.lastStatusCode, body: delivery.responseExcerpt, error: delivery.lastStatusCode === null ? delivery.lastError : null },
  }));
}

/** Sends a delivery again now (same event id and body). Answers false for an unknown delivery; 409 while the webhook is off. */
export async function redeliver(webhookId: string, deliveryId: string): Promise<boolean> {
  const jobId = await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ attempts: d.attempts, active: w.active })
      .from(d)
      .innerJoin(w, eq(w.id, d.webhookId))
      .where(and(eq(d.id, deliveryId), eq(d.webhookId, webhookId)))
      .for("update");
    if (!row) return null;
    if (!row.active) throw new HttpError(409, "Turn the webhook on before sending an event again.");
    await tx.update(d).set({ status: "pending", nextAttemptAt: new Date(), updatedAt: new Date() }).where(eq(d.id, deliveryId));
    return jobs.enqueue(DELIVERY_JOB.kind, { deliveryId, after: row.attempts }, { tx });
  });
  if (!jobId) return false;
  // Sent now, after the answer (a node stopping waits for it; if it cannot, the job stays queued).
  afterResponse("webhook redelivery", () =>
    jobs.runNow(DELIVERY_JOB.kind, jobId).catch((error: unknown) => logger.warn({ err: error, deliveryId }, "a redelivery stays queued")),
  );
  return true;
}
