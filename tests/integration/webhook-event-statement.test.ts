import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { createWebhook, deleteWebhook, emitEvent, updateWebhook } from "~/models/webhooks.server";
import { queryRows } from "~/utils/db-cursor.server";
import { db, schema, type Tx } from "~/utils/db.server";
import { JobEngine, jobs } from "~/utils/jobs.server";

import { driverCallsDuring } from "../support/driver-calls";
import { createAccount } from "../support/factories";

/*
 * A webhook event, wherever it comes from, is one statement in the change's own transaction
 * (docs/decisions/327): the event, a delivery for each webhook that is on and wants it, and each
 * delivery's job commit together or not at all.
 */

const e = schema.webhookEvents;
const d = schema.webhookDeliveries;
const node = new JobEngine();
/** Webhooks wanting `report.published`, on; the other two must get nothing. */
let wanting: string[] = [];
let staffId = "";

beforeAll(async () => {
  // A node's loop makes every kind's queue on its first round.
  await node.runDue();
  const staff = await createAccount({ role: "team", name: "Event Staff" });
  staffId = staff.id;
  const both = await createWebhook(staff, { url: "https://hooks.example.test/both", events: ["report.published", "order.paid"] });
  const reports = await createWebhook(staff, { url: "https://hooks.example.test/reports", events: ["report.published"] });
  await createWebhook(staff, { url: "https://hooks.example.test/orders", events: ["order.paid"] });
  const off = await createWebhook(staff, { url: "https://hooks.example.test/off", events: ["report.published"] });
  await updateWebhook(staff, off.webhook.id, { active: false });
  wanting = [both.webhook.id, reports.webhook.id].sort();
});
afterAll(() => node.stop());

const data = (reportId: string) => ({
  report: { _id: reportId, title: `A "quoted" title, a back\\slash, a line\nand a\ttab: é, 🎉, \u2028`, pages: 3, draft: false, notes: null },
  tags: ["q1", "clients"],
});

/** What the event wrote: its row, its deliveries and each delivery's jobs. */
async function writesOf(eventId: string) {
  const events = await db.select().from(e).where(eq(e.id, eventId));
  const deliveries = await db.select().from(d).where(eq(d.eventId, eventId));
  const ids = deliveries.map((delivery) => delivery.id);
  const queued =
    ids.length === 0
      ? []
      : await queryRows<{ state: string; data: { deliveryId: string; after: number } }>(
          sql`select state::text as state, data from pgboss.job where name = 'webhook.delivery' and data ->> 'deliveryId' in (${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )})`,
        );
  return { events, deliveries, jobs: queued };
}

async function countAll() {
  const [row] = await queryRows<{ events: number; deliveries: number; jobs: number }>(sql`select
    (select count(*) from webhook_events)::int as events, (select count(*) from webhook_deliveries)::int as deliveries,
    (select count(*) from pgboss.job where name = 'webhook.delivery')::int as jobs`);
  return row!;
}

/** Runs `emit` in a transaction that is then rolled back; answers what `emit` answered. */
async function rolledBack(emit: (tx: Tx) => Promise<string | null>) {
  const answered: { id?: string | null } = {};
  await expect(
    db.transaction(async (tx) => {
      answered.id = await emit(tx);
      tx.rollback();
    }),
  ).rejects.toThrow();
  return answered.id;
}

async function expectCommitted(eventId: string, type: string, sent: Record<string, unknown>) {
  const { events, deliveries, jobs: queued } = await writesOf(eventId);
  expect(events).toHaveLength(1);
  expect(events[0]).toMatchObject({ type, data: sent });
  expect(deliveries.map((delivery) => delivery.webhookId).sort()).toEqual(wanting);
  const createdAt = events[0]!.createdAt.toISOString();
  for (const delivery of deliveries) {
    // The body receivers verify the signature over: JSON.stringify's bytes.
    expect(delivery.requestBody).toBe(JSON.stringify({ id: eventId, type, createdAt, data: sent }));
    expect(delivery).toMatchObject({ status: "pending", attempts: 0 });
    expect(delivery.nextAttemptAt?.toISOString()).toBe(createdAt);
  }
  expect(queued.map((job) => job.data.deliveryId).sort()).toEqual(deliveries.map((delivery) => delivery.id).sort());
  expect(queued.every((job) => job.state === "created" && job.data.after === 0)).toBe(true);
}

