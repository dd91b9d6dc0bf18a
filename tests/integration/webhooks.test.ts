import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { MAX_ATTEMPTS, RETRY_DELAYS_SECONDS, type DeliveryJson } from "~/domain/webhooks";
import { emitDuePosts } from "~/models/post-due.server";
import { createPost, updatePost } from "~/models/posts.server";
import { emitEvent, sendWebhooksWith } from "~/models/webhooks.server";
import * as webhooksRoute from "~/routes/api+/webhooks+/_layout";
import * as webhookRoute from "~/routes/api+/webhooks+/$id";
import * as deliveriesRoute from "~/routes/api+/webhooks+/$id.deliveries";
import * as redeliverRoute from "~/routes/api+/webhooks+/$id.deliveries.$deliveryId.redeliver";
import * as postMediaRoute from "~/routes/files.posts.$mediaId";
import { settleBackgroundTasks } from "~/utils/background.server";
import { db, schema } from "~/utils/db.server";
import { JobEngine } from "~/utils/jobs.server";
import { putBuffer } from "~/utils/storage.server";
import { BlockedAddressError, postWebhook } from "~/utils/webhook-request.server";

import { call, createAccount, readJson } from "../support/dashboard-helpers";
import { createCustomerWithThread } from "../support/factories";
import { travelJobs } from "../support/jobs";

/*
 * Webhooks as a receiver sees them: a local HTTP server checks each delivery's signature the way
 * docs/integrations.md tells receivers to. The receiver is on 127.0.0.1, so this file lets the
 * deliveries reach private addresses through the request module's own option; the guard itself is
 * tested with it off.
 */

interface Received {
  eventId: string | undefined;
  signature: string | undefined;
  body: string;
}

const received: Received[] = [];
let answer = 200;
const receiver = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    received.push({
      eventId: request.headers["brandlift-event-id"] as string | undefined,
      signature: request.headers["brandlift-signature"] as string | undefined,
      body: Buffer.concat(chunks).toString("utf8"),
    });
    if (answer === 302) response.writeHead(302, { Location: "http://127.0.0.1:1/elsewhere" }).end();
    else response.writeHead(answer, { "Content-Type": "text/plain" }).end(answer === 200 ? "thanks" : "receiver is down");
  });
});
let url = "";
const node = new JobEngine();

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  sendWebhooksWith((target, body, options) => postWebhook(target, body, { ...options, allowPrivate: true }));
});
afterAll(async () => {
  sendWebhooksWith(postWebhook);
  await node.stop();
  await new Promise((resolve) => receiver.close(resolve));
});

/** What a receiver does (docs/integrations.md): the HMAC of "<t>.<body>" with the secret, compared in constant time. */
function verify(secret: string, delivery: Received) {
  const parts = Object.fromEntries((delivery.signature ?? "").split(",").map((part) => part.split("=") as [string, string]));
  const expected = crypto.createHmac("sha256", secret).update(`${parts.t}.${delivery.body}`).digest("hex");
  return !!parts.v1 && parts.v1.length === expected.length && crypto.timingSafeEqual(Buffer.from(parts.v1), Buffer.from(expected));
}

async function createWebhook(staff: Awaited<ReturnType<typeof createAccount>>, events: string[]) {
  const response = await call(webhooksRoute.action, "/api/webhooks", {
    auth: staff,
    method: "POST",
    body: JSON.stringify({ url, events }),
    headers: { "Content-Type": "application/json" },
  });
  expect(response.status).toBe(201);
  return (await readJson<{ data: { webhook: { _id: string; active: boolean }; secret: string } }>(response)).data;
}

async function deliveriesOf(staff: Awaited<ReturnType<typeof createAccount>>, id: string) {
  const response = await call(deliveriesRoute.loader, `/api/webhooks/${id}/deliveries`, { auth: staff, params: { id } });
  expect(response.status).toBe(200);
  return (await readJson<{ data: { deliveries: DeliveryJson[] } }>(response)).data.deliveries;
}

