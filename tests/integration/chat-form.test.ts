import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";

import { CHAT_ERRORS, supportRoomId, type ChatMessage, type ChatThreadPage } from "~/domain/chat";
import { ATTACHMENT_MESSAGES } from "~/domain/inbox";
import { MAX_REPORT_BYTES } from "~/domain/report";
import { storeMessage } from "~/models/chat-send.server";
import { createSavedReply } from "~/models/saved-replies.server";
import * as messages from "~/routes/dashboard+/_customer+/messages";
import * as inboxThread from "~/routes/dashboard+/_staff+/inbox+/$customerId";
import { db, schema } from "~/utils/db.server";

import { callRoute } from "../support/call-route";
import { chatServerForFile, collect, delay, nextEvent, type ChatClient } from "../support/chat-helpers";
import { createAccount, type Account } from "../support/factories";
import { samples } from "../support/reports-cases";
import { BASE_URL } from "../support/requests";

/*
 * The chat's message form without JavaScript (decision 266): the customer's Messages page and a
 * thread of the staff inbox read the thread in their loaders, and their actions take the message
 * form as the browser sends it (multipart, a file or none), under the socket path's checks and
 * limits, and deliver it live to the other side's sockets.
 */

const { client } = chatServerForFile();

type FormFields = { message?: string; file?: { name: string; bytes: Buffer }; [field: string]: unknown };

/** The message form as a browser posts it: multipart, with an empty file part when no file was chosen. */
function messageForm(path: string, account: Account, fields: FormFields) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) if (typeof value === "string") form.append(name, value);
  if (fields.file) form.append("file", new Blob([new Uint8Array(fields.file.bytes)]), fields.file.name);
  else form.append("file", new Blob([]), "");
  return new Request(BASE_URL + path, { method: "POST", body: form, headers: { Cookie: account.cookie, Origin: BASE_URL } });
}

const customerPost = (account: Account, fields: FormFields, path = "/dashboard/messages") => callRoute(messages.action, messageForm(path, account, fields));
const staffPost = (staff: Account, customer: Account, fields: FormFields, query = "") =>
  callRoute(inboxThread.action, messageForm(`/dashboard/inbox/${customer.id}${query}`, staff, fields), { params: { customerId: customer.id } });

async function customerThread(account: Account, query = ""): Promise<ChatThreadPage> {
  const page = await callRoute(messages.loader, new Request(`${BASE_URL}/dashboard/messages${query}`, { headers: { Cookie: account.cookie } }));
  expect(page.status).toBe(200);
  return (page.data as { thread: ChatThreadPage }).thread;
}

const roomMessages = (account: Account) =>
  db
    .select()
    .from(schema.chatMessages)
    .where(eq(schema.chatMessages.roomId, supportRoomId(account.id)));
const attachmentsOf = (account: Account) => db.select().from(schema.chatAttachments).where(eq(schema.chatAttachments.uploaderId, account.id));

/** A socket that sees every message event, to check nothing arrives twice. */
async function listening(account: Account): Promise<{ socket: ChatClient; seen: ChatMessage[] }> {
  const socket = await client(account);
  return { socket, seen: collect(socket, "supportMessage") };
}

