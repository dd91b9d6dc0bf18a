import fs from "node:fs";
import { describe, expect, test } from "vitest";

import { getUnreadCountForCustomer, getUnreadCountsForTeam } from "~/models/chat.server";
import type { ChatMessage } from "~/realtime/events";
import { action as conversationAction, loader as conversationLoader } from "~/routes/api+/chat+/conversation.$userId";
import { action as readAction, loader as readLoader } from "~/routes/api+/chat+/read";
import { env } from "~/utils/env.server";

import { parseEmail } from "../fakes/email-links";
import { chatAccount, chatServerForFile, delay, sendSupport, texts, type ChatAccount } from "../support/chat-helpers";
import { catalogue, createPurchase } from "../support/dashboard-helpers";

const context = { requestId: "test", cspNonce: "", clientIp: "127.0.0.1" };
const { client } = chatServerForFile();

async function getConversationJson(customerId: string, auth: ChatAccount | null, query = "") {
  const request = new Request(`http://localhost/api/chat/conversation/${customerId}${query}`, {
    headers: auth ? { Authorization: `Bearer ${auth.token}` } : {},
  });
  const response = await conversationLoader({ request, params: { userId: customerId }, context });
  return { status: response.status, body: (await response.json()) as { data?: { messages: ChatMessage[] }; message?: string } };
}