describe("a webhook event's statement", () => {
  test("the event, a delivery for each webhook that wants it and each delivery's job commit with the transaction, in one statement", async () => {
    const sent = data("r-commit");
    const id = await db.transaction((tx) => emitEvent(tx, "report.published", sent));
    expect(id).not.toBeNull();
    await expectCommitted(id!, "report.published", sent);

    // Outside a transaction: one round trip, its own commit.
    const alone = data("r-alone");
    const { result, calls } = await driverCallsDuring(() => emitEvent(db, "report.published", alone));
    expect(calls).toHaveLength(1);
    await expectCommitted(result!, "report.published", alone);
  });

  test("an event no webhook wants is not kept: its id is answered, nothing is written", async () => {
    const before = await countAll();
    const id = await db.transaction((tx) => emitEvent(tx, "subscription.cancelled", { subscription: { _id: "s-nobody" } }));
    expect(id).not.toBeNull();
    expect(await writesOf(id!)).toEqual({ events: [], deliveries: [], jobs: [] });
    expect(await countAll()).toEqual(before);
  });

  test("deleting a webhook takes its deliveries and the events only it was delivering; a once key's event stays", async () => {
    const actor = { id: staffId };
    const renewals = await createWebhook(actor, { url: "https://hooks.example.test/renewals", events: ["subscription.renewed", "subscription.cancelled"] });
    const shared = await createWebhook(actor, { url: "https://hooks.example.test/shared", events: ["subscription.renewed"] });
    const both = (await emitEvent(db, "subscription.renewed", { subscription: { _id: "s-both" } }))!;
    const onlyIt = (await emitEvent(db, "subscription.cancelled", { subscription: { _id: "s-only" } }))!;
    const once = (await emitEvent(db, "subscription.cancelled", { subscription: { _id: "s-once" } }, { onceKey: `cancel-${crypto.randomUUID()}` }))!;
    expect((await writesOf(both)).deliveries).toHaveLength(2);
    expect((await writesOf(onlyIt)).deliveries).toHaveLength(1);

    expect(await deleteWebhook(actor, renewals.webhook.id)).toBe(true);
    const kept = await writesOf(both);
    expect(kept.events).toHaveLength(1);
    expect(kept.deliveries.map((delivery) => delivery.webhookId)).toEqual([shared.webhook.id]);
    expect((await writesOf(onlyIt)).events).toEqual([]);
    expect(await writesOf(once)).toMatchObject({ events: [expect.objectContaining({ id: once })], deliveries: [] });

    expect(await deleteWebhook(actor, shared.webhook.id)).toBe(true);
    expect((await writesOf(both)).events).toEqual([]);
  });

  test("a transaction rolled back after the emit leaves no event, delivery or job", async () => {
    const before = await countAll();
    const id = await rolledBack((tx) => emitEvent(tx, "report.published", data("r-rolled-back")));
    expect(id).not.toBeNull();
    expect(await writesOf(id!)).toEqual({ events: [], deliveries: [], jobs: [] });
    expect(await countAll()).toEqual(before);
  });

  test("a once key: the second emit answers null and writes nothing; a rolled-back first leaves the key free", async () => {
    const key = `report-once-${crypto.randomUUID()}`;
    expect(await rolledBack((tx) => emitEvent(tx, "report.published", data("r-once"), { onceKey: key }))).not.toBeNull();

    const first = await db.transaction((tx) => emitEvent(tx, "report.published", data("r-once"), { onceKey: key }));
    expect(first).not.toBeNull();
    await expectCommitted(first!, "report.published", data("r-once"));
    const [stored] = await db.select({ onceKey: e.onceKey }).from(e).where(eq(e.id, first!));
    expect(stored!.onceKey).toBe(key);

    const before = await countAll();
    expect(await db.transaction((tx) => emitEvent(tx, "report.published", data("r-once-again"), { onceKey: key }))).toBeNull();
    expect(await emitEvent(db, "report.published", data("r-once-again"), { onceKey: key })).toBeNull();
    expect(await countAll()).toEqual(before);

    // A once key with no webhook wanting the event: stored, answered, and still once.
    const quiet = `brief-once-${crypto.randomUUID()}`;
    const event = await db.transaction((tx) => emitEvent(tx, "brief.submitted", { brief: { _id: "b1" } }, { onceKey: quiet }));
    expect(event).not.toBeNull();
    expect(await writesOf(event!)).toMatchObject({ events: [expect.objectContaining({ onceKey: quiet })], deliveries: [], jobs: [] });
    expect(await db.transaction((tx) => emitEvent(tx, "brief.submitted", { brief: { _id: "b1" } }, { onceKey: quiet }))).toBeNull();
  });

  test("where the delivery queue was never made, the jobs are still stored in the emitting transaction", async () => {
    // The queue goes with its jobs (pg-boss keeps a queue's jobs in a table of its own), and this
    // process's engine forgets it made it (another file of this worker may have).
    await db.execute(sql`delete from pgboss.job where name = 'webhook.delivery'`);
    await db.execute(sql`select pgboss.delete_queue('webhook.delivery')`);
    (Reflect.get(jobs, "queues") as Set<string>).delete("webhook.delivery");
    const id = await rolledBack((tx) => emitEvent(tx, "report.published", data("r-no-queue-rolled-back")));
    expect(await writesOf(id!)).toEqual({ events: [], deliveries: [], jobs: [] });
    expect(await queryRows(sql`select name from pgboss.queue where name = 'webhook.delivery'`)).toEqual([]);

    const sent = data("r-no-queue");
    const committed = await db.transaction((tx) => emitEvent(tx, "report.published", sent));
    await expectCommitted(committed!, "report.published", sent);
  });
});