describe("the customer's message form (/dashboard/messages)", () => {
  test("text alone: stored in their thread, delivered live to staff and their other tabs once, the thread shown again", async () => {
    const customer = await createAccount({ role: "user", name: "Fern Form" });
    const staff = await createAccount({ role: "team", name: "Sid Staff" });
    const atStaff = await listening(staff);
    const otherTab = await listening(customer);
    const text = `Where is my report? ${Date.now()}`;
    const arrived = nextEvent(atStaff.socket, "supportMessage", (m) => m.message === text);

    const sent = await customerPost(customer, { message: `  ${text}  ` });
    expect(sent.status).toBe(302);
    expect(sent.location).toBe("/dashboard/messages");

    expect(await arrived).toMatchObject({ roomId: supportRoomId(customer.id), senderId: { _id: customer.id, name: "Fern Form" }, messageType: "text" });
    await expect.poll(() => otherTab.seen.filter((m) => m.message === text).length).toBe(1);
    const thread = await customerThread(customer);
    expect(thread.messages.map((m) => m.message)).toEqual([text]);
    expect(thread.hasEarlier).toBe(false);
    await delay(100);
    expect(atStaff.seen.filter((m) => m.message === text)).toHaveLength(1);
  });

  test("with a file and a caption: one file message, the attachment kept once and shown to staff", async () => {
    const customer = await createAccount({ role: "user" });
    const staff = await createAccount({ role: "team" });
    const atStaff = await client(staff);
    const arrived = nextEvent(atStaff, "supportMessage", (m) => m.roomId === supportRoomId(customer.id));

    const sent = await customerPost(customer, { message: "The new logo", file: { name: "logo.png", bytes: samples.png() } });
    expect(sent.status).toBe(302);
    const message = await arrived;
    expect(message).toMatchObject({
      messageType: "file",
      message: "The new logo",
      attachment: { fileName: "logo.png", mimeType: "image/png", fileSize: samples.png().length },
    });
    const [row] = await attachmentsOf(customer);
    expect(row).toMatchObject({ messageId: message._id, roomId: supportRoomId(customer.id) });
    expect((await customerThread(customer)).messages.at(-1)).toMatchObject({ _id: message._id, attachment: { _id: row!.id } });
  });

  test("a file over 10 MB, or of another type, is refused in words (413, 415) and nothing is kept", async () => {
    const customer = await createAccount({ role: "user" });
    const huge = Buffer.concat([samples.png(), Buffer.alloc(MAX_REPORT_BYTES + 1, 0)]);
    const oversize = await customerPost(customer, { message: "big one", file: { name: "big.png", bytes: huge } });
    expect(oversize.status).toBe(413);
    expect(oversize.data).toEqual({ error: ATTACHMENT_MESSAGES.size, draft: "" });

    const wrongType = await customerPost(customer, { message: "a program", file: { name: "setup.exe", bytes: samples.exe() } });
    expect(wrongType.status).toBe(415);
    expect(wrongType.data).toMatchObject({ error: ATTACHMENT_MESSAGES.type });
    // A file whose content is not what its name says is refused too.
    const disguised = await customerPost(customer, { message: "a picture", file: { name: "photo.png", bytes: samples.html() } });
    expect(disguised.status).toBe(415);

    expect(await roomMessages(customer)).toEqual([]);
    expect(await attachmentsOf(customer)).toEqual([]);
  });

  test("an empty or too long message says why (400) and keeps the text; a refused caption takes its file with it", async () => {
    const customer = await createAccount({ role: "user" });
    expect(await customerPost(customer, { message: "   " })).toMatchObject({ status: 400, data: { error: CHAT_ERRORS.empty } });
    const long = "x".repeat(2001);
    expect(await customerPost(customer, { message: long })).toMatchObject({ status: 400, data: { error: CHAT_ERRORS.tooLong, draft: long } });
    const withFile = await customerPost(customer, { message: long, file: { name: "logo.png", bytes: samples.png() } });
    expect(withFile).toMatchObject({ status: 400, data: { error: CHAT_ERRORS.tooLong } });
    expect(await roomMessages(customer)).toEqual([]);
    expect(await attachmentsOf(customer)).toEqual([]);
  });

  test("the form writes only in the customer's own thread: another thread named in it is ignored, the inbox's action refuses them", async () => {
    const alice = await createAccount({ role: "user" });
    const bob = await createAccount({ role: "user" });
    const forged = await customerPost(bob, {
      message: "meant for Alice",
      roomId: supportRoomId(alice.id),
      supportRoomId: supportRoomId(alice.id),
      userId: alice.id,
    });
    expect(forged.status).toBe(302);
    expect((await roomMessages(bob)).map((m) => m.message)).toEqual(["meant for Alice"]);

    const intoAlice = await callRoute(inboxThread.action, messageForm(`/dashboard/inbox/${alice.id}`, bob, { message: "hi Alice" }), {
      params: { customerId: alice.id },
    });
    expect(intoAlice.status).toBe(403);
    expect(await roomMessages(alice)).toEqual([]);
  });

  test("staff post from the inbox, not from a customer's Messages page", async () => {
    const staff = await createAccount({ role: "team" });
    expect((await customerPost(staff, { message: "hello" })).status).toBe(403);
    expect(await roomMessages(staff)).toEqual([]);
  });

  test("the newest 50 messages, and a link's page of the earlier ones", async () => {
    const customer = await createAccount({ role: "user" });
    const sender = { _id: customer.id, name: customer.name, profileImage: null };
    // Pages follow the messages' times, to the millisecond in PGlite: each is written in a later one.
    for (let i = 1; i <= 52; i++) {
      await new Promise((resolve) => setTimeout(resolve, 2));
      await storeMessage({ roomId: supportRoomId(customer.id), sender, receiverId: null, customerId: customer.id, message: `message ${i}` });
    }
    const newest = await customerThread(customer);
    expect(newest.messages).toHaveLength(50);
    expect(newest.messages[0]!.message).toBe("message 3");
    expect(newest).toMatchObject({ hasEarlier: true, before: null });
    const earlier = await customerThread(customer, `?before=${newest.messages[0]!._id}`);
    expect(earlier.messages.map((m) => m.message)).toEqual(["message 1", "message 2"]);
    expect(earlier).toMatchObject({ hasEarlier: false, before: newest.messages[0]!._id });
    // An id that is no message of this thread: the newest page.
    expect((await customerThread(customer, `?before=${crypto.randomUUID()}`)).messages.at(-1)!.message).toBe("message 52");
  });
});