async function markRead(customerId: string, auth: ChatAccount) {
  const request = new Request("http://localhost/api/chat/read", {
    method: "POST",
    headers: { Authorization: `Bearer ${auth.token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ userId: customerId }),
  });
  return readAction({ request, params: {}, context });
}

function outboxFor(email: string) {
  if (!fs.existsSync(env.outboxDir)) return [];
  return fs.readdirSync(env.outboxDir).filter((f) => f.includes(email.replace(/[^a-z0-9@._-]/gi, "_")));
}

describe("GET /api/chat/conversation/:userId", () => {
  test("pages oldest first with limit, before and after", async () => {
    const customer = await chatAccount("user");
    const socket = await client(customer);
    for (let i = 1; i <= 7; i++) expect((await sendSupport(socket, { message: `m${i}` })).ok).toBe(true);

    const all = await getConversationJson(customer.id, customer);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ status: "success" });
    expect(texts(all.body.data!.messages)).toEqual(["m1", "m2", "m3", "m4", "m5", "m6", "m7"]);
    const ids = all.body.data!.messages.map((m) => m._id);

    expect(texts((await getConversationJson(customer.id, customer, "?limit=3")).body.data!.messages)).toEqual(["m5", "m6", "m7"]);
    expect(texts((await getConversationJson(customer.id, customer, `?before=${ids[4]}&limit=3`)).body.data!.messages)).toEqual(["m2", "m3", "m4"]);
    expect(texts((await getConversationJson(customer.id, customer, `?after=${ids[2]}&limit=2`)).body.data!.messages)).toEqual(["m4", "m5"]);
    expect(texts((await getConversationJson(customer.id, customer, `?after=${ids[6]}`)).body.data!.messages)).toEqual([]);
  });

  test("the Message shape of the API, with the service it is about", async () => {
    const customer = await chatAccount("user", "Shape Customer");
    const [service] = await catalogue();
    await createPurchase(customer.id, service!);
    const socket = await client(customer);
    expect((await sendSupport(socket, { message: "About this one", serviceId: service!.id })).ok).toBe(true);
    const { body } = await getConversationJson(customer.id, customer);
    const [message] = body.data!.messages;
    expect(message).toEqual({
      _id: expect.any(String),
      roomId: `support-${customer.id}`,
      senderId: { _id: customer.id, name: "Shape Customer", profileImage: null },
      receiverId: null,
      message: "About this one",
      messageType: "text",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      service: { _id: service!.id, name: service!.name },
    });
  });

  test("that customer and staff only; others get 404, nobody 401", async () => {
    const customer = await chatAccount("user");
    const other = await chatAccount("user");
    const staff = await chatAccount("team");
    expect((await getConversationJson(customer.id, customer)).status).toBe(200);
    expect((await getConversationJson(customer.id, staff)).status).toBe(200);
    expect(await getConversationJson(customer.id, other)).toMatchObject({ status: 404, body: { message: "Conversation not found." } });
    expect((await getConversationJson(customer.id, null)).status).toBe(401);
    expect((await getConversationJson(staff.id, staff)).status).toBe(404);
  });

  test("bad paging input is a 400 in the error shape", async () => {
    const customer = await chatAccount("user");
    for (const query of ["?limit=0", "?limit=201", "?limit=abc", "?before=nope", `?after=${customer.id}`, `?before=${customer.id}&after=${customer.id}`]) {
      const { status, body } = await getConversationJson(customer.id, customer, query);
      expect(status, query).toBe(400);
      expect(body, query).toMatchObject({ success: false, status: "error" });
    }
    const notUuid = await conversationLoader({ request: new Request("http://localhost/api/chat/conversation/abc"), params: { userId: "abc" }, context });
    expect(notUuid.status).toBe(401);
    const post = await conversationAction();
    expect(post.status).toBe(405);
  });
});

describe("unread counts and read positions", () => {
  test("staff see customer messages as unread until someone reads or replies; the customer sees replies", async () => {
    const customer = await chatAccount("user");
    const staff = await chatAccount("team");
    const otherStaff = await chatAccount("team");
    const customerSocket = await client(customer);
    const staffSocket = await client(staff);

    await sendSupport(customerSocket, { message: "one" });
    await sendSupport(customerSocket, { message: "two" });
    expect((await getUnreadCountsForTeam()).byCustomer[customer.id]).toBe(2);

    expect((await markRead(customer.id, otherStaff)).status).toBe(200);
    expect((await getUnreadCountsForTeam()).byCustomer[customer.id]).toBeUndefined();

    await sendSupport(customerSocket, { message: "three" });
    expect((await getUnreadCountsForTeam()).byCustomer[customer.id]).toBe(1);
    await delay(5);
    await sendSupport(staffSocket, { message: "answer", userId: customer.id });
    expect((await getUnreadCountsForTeam()).byCustomer[customer.id]).toBeUndefined();

    expect(await getUnreadCountForCustomer(customer.id)).toBe(1);
    expect((await markRead(customer.id, customer)).status).toBe(200);
    expect(await getUnreadCountForCustomer(customer.id)).toBe(0);
  });

  test("POST /api/chat/read: only one's own thread or any as staff", async () => {
    const customer = await chatAccount("user");
    const other = await chatAccount("user");
    expect((await markRead(customer.id, other)).status).toBe(404);
    const get = await readLoader();
    expect(get.status).toBe(405);
  });
});

describe("reply e-mails", () => {
  test("an offline customer gets one e-mail per quiet period; an online one none", async () => {
    const customer = await chatAccount("user", "Quiet Customer");
    const staff = await chatAccount("team", "Sam Staff");
    const staffSocket = await client(staff);
    const waitForMail = async (count: number) => {
      for (let i = 0; i < 50 && outboxFor(customer.email).length < count; i++) await delay(20);
      await delay(100);
      return outboxFor(customer.email);
    };

    await sendSupport(staffSocket, { message: "first reply", userId: customer.id });
    await sendSupport(staffSocket, { message: "second reply", userId: customer.id });
    const mails = await waitForMail(1);
    expect(mails).toHaveLength(1);
    const mail = fs.readFileSync(`${env.outboxDir}/${mails[0]}`, "utf8");
    expect(mail).toContain("Sam Staff");
    // "Open the conversation" opens the conversation, not the services list.
    expect(parseEmail(mail).text).toContain(`Open the conversation: ${env.appUrl}/dashboard/messages`);

    // After reading, the next reply may e-mail again; while connected, no e-mail at all.
    await delay(5);
    await markRead(customer.id, customer);
    const customerSocket = await client(customer);
    await sendSupport(staffSocket, { message: "while online", userId: customer.id });
    expect(await waitForMail(2)).toHaveLength(1);
    customerSocket.close();
    await delay(50);
    await sendSupport(staffSocket, { message: "third reply", userId: customer.id });
    expect(await waitForMail(2)).toHaveLength(2);
  });
});
