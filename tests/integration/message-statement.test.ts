import { eq, sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { directRoomId, supportRoomId } from "~/domain/chat";
import { visitorRoomId } from "~/domain/inbox";
import { MessageRefusedError, sendStatementInFull, sendStatementOf, storeMessage, type NewMessage } from "~/models/chat-send.server";
import { listNotifications } from "~/models/notifications.server";
import { createWebhook } from "~/models/webhooks.server";
import { settleBackgroundTasks } from "~/utils/background.server";
import { queryRows } from "~/utils/db-cursor.server";
import { db, schema } from "~/utils/db.server";
import { JobEngine, jobs } from "~/utils/jobs.server";

import { driverCallsDuring } from "../support/driver-calls";
import { createAccount, postInThread, type Account } from "../support/factories";

/*
 * A chat message tells everything in its own statement (docs/decisions/327): its `message.created`
 * event, a delivery and its job for each webhook that wants it, and the other side's notifications
 * are stored when the message is, and not at all when it is refused.
 */

const node = new JobEngine();
let staff: Account;

beforeAll(async () => {
  // A node's loop makes every kind's queue on its first round.
  await node.runDue();
  staff = await createAccount({ role: "team", name: "Statement Staff" });
  await createWebhook(staff, { url: "https://hooks.example.test/messages", events: ["message.created"] });
  await createWebhook(staff, { url: "https://hooks.example.test/orders", events: ["order.paid"] });
});
afterAll(() => node.stop());

const e = schema.webhookEvents;
const d = schema.webhookDeliveries;

async function eventsOf(messageId: string) {
  return db
    .select()
    .from(e)
    .where(sql`${e.data} -> 'message' ->> '_id' = ${messageId}`);
}

async function eventsInRoom(roomId: string) {
  return db
    .select({ id: e.id })
    .from(e)
    .where(sql`${e.data} -> 'message' ->> 'roomId' = ${roomId}`);
}

function deliveryJobs(deliveryId: string) {
  return queryRows<{ state: string; retryLimit: number; data: { deliveryId: string; after: number } }>(
    sql`select state, retry_limit as "retryLimit", data from pgboss.job where name = 'webhook.delivery' and data ->> 'deliveryId' = ${deliveryId}`,
  );
}

/** A job's columns that pg-boss fills from its queue and defaults (times as offsets from its start). */
async function jobPolicy(id: SQL) {
  const [row] = await queryRows<Record<string, unknown>>(sql`select name, state, priority, dead_letter, policy, retry_limit, retry_delay, retry_backoff,
      extract(epoch from expire_in)::int as expire_in, extract(epoch from keep_until - start_after)::int as kept_for,
      abs(extract(epoch from start_after - created_on)) < 1 as due_now
    from pgboss.job where ${id}`);
  return row;
}

describe("a chat message's statement", () => {
  test("stores its webhook event, the delivery with its job and the customer's notification, and nothing else runs for it", async () => {
    const customer = await createAccount({ name: "Statement Customer" });
    const text = `A "quote", a back\\slash, a line\nand a\ttab: é, 🎉, \u2028 and ${"x".repeat(140)}`;

    const { result: message, calls } = await driverCallsDuring(async () => {
      const stored = await postInThread(customer, text, staff);
      await settleBackgroundTasks();
      return stored;
    });
    // One round trip: the message, its thread, its event, delivery, job and notifications.
    expect(calls).toHaveLength(1);

    const [event, ...more] = await eventsOf(message._id);
    expect(more).toHaveLength(0);
    const data = {
      message: {
        _id: message._id,
        roomId: supportRoomId(customer.id),
        clientId: customer.id,
        sender: { _id: staff.id, name: "Statement Staff" },
        text,
        messageType: "text",
        attachment: null,
        createdAt: message.createdAt,
      },
    };
    expect(event).toMatchObject({ type: "message.created", data, onceKey: null });
    expect(event!.createdAt.toISOString()).toBe(message.createdAt);

    // One delivery (the webhook that wants messages), its body as emitEvent writes it, byte for byte.
    const deliveries = await db.select().from(d).where(eq(d.eventId, event!.id));
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ status: "pending", attempts: 0 });
    expect(deliveries[0]!.requestBody).toBe(JSON.stringify({ id: event!.id, type: "message.created", createdAt: message.createdAt, data }));
    expect(deliveries[0]!.nextAttemptAt?.toISOString()).toBe(message.createdAt);
    expect(await deliveryJobs(deliveries[0]!.id)).toEqual([{ state: "created", retryLimit: 3, data: { deliveryId: deliveries[0]!.id, after: 0 } }]);
    // The job is the one pg-boss's own send would have stored for the delivery.
    const sent = await jobs.enqueue("webhook.delivery", { deliveryId: crypto.randomUUID(), after: 0 });
    try {
      expect(await jobPolicy(sql`data ->> 'deliveryId' = ${deliveries[0]!.id}`)).toEqual(await jobPolicy(sql`id = ${sent}::uuid`));
    } finally {
      await db.execute(sql`delete from pgboss.job where id = ${sent}::uuid`);
    }

    const [told] = await listNotifications(customer.id);
    expect(told).toMatchObject({
      kind: "message",
      title: "New message from Statement Staff",
      body: `${text.slice(0, 139)}…`,
      url: "/dashboard/messages",
      readAt: null,
      createdAt: message.createdAt,
    });
  });

  test("a file sent without a caption: the event carries the attachment and its name as the text, staff's notifications its name", async () => {
    const customer = await createAccount({ name: "File Customer" });
    const roomId = supportRoomId(customer.id);
    const [attachment] = await db
      .insert(schema.chatAttachments)
      .values({
        roomId,
        uploaderId: customer.id,
        storageKey: `chat/${customer.id}/plan.pdf`,
        fileName: "plan.pdf",
        mimeType: "application/pdf",
        fileSize: 2048,
      })
      .returning();

    const message = await storeMessage({
      roomId,
      sender: { _id: customer.id, name: customer.name, profileImage: null },
      receiverId: null,
      customerId: customer.id,
      message: "",
      attachmentId: attachment!.id,
    });

    const [event] = await eventsOf(message._id);
    expect(event!.data).toEqual({
      message: {
        _id: message._id,
        roomId,
        clientId: customer.id,
        sender: { _id: customer.id, name: "File Customer" },
        text: "plan.pdf",
        messageType: "file",
        attachment: { _id: attachment!.id, fileName: "plan.pdf", mimeType: "application/pdf", fileSize: 2048 },
        createdAt: message.createdAt,
      },
    });
    const [told] = await listNotifications(staff.id);
    expect(told).toMatchObject({ title: "New message from File Customer", body: "plan.pdf", url: `/dashboard/inbox/${customer.id}` });
  });

  test("a refused message stores no event, delivery, job or notification", async () => {
    const customer = await createAccount({ name: "Refused Customer" });
    const roomId = supportRoomId(customer.id);
    const before = (await listNotifications(staff.id, { limit: 500 })).length;
    const jobsBefore = await queryRows<{ count: number }>(sql`select count(*)::int as count from pgboss.job where name = 'webhook.delivery'`);

    const send = (extra: { sessionId?: string; attachmentId?: string }) =>
      storeMessage({
        roomId,
        sender: { _id: customer.id, name: customer.name, profileImage: null },
        receiverId: null,
        customerId: customer.id,
        message: "Not stored",
        ...extra,
      });
    // An ended session, then an attachment that is not the sender's.
    await expect(send({ sessionId: crypto.randomUUID() })).rejects.toEqual(new MessageRefusedError("session"));
    await expect(send({ attachmentId: crypto.randomUUID() })).rejects.toEqual(new MessageRefusedError("attachment"));
    await settleBackgroundTasks();

    expect(await eventsInRoom(roomId)).toEqual([]);
    expect((await listNotifications(staff.id, { limit: 500 })).length).toBe(before);
    expect(await queryRows<{ count: number }>(sql`select count(*)::int as count from pgboss.job where name = 'webhook.delivery'`)).toEqual(jobsBefore);
    expect(await db.select().from(schema.chatMessages).where(eq(schema.chatMessages.roomId, roomId))).toEqual([]);
  });
});