describe("a staff reply from the inbox's message form (/dashboard/inbox/:customerId)", () => {
  test("reaches the customer's sockets once, saved-reply placeholders filled in, and the page drops the inserted reply", async () => {
    const customer = await createAccount({ role: "user", name: "Gale Green" });
    const staff = await createAccount({ role: "team", name: "Tess Team" });
    const atCustomer = await listening(customer);
    const atColleague = await listening(await createAccount({ role: "team" }));
    const arrived = nextEvent(atCustomer.socket, "supportMessage", (m) => m.senderId._id === staff.id);

    const sent = await staffPost(staff, customer, { message: "Hi {name} ({first_name}), we wrote to {email}." }, "?insert=x&filter=mine");
    expect(sent.status).toBe(302);
    expect(sent.location).toBe(`/dashboard/inbox/${customer.id}?filter=mine`);
    const reply = await arrived;
    expect(reply.message).toBe(`Hi Gale Green (Gale), we wrote to ${customer.email}.`);
    expect(reply).toMatchObject({ receiverId: customer.id, senderId: { name: "Tess Team" } });
    await expect.poll(() => atColleague.seen.filter((m) => m._id === reply._id).length).toBe(1);
    await delay(100);
    expect(atCustomer.seen.filter((m) => m._id === reply._id)).toHaveLength(1);
    // The thread as the customer's page reads it.
    expect((await customerThread(customer)).messages.map((m) => m._id)).toEqual([reply._id]);
  });

  test("with a file; and a saved reply put in with ?insert= comes filled in for the customer", async () => {
    const customer = await createAccount({ role: "user", name: "Hal Hill" });
    const staff = await createAccount({ role: "team" });
    const saved = await createSavedReply(staff, { title: `Welcome ${Date.now()}`, body: "Welcome, {first_name}!" });
    const page = await callRoute(
      inboxThread.loader,
      new Request(`${BASE_URL}/dashboard/inbox/${customer.id}?insert=${saved.id}`, { headers: { Cookie: staff.cookie } }),
      { params: { customerId: customer.id } },
    );
    expect(page.data).toMatchObject({ draft: "Welcome, Hal!", chat: { messages: [], hasEarlier: false } });

    const sent = await staffPost(staff, customer, { message: "Your report", file: { name: "report.pdf", bytes: samples.pdf() } });
    expect(sent.status).toBe(302);
    expect((await customerThread(customer)).messages).toMatchObject([{ messageType: "file", message: "Your report", attachment: { fileName: "report.pdf" } }]);
  });

  test("a visitor's thread has no live message form (404); the answer goes by e-mail", async () => {
    const staff = await createAccount({ role: "team" });
    const id = crypto.randomUUID();
    const [visitor] = await db
      .insert(schema.chatThreads)
      .values({ id, roomId: `visitor-${id}`, visitorEmail: "v@form.test" })
      .returning();
    const sent = await callRoute(inboxThread.action, messageForm(`/dashboard/inbox/${visitor!.id}`, staff, { message: "hello" }), {
      params: { customerId: visitor!.id },
    });
    expect(sent.status).toBe(404);
  });
});