describe("webhooks", () => {
  test("a chat message is delivered signed, with its event id; the secret is shown once; customers are refused", async () => {
    received.length = 0;
    answer = 200;
    const staff = await createAccount("team");
    const { webhook, secret } = await createWebhook(staff, ["message.created"]);
    expect(secret).toMatch(/^whsec_/);
    const listed = await readJson<{ data: { webhooks: Record<string, unknown>[] } }>(await call(webhooksRoute.loader, "/api/webhooks", { auth: staff }));
    expect(listed.data.webhooks.find((row) => row._id === webhook._id)).toMatchObject({ url, events: ["message.created"], active: true });
    expect(JSON.stringify(listed)).not.toContain(secret);

    const customer = await createAccount("user");
    const refused = await call(webhooksRoute.loader, "/api/webhooks", { auth: customer });
    expect(refused.status).toBe(403);

    await createCustomerWithThread({ messages: ["Can we move Friday's post?"] });
    // A message's event is stored right after its answer.
    await settleBackgroundTasks();
    await node.runDue();
    expect(received).toHaveLength(1);
    const delivery = received[0]!;
    expect(verify(secret, delivery)).toBe(true);
    expect(verify("whsec_wrong", delivery)).toBe(false);
    const body = JSON.parse(delivery.body) as { id: string; type: string; createdAt: string; data: { message: { text: string } } };
    expect(body).toMatchObject({ type: "message.created", data: { message: { text: "Can we move Friday's post?" } } });
    expect(delivery.eventId).toBe(body.id);

    const [logged] = await deliveriesOf(staff, webhook._id);
    expect(logged).toMatchObject({ eventId: body.id, event: "message.created", attempts: 1, status: "delivered", lastStatusCode: 200, nextAttemptAt: null });
    expect(logged!.requestBody).toBe(delivery.body);
    expect(logged!.response).toMatchObject({ status: 200, body: "thanks" });
  });

  test("a failing receiver is tried again on the schedule with the same event id, then the delivery fails; redeliver sends it again", async () => {
    received.length = 0;
    answer = 500;
    const staff = await createAccount("team");
    const { webhook, secret } = await createWebhook(staff, ["order.paid"]);
    await db.transaction((tx) => emitEvent(tx, "order.paid", { order: { _id: "order-1" } }));

    await node.runDue();
    let [delivery] = await deliveriesOf(staff, webhook._id);
    expect(delivery).toMatchObject({ attempts: 1, status: "pending", lastStatusCode: 500 });
    const wait = new Date(delivery!.nextAttemptAt!).getTime() - Date.now();
    expect(wait).toBeGreaterThan(55_000);
    expect(wait).toBeLessThanOrEqual(60_000);
    // Not before its time.
    await node.runDue();
    expect(received).toHaveLength(1);

    for (const delay of RETRY_DELAYS_SECONDS) {
      await travelJobs(delay + 1);
      await node.runDue();
    }
    expect(received).toHaveLength(MAX_ATTEMPTS);
    expect(new Set(received.map((r) => r.eventId)).size).toBe(1);
    expect(new Set(received.map((r) => r.body)).size).toBe(1);
    expect(received.every((r) => verify(secret, r))).toBe(true);
    [delivery] = await deliveriesOf(staff, webhook._id);
    expect(delivery).toMatchObject({ attempts: 7, status: "failed", lastStatusCode: 500, nextAttemptAt: null });
    expect(delivery!.response).toMatchObject({ status: 500, body: "receiver is down" });

    answer = 200;
    const redelivered = await call(redeliverRoute.action, `/api/webhooks/${webhook._id}/deliveries/${delivery!._id}/redeliver`, {
      auth: staff,
      method: "POST",
      params: { id: webhook._id, deliveryId: delivery!._id },
    });
    expect(redelivered.status).toBe(202);
    // Sent right after the answer.
    await settleBackgroundTasks();
    await node.runDue();
    expect(received.at(-1)!.eventId).toBe(received[0]!.eventId);
    [delivery] = await deliveriesOf(staff, webhook._id);
    expect(delivery).toMatchObject({ attempts: 8, status: "delivered", lastStatusCode: 200 });

    const unknown = crypto.randomUUID();
    const missing = await call(redeliverRoute.action, `/api/webhooks/${webhook._id}/deliveries/${unknown}/redeliver`, {
      auth: staff,
      method: "POST",
      params: { id: webhook._id, deliveryId: unknown },
    });
    expect(missing.status).toBe(404);
  });

  test("after 7 events in a row fail the webhook is turned off and staff get an e-mail; a redirect is a failure, never followed", async () => {
    received.length = 0;
    answer = 302;
    const staff = await createAccount("team");
    const { webhook } = await createWebhook(staff, ["brief.submitted"]);
    for (let i = 0; i < 7; i++) await db.transaction((tx) => emitEvent(tx, "brief.submitted", { brief: { _id: `brief-${i}` } }));
    await node.runDue();
    for (const delay of RETRY_DELAYS_SECONDS) {
      await travelJobs(delay + 1);
      await node.runDue();
    }
    // Every try reached our receiver only: the redirect's target was never asked.
    expect(received).toHaveLength(7 * MAX_ATTEMPTS);
    const deliveries = await deliveriesOf(staff, webhook._id);
    expect(deliveries.map((d) => [d.status, d.lastStatusCode])).toEqual(Array(7).fill(["failed", 302]));
    const [row] = await db.select().from(schema.webhooks).where(eq(schema.webhooks.id, webhook._id));
    expect(row).toMatchObject({ active: false, consecutiveFailures: 7 });
    expect(row!.disabledReason).toMatch(/7 events/);
    // The e-mail is stored with the change and sent by its job.
    await node.runDue();
    const [email] = await db.select().from(schema.emails).where(eq(schema.emails.subject, "A webhook was turned off"));
    expect(email).toMatchObject({ state: "sent" });
    expect(email!.recipient).toContain(staff.email);
    expect(email!.message.paragraphs.join(" ")).toContain(url);

    // An event while it is off goes nowhere; turning it on again starts the count from zero.
    await db.transaction((tx) => emitEvent(tx, "brief.submitted", { brief: { _id: "brief-off" } }));
    expect(await deliveriesOf(staff, webhook._id)).toHaveLength(7);
    const on = await call(webhookRoute.action, `/api/webhooks/${webhook._id}`, {
      auth: staff,
      method: "PATCH",
      params: { id: webhook._id },
      body: JSON.stringify({ active: true }),
      headers: { "Content-Type": "application/json" },
    });
    expect(on.status).toBe(200);
    expect((await readJson<{ data: { webhook: Record<string, unknown> } }>(on)).data.webhook).toMatchObject({ active: true, consecutiveFailures: 0 });
    const audit = await db.select({ action: schema.auditEntries.action }).from(schema.auditEntries).where(eq(schema.auditEntries.targetId, webhook._id));
    expect(audit.map((entry) => entry.action).sort()).toEqual(["webhook.create", "webhook.update"]);
  });

  test("private, loopback and link-local addresses are refused, by IP or after DNS resolution", async () => {
    received.length = 0;
    const port = (receiver.address() as AddressInfo).port;
    const options = { headers: {}, timeoutMs: 2000, excerptBytes: 100, allowPrivate: false };
    for (const target of [
      `http://127.0.0.1:${port}/`,
      "http://10.1.2.3/",
      `http://[::1]:${port}/`,
      "http://169.254.169.254/latest",
      "http://[fd00::1]/",
      `http://localhost:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
    ]) {
      await expect(postWebhook(target, "{}", options), target).rejects.toBeInstanceOf(BlockedAddressError);
    }
    expect(received).toHaveLength(0);

    // Through a delivery: the attempt is logged with the reason, and nothing reaches the address.
    sendWebhooksWith(postWebhook);
    try {
      const staff = await createAccount("team");
      const { webhook } = await createWebhook(staff, ["report.published"]);
      await db.transaction((tx) => emitEvent(tx, "report.published", { report: { _id: "r1" } }));
      await node.runDue();
      const [delivery] = await deliveriesOf(staff, webhook._id);
      expect(delivery).toMatchObject({ attempts: 1, status: "pending", lastStatusCode: null });
      expect(delivery!.response!.error).toMatch(/private, loopback or link-local/);
      expect(received).toHaveLength(0);
    } finally {
      sendWebhooksWith((target, body, opts) => postWebhook(target, body, { ...opts, allowPrivate: true }));
    }
  });

  test("bad input gets a 400 in words; an unknown webhook a 404; deleting one is audited", async () => {
    const staff = await createAccount("team");
    const bad = await call(webhooksRoute.action, "/api/webhooks", {
      auth: staff,
      method: "POST",
      body: JSON.stringify({ url: "ftp://example.com", events: ["order.shipped"] }),
      headers: { "Content-Type": "application/json" },
    });
    expect(bad.status).toBe(400);
    const { webhook } = await createWebhook(staff, ["order.paid"]);
    const removed = await call(webhookRoute.action, `/api/webhooks/${webhook._id}`, { auth: staff, method: "DELETE", params: { id: webhook._id } });
    expect(removed.status).toBe(200);
    const again = await call(webhookRoute.action, `/api/webhooks/${webhook._id}`, { auth: staff, method: "DELETE", params: { id: webhook._id } });
    expect(again.status).toBe(404);
    const gone = await call(deliveriesRoute.loader, `/api/webhooks/${webhook._id}/deliveries`, { auth: staff, params: { id: webhook._id } });
    expect(gone.status).toBe(404);
  });

  test("post.due: an approved post whose time came is announced once, with its caption and media links that open without signing in", async () => {
    received.length = 0;
    answer = 200;
    const staff = await createAccount("team");
    const customer = await createAccount("user");
    const { webhook, secret } = await createWebhook(staff, ["post.due"]);
    const due = new Date(Date.now() - 60_000);
    const [post] = await db
      .insert(schema.posts)
      .values({ customerId: customer.id, channel: "instagram", scheduledAt: due, caption: "Spring launch 🌷", status: "approved" })
      .returning();
    await db.insert(schema.posts).values({ customerId: customer.id, channel: "instagram", scheduledAt: due, caption: "Still in review", status: "in_review" });
    const key = `posts/${crypto.randomUUID()}.png`;
    const bytes = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
    await putBuffer(key, bytes, "image/png");
    const [media] = await db
      .insert(schema.postMedia)
      .values({ postId: post!.id, storageKey: key, fileName: "launch.png", mimeType: "image/png", fileSize: bytes.length })
      .returning();

    expect(await emitDuePosts()).toBe(1);
    expect(await emitDuePosts()).toBe(0);
    await node.runDue();
    expect(received).toHaveLength(1);
    expect(verify(secret, received[0]!)).toBe(true);
    const body = JSON.parse(received[0]!.body) as {
      type: string;
      data: { post: { _id: string; caption: string; media: { url: string }[]; mediaUrlsExpireAt: string } };
    };
    expect(body.type).toBe("post.due");
    expect(body.data.post).toMatchObject({ _id: post!.id, caption: "Spring launch 🌷" });
    const hours = (new Date(body.data.post.mediaUrlsExpireAt).getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);

    const link = new URL(body.data.post.media[0]!.url);
    const file = await call(postMediaRoute.loader, link.pathname + link.search, { params: { mediaId: media!.id } });
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
    const tampered = await call(postMediaRoute.loader, link.pathname + link.search.replace("sig=", "sig=x"), { params: { mediaId: media!.id } });
    expect(tampered.status).toBe(404);
    expect((await deliveriesOf(staff, webhook._id)).map((d) => d.event)).toEqual(["post.due"]);
  });

  test("a post sent for review is announced from the change itself (post.review_requested), once", async () => {
    received.length = 0;
    answer = 200;
    const staff = await createAccount("team");
    const customer = await createAccount("user");
    const { webhook } = await createWebhook(staff, ["post.review_requested"]);
    const post = await createPost(staff.user, { customerId: customer.id, channel: "linkedin", scheduledAt: "2030-06-12T10:00:00Z", caption: "Hiring news" });
    expect(await deliveriesOf(staff, webhook._id)).toEqual([]);
    await updatePost(staff.user, post.id, { status: "in_review" });
    await node.runDue();
    expect(received.map((r) => JSON.parse(r.body) as { type: string; data: { post: Record<string, unknown> } })).toEqual([
      expect.objectContaining({
        type: "post.review_requested",
        data: { post: expect.objectContaining({ _id: post.id, clientId: customer.id, caption: "Hiring news", status: "in_review" }) },
      }),
    ]);
  });
});