describe("a send statement built once per shape", () => {
  const dialect = new PgDialect();
  const a = crypto.randomUUID();
  const b = crypto.randomUUID();
  const service = crypto.randomUUID();
  const people = (n: number) => ({
    customer: { _id: n === 0 ? a : b, name: n === 0 ? 'Ann\'s "Team"' : "Bo – 🎉", profileImage: null },
    staff: { _id: n === 0 ? b : a, name: n === 0 ? "Stan $1 \\ staff" : "Sue", profileImage: null },
  });
  /** Every kind of send, twice each with other values: the first of a shape builds it, the second fills it in. */
  const sends = (n: number): NewMessage[] => {
    const { customer, staff: member } = people(n);
    const text = n === 0 ? "Hello, $2 and ? and \u0002" : `A line\nand a\ttab: é ${"x".repeat(150)}`;
    const session = crypto.randomUUID();
    const room = supportRoomId(customer._id);
    return [
      { roomId: room, sender: customer, receiverId: null, customerId: customer._id, message: text, sessionId: session },
      { roomId: room, sender: member, receiverId: customer._id, customerId: customer._id, message: text, sessionId: session, anyService: true },
      { roomId: room, sender: customer, receiverId: null, customerId: customer._id, serviceId: service, message: text, sessionId: session },
      { roomId: room, sender: member, receiverId: customer._id, customerId: customer._id, serviceId: service, anyService: true, message: text },
      { roomId: room, sender: customer, receiverId: null, customerId: customer._id, message: "", attachmentId: crypto.randomUUID(), sessionId: session },
      { roomId: visitorRoomId(crypto.randomUUID()), sender: null, receiverId: null, customerId: null, message: text },
      { roomId: visitorRoomId(crypto.randomUUID()), sender: member, receiverId: null, customerId: null, message: text, sessionId: session },
      { roomId: directRoomId(a, b), sender: member, receiverId: customer._id, customerId: null, message: text, sessionId: session },
    ];
  };

  test("sends the text and the values of the statement built in full, for every shape", () => {
    for (const n of [0, 1, 0]) {
      for (const input of sends(n)) {
        const id = crypto.randomUUID();
        const eventId = crypto.randomUUID();
        const filled = dialect.sqlToQuery(sendStatementOf(id, eventId, input));
        const full = dialect.sqlToQuery(sendStatementInFull(id, eventId, input));
        expect(filled).toEqual(full);
        expect(filled.params).toContain(id);
      }
    }
  });
});
