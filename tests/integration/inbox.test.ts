import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";

import { supportRoomId, type ChatMessage } from "~/domain/chat";
import type { Thread } from "~/domain/inbox";
import { createAttachmentUrl } from "~/models/chat-attachments.server";
import { getUnreadCountForCustomer, getUnreadCountsForTeam } from "~/models/chat.server";
import { createContactMessage, replyToVisitor } from "~/models/contact.server";
import { createUser } from "~/models/users.server";
import { INBOX_ERRORS } from "~/realtime/inbox-handlers.server";
import { SOCKET_ERRORS } from "~/realtime/socket.server";
import * as attachments from "~/routes/api+/chat+/attachments";
import * as attachmentLink from "~/routes/api+/chat+/attachments.$id";
import * as conversation from "~/routes/api+/chat+/conversation.$userId";
import * as threads from "~/routes/api+/chat+/threads";
import * as thread from "~/routes/api+/chat+/threads.$customerId";
import * as threadPage from "~/routes/dashboard+/_staff+/inbox+/$customerId";
import * as file from "~/routes/files.chat.$attachmentId";
import { db, schema } from "~/utils/db.server";
import { env } from "~/utils/env.server";

import { parseEmail } from "../fakes/email-links";
import { chatAccount, chatServerForFile, collect, nextEvent, sendSupport, type ChatAccount } from "../support/chat-helpers";
import { sessionCookieFor } from "../support/factories";
import { samples } from "../support/reports-cases";
import { formRequest } from "../support/requests";

/*
 * The support inbox (decisions 095–097): the thread summary, GET/PATCH /api/chat/threads, typing and read
 * receipts, attachments, visitors' contact-form threads, and the edges the issue names.
 */

const context = { requestId: "test", cspNonce: "", clientIp: "127.0.0.1" };
const { client } = chatServerForFile();

function api(method: string, url: string, account: ChatAccount | null, body?: unknown) {
  const headers: Record<string, string> = account ? { Authorization: `Bearer ${account.token}` } : {};
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  return new Request(`http://localhost${url}`, { method, headers, body: payload });
}

async function listThreads(account: ChatAccount, query = "") {
  const response = await threads.loader({ request: api("GET", `/api/chat/threads${query}`, account), params: {}, context });
  return { status: response.status, body: (await response.json()) as { data: { threads: Thread[]; total: number }; message?: string } };
}

async function patchThread(account: ChatAccount, customerId: string, body: unknown) {
  const response = await thread.action({ request: api("PATCH", `/api/chat/threads/${customerId}`, account, body), params: { customerId }, context });
  return { status: response.status, body: (await response.json()) as { data: Thread; message?: string } };
}

function attachmentForm(roomId: string | null, name: string, bytes: Buffer) {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)]), name);
  if (roomId !== null) form.append("roomId", roomId);
  return form;
}

async function upload(account: ChatAccount, form: FormData) {
  const response = await attachments.action({ request: api("POST", "/api/chat/attachments", account, form), params: {}, context });
  return {
    status: response.status,
    body: (await response.json()) as { data: { attachment: { _id: string; fileName: string; mimeType: string; fileSize: number } }; message?: string },
  };
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}
const chatFiles = () => filesUnder(path.join(env.storageDir, "chat"));
/** The first bytes of a Word .docx: a zip whose first part is [Content_Types].xml. */
const docx = () => Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(26, 0), Buffer.from("[Content_Types].xml"), Buffer.alloc(200, 0)]);

describe("thread summary", () => {
  test("each message updates the thread in the same transaction: last message, unread both ways, and a closed thread reopens", async () => {
    const customer = await chatAccount("user", "Summary Sam");
    const staff = await chatAccount("team");
    const atCustomer = await client(customer);
    const atStaff = await client(staff);

    await sendSupport(atCustomer, { message: "first question" });
    await sendSupport(atCustomer, { message: "second question" });
    expect((await getUnreadCountsForTeam()).byCustomer[customer.id]).toBe(2);
    let [row] = (await listThreads(staff, `?search=${encodeURIComponent(customer.email)}`)).body.data.threads;
    expect(row).toMatchObject({ customer: { _id: customer.id, name: "Summary Sam", email: customer.email }, unread: 2, status: "open", assignee: null });
    expect(row!.lastMessage?.message).toBe("second question");

    // A staff reply means the thread is handled; the customer has one unread reply.
    await sendSupport(atStaff, { message: "answer", userId: customer.id });
    expect((await getUnreadCountsForTeam()).byCustomer[customer.id]).toBeUndefined();
    expect(await getUnreadCountForCustomer(customer.id)).toBe(1);

    // Closed, then the customer writes again: it reopens with one unread.
    expect((await patchThread(staff, customer.id, { status: "closed" })).body.data.status).toBe("closed");
    const reopened = nextEvent(atStaff, "threadUpdated", (t) => t.customer._id === customer.id && t.lastMessage?.message === "one more thing");
    await sendSupport(atCustomer, { message: "one more thing" });
    expect(await reopened).toMatchObject({ status: "open", unread: 1 });
    [row] = (await listThreads(staff, `?search=${encodeURIComponent(customer.email)}`)).body.data.threads;
    expect(row).toMatchObject({ status: "open", unread: 1 });
  });
});

describe("GET /api/chat/threads", () => {
  test("latest message first, searchable by name, e-mail and text, with the unassigned, mine and closed filters", async () => {
    const staff = await chatAccount("team", "Inbox Ivy");
    const older = await chatAccount("user", "Olive Older");
    const newer = await chatAccount("user", "Nora Newer");
    await sendSupport(await client(older), { message: "where is my zebracalendar" });
    await sendSupport(await client(newer), { message: "hello there" });

    const { body } = await listThreads(staff, "?limit=100");
    const ids = body.data.threads.map((t) => t.customer._id);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    expect(body.data.total).toBeGreaterThanOrEqual(2);

    expect((await listThreads(staff, "?search=olive")).body.data.threads.map((t) => t.customer._id)).toEqual([older.id]);
    expect((await listThreads(staff, `?search=${newer.email.slice(0, 12)}`)).body.data.threads.map((t) => t.customer._id)).toContain(newer.id);
    // Message text, by word prefix.
    expect((await listThreads(staff, "?search=zebracal")).body.data.threads.map((t) => t.customer._id)).toEqual([older.id]);

    await patchThread(staff, newer.id, { assigneeId: staff.id });
    await patchThread(staff, older.id, { status: "closed" });
    const mine = (await listThreads(staff, "?filter=mine&limit=100")).body.data.threads.map((t) => t.customer._id);
    expect(mine).toEqual([newer.id]);
    const unassigned = (await listThreads(staff, "?filter=unassigned&limit=100")).body.data.threads.map((t) => t.customer._id);
    expect(unassigned).not.toContain(newer.id);
    expect(unassigned).not.toContain(older.id); // closed
    const closed = (await listThreads(staff, "?status=closed&limit=100")).body.data.threads.map((t) => t.customer._id);
    expect(closed).toContain(older.id);
    expect(closed).not.toContain(newer.id);
  });

  test("bad query values answer 400 with the field's message; customers 403", async () => {
    const staff = await chatAccount("team");
    const customer = await chatAccount("user");
    expect(await listThreads(staff, "?status=archived")).toMatchObject({ status: 400, body: { message: "status must be open or closed." } });
    expect(await listThreads(staff, "?limit=0")).toMatchObject({ status: 400 });
    expect((await listThreads(customer)).status).toBe(403);
  });
});

describe("PATCH /api/chat/threads/:customerId", () => {
  test("two staff assigning at once: the last write wins and both see it", async () => {
    const customer = await chatAccount("user", "Contested Cat");
    const ann = await chatAccount("team", "Ann");
    const bob = await chatAccount("team", "Bob");
    await sendSupport(await client(customer), { message: "help" });
    const annSocket = await client(ann);
    const bobSocket = await client(bob);
    const seenByAnn = collect(annSocket, "threadUpdated");
    const seenByBob = collect(bobSocket, "threadUpdated");

    const [first, second] = await Promise.all([patchThread(ann, customer.id, { assigneeId: ann.id }), patchThread(bob, customer.id, { assigneeId: bob.id })]);
    expect([first.status, second.status]).toEqual([200, 200]);
    const [stored] = await db.select().from(schema.chatThreads).where(eq(schema.chatThreads.customerId, customer.id));
    const winner = stored!.assigneeId;
    expect([ann.id, bob.id]).toContain(winner);

    // Whatever order the two commits took, each client ends on the stored assignee.
    const settled = (seen: Thread[]) =>
      seen.filter((t) => t.customer._id === customer.id).at(-1)?.assignee?._id === winner && seen.filter((t) => t.customer._id === customer.id).length >= 2;
    await expect.poll(() => settled(seenByAnn)).toBe(true);
    await expect.poll(() => settled(seenByBob)).toBe(true);
  });

  test("unassign, unknown thread 404, a customer as assignee 400", async () => {
    const customer = await chatAccount("user");
    const staff = await chatAccount("team");
    expect((await patchThread(staff, customer.id, { assigneeId: staff.id })).body.data.assignee).toEqual({ _id: staff.id, name: staff.name });
    expect((await patchThread(staff, customer.id, { assigneeId: null })).body.data.assignee).toBeNull();
    expect((await patchThread(staff, crypto.randomUUID(), { status: "closed" })).status).toBe(404);
    expect(await patchThread(staff, customer.id, { assigneeId: customer.id })).toMatchObject({
      status: 400,
      body: { message: "The assignee must be a team member." },
    });
    expect((await patchThread(staff, customer.id, {})).status).toBe(400);
  });
});

describe("the thread page's assign form", () => {
  async function assign(staff: ChatAccount, customerId: string, assigneeId: string) {
    const request = formRequest(`/dashboard/inbox/${customerId}`, { intent: "assign", assigneeId }, { Cookie: await sessionCookieFor(staff.id) });
    const answer = await threadPage.action({ request, params: { customerId }, context });
    if (answer instanceof Response) return { status: answer.status, body: null };
    const wrapped = answer as unknown as { data: unknown; init: ResponseInit | null };
    return { status: wrapped.init?.status ?? 200, body: wrapped.data };
  }

  test("an assignee that is not an id, or no team member's, answers 400 with the form's message (not a 500)", async () => {
    const customer = await chatAccount("user");
    const staff = await chatAccount("team");
    const refused = { status: 400, body: { intent: "assign", result: { error: { "": ["The assignee must be a team member."] } } } };
    expect(await assign(staff, customer.id, "not-a-uuid")).toMatchObject(refused);
    expect(await assign(staff, customer.id, customer.id)).toMatchObject(refused);
    expect(await assign(staff, customer.id, "me")).toMatchObject({ status: 302 });
  });
});

describe("typing and read receipts", () => {
  test("typing is relayed to the other side, at most one per 2 s per socket", async () => {
    const customer = await chatAccount("user");
    const staff = await chatAccount("team");
    const atCustomer = await client(customer);
    const atStaff = await client(staff);
    const room = supportRoomId(customer.id);
    const typing = collect(atStaff, "typing");

    for (let i = 0; i < 10; i++) atCustomer.emit("typing", { roomId: room });
    // The message is relayed after the typing events ahead of it on the same socket.
    const marker = nextEvent(atStaff, "supportMessage", (m) => m.message === "done typing");
    expect((await sendSupport(atCustomer, { message: "done typing" })).ok).toBe(true);
    await marker;
    expect(typing.filter((t) => t.roomId === room)).toEqual([{ roomId: room, userId: customer.id, name: customer.name }]);

    // Staff typing reaches the customer.
    const atCustomerTyping = nextEvent(atCustomer, "typing");
    atStaff.emit("joinRoom", { roomId: room });
    atStaff.emit("typing", { roomId: room });
    expect(await atCustomerTyping).toEqual({ roomId: room, userId: staff.id, name: staff.name });
  });

  test("a read receipt reaches the other side and clears the unread count; a forged one for another room is refused", async () => {
    const customer = await chatAccount("user");
    const other = await chatAccount("user");
    const staff = await chatAccount("team");
    const atCustomer = await client(customer);
    const atStaff = await client(staff);
    const room = supportRoomId(customer.id);
    const sent = await sendSupport(atStaff, { message: "your report is ready", userId: customer.id });
    const elsewhere = await sendSupport(await client(other), { message: "not yours" });
    if (!sent.ok || !elsewhere.ok) throw new Error("not sent");
    expect(await getUnreadCountForCustomer(customer.id)).toBe(1);

    const receipts = collect(atStaff, "read");
    atStaff.emit("joinRoom", { roomId: room });
    await nextEvent(atStaff, "supportRoomJoined");
    const forged = await atCustomer.timeout(5000).emitWithAck("read", { roomId: room, messageId: elsewhere.message._id });
    expect(forged).toEqual({ ok: false, error: INBOX_ERRORS.read });

    const seen = nextEvent(atStaff, "read");
    expect(await atCustomer.timeout(5000).emitWithAck("read", { roomId: room, messageId: sent.message._id })).toEqual({ ok: true });
    expect(await seen).toEqual({ roomId: room, userId: customer.id, messageId: sent.message._id });
    expect(receipts).toHaveLength(1);
    expect(await getUnreadCountForCustomer(customer.id)).toBe(0);

    // Staff reading the customer's messages: the customer sees it, and the team count drops.
    const question = await sendSupport(atCustomer, { message: "thanks!" });
    if (!question.ok) throw new Error("not sent");
    expect((await getUnreadCountsForTeam()).byCustomer[customer.id]).toBe(1);
    const seenByCustomer = nextEvent(atCustomer, "read", (r) => r.userId === staff.id);
    atStaff.emit("read", { roomId: room, messageId: question.message._id });
    expect(await seenByCustomer).toEqual({ roomId: room, userId: staff.id, messageId: question.message._id });
    expect((await getUnreadCountsForTeam()).byCustomer[customer.id]).toBeUndefined();
  });

  test("writing counts as reading for a customer too: replies they answered without a receipt no longer count, the next one counts one", async () => {
    const customer = await chatAccount("user");
    const staff = await chatAccount("team");
    const atCustomer = await client(customer);
    const atStaff = await client(staff);
    const first = await sendSupport(atStaff, { message: "first draft attached", userId: customer.id });
    if (!first.ok) throw new Error("not sent");
    expect(await getUnreadCountForCustomer(customer.id)).toBe(1);

    // No receipt (the page was left before it went out), but the customer answers: they have read it.
    const answer = await sendSupport(atCustomer, { message: "looks good" });
    if (!answer.ok) throw new Error("not sent");
    expect(await getUnreadCountForCustomer(customer.id)).toBe(0);

    const next = await sendSupport(atStaff, { message: "the second one is ready", userId: customer.id });
    if (!next.ok) throw new Error("not sent");
    expect(await getUnreadCountForCustomer(customer.id)).toBe(1);
  });
});

describe("attachments", () => {
  test("an image uploaded to one's own thread is sent as a file message and opened through a signed link by members only", async () => {
    const customer = await chatAccount("user");
    const stranger = await chatAccount("user");
    const staff = await chatAccount("team");
    const atCustomer = await client(customer);
    const atStaff = await client(staff);
    const room = supportRoomId(customer.id);

    const uploaded = await upload(customer, attachmentForm(room, "screenshot.png", samples.png()));
    expect(uploaded.status).toBe(201);
    expect(uploaded.body.data.attachment).toMatchObject({ fileName: "screenshot.png", mimeType: "image/png", fileSize: samples.png().length });
    const attachmentId = uploaded.body.data.attachment._id;

    // Before it is sent, only the uploader may open it.
    const linkFor = (account: ChatAccount) =>
      attachmentLink.loader({ request: api("GET", `/api/chat/attachments/${attachmentId}`, account), params: { id: attachmentId }, context });
    expect((await linkFor(staff)).status).toBe(404);

    const arrived = nextEvent(atStaff, "supportMessage", (m) => m.messageType === "file");
    const sent = await sendSupport(atCustomer, { message: "", messageType: "file", attachmentId } as never);
    expect(sent).toMatchObject({ ok: true, message: { messageType: "file", message: "screenshot.png", attachment: { _id: attachmentId } } });
    expect((await arrived).attachment).toEqual(uploaded.body.data.attachment);
    // The same attachment cannot be sent twice.
    expect(await sendSupport(atCustomer, { message: "", messageType: "file", attachmentId } as never)).toEqual({ ok: false, error: INBOX_ERRORS.attachment });

    const history = (await (
      await conversation.loader({ request: api("GET", `/api/chat/conversation/${customer.id}`, staff), params: { userId: customer.id }, context })
    ).json()) as { data: { messages: ChatMessage[] } };
    expect(history.data.messages.at(-1)).toMatchObject({ messageType: "file", attachment: { _id: attachmentId, fileName: "screenshot.png" } });

    const link = (await (await linkFor(staff)).json()) as { data: { downloadUrl: string } };
    const fileUrl = new URL(link.data.downloadUrl);
    const served = await file.loader({ request: new Request(`http://localhost${fileUrl.pathname}${fileUrl.search}`), params: { attachmentId }, context });
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/png");
    // nosniff: helmet sets it once on every answer (server.ts); a second copy from the route made it twice.
    expect(served.headers.get("X-Content-Type-Options")).toBeNull();
    expect(Buffer.from(await served.arrayBuffer()).equals(samples.png())).toBe(true);
    expect((await linkFor(customer)).status).toBe(200);
    expect((await linkFor(stranger)).status).toBe(404);
  });

  test("a file goes with an optional caption: the caption is the message's text; too long a caption, or a control character, sends nothing", async () => {
    const customer = await chatAccount("user");
    const staff = await chatAccount("team");
    const atCustomer = await client(customer);
    const atStaff = await client(staff);
    const room = supportRoomId(customer.id);
    const first = (await upload(customer, attachmentForm(room, "logo.png", samples.png()))).body.data.attachment._id;
    const tooLong = await sendSupport(atCustomer, { message: "x".repeat(2001), messageType: "file", attachmentId: first } as never);
    expect(tooLong).toEqual({ ok: false, error: "Message must be at most 2,000 characters." });
    // A NUL or another control character is refused in words, in a caption as in a message (lines and tabs are fine).
    const refused = { ok: false, error: "The message contains characters that are not allowed (control or text-direction characters)" };
    expect(await sendSupport(atCustomer, { message: "logo\u0000", messageType: "file", attachmentId: first } as never)).toEqual(refused);
    expect(await sendSupport(atCustomer, { message: "a\u001bb" })).toEqual(refused);
    const [unsent] = await db.select().from(schema.chatAttachments).where(eq(schema.chatAttachments.id, first));
    expect(unsent!.messageId).toBeNull();
    expect(await sendSupport(atCustomer, { message: "two\n\tlines" })).toMatchObject({ ok: true, message: { message: "two\n\tlines" } });

    const arrived = nextEvent(atStaff, "supportMessage", (m) => m.roomId === room && m.messageType === "file");
    const sent = await sendSupport(atCustomer, {
      message: "  The new logo, see https://brandlift.test/x  ",
      messageType: "file",
      attachmentId: first,
    } as never);
    expect(sent).toMatchObject({
      ok: true,
      message: { messageType: "file", message: "The new logo, see https://brandlift.test/x", attachment: { _id: first } },
    });
    expect((await arrived).message).toBe("The new logo, see https://brandlift.test/x");
    const [row] = (await listThreads(staff, `?search=${encodeURIComponent(customer.email)}`)).body.data.threads;
    expect(row!.lastMessage).toMatchObject({ message: "The new logo, see https://brandlift.test/x", attachment: { fileName: "logo.png" } });
  });

  test("an attachment's stable address asks the session on every request: members get the file long after any link expired, others not", async () => {
    const customer = await chatAccount("user");
    const stranger = await chatAccount("user");
    const staff = await chatAccount("team");
    const uploaded = await upload(customer, attachmentForm(supportRoomId(customer.id), "brief.docx", docx()));
    expect(uploaded.status).toBe(201);
    const attachmentId = uploaded.body.data.attachment._id;
    expect(await sendSupport(await client(customer), { message: "", messageType: "file", attachmentId } as never)).toMatchObject({ ok: true });

    const open = async (headers: Record<string, string>, query = "") =>
      file
        .loader({ request: new Request(`http://localhost/files/chat/${attachmentId}${query}`, { headers }), params: { attachmentId }, context })
        // The sign-in redirect is thrown, as Remix guards do.
        .catch((thrown: unknown) => (thrown instanceof Response ? thrown : Promise.reject(thrown)));
    for (const member of [customer, staff]) {
      const served = await open({ Cookie: await sessionCookieFor(member.id) });
      expect(served.status).toBe(200);
      expect(served.headers.get("Content-Type")).toBe("application/vnd.openxmlformats-officedocument.wordprocessingml.document");
      expect(served.headers.get("Content-Disposition")).toMatch(/^attachment; filename="brief\.docx"/);
      expect(served.headers.get("Cache-Control")).toBe("private, no-store");
      expect(Buffer.from(await served.arrayBuffer()).equals(docx())).toBe(true);
    }
    // A signed link from an hour ago no longer opens it by itself, but a member's session still does.
    const stale = new URL(createAttachmentUrl(attachmentId, Date.now() - 60 * 60 * 1000));
    expect((await open({ Cookie: await sessionCookieFor(staff.id) }, stale.search)).status).toBe(200);
    const signedOut = await open({}, stale.search);
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toBe(`/login?${new URLSearchParams({ redirectTo: `/files/chat/${attachmentId}${stale.search}` })}`);
    expect((await open({ Cookie: await sessionCookieFor(stranger.id) })).status).toBe(404);
    expect((await open({ Authorization: `Bearer ${stranger.token}` })).status).toBe(404);
    // Access ends with the session: the same address stops working at once.
    const cookie = await sessionCookieFor(customer.id);
    expect((await open({ Cookie: cookie })).status).toBe(200);
    await db.delete(schema.sessions).where(eq(schema.sessions.userId, customer.id));
    expect((await open({ Cookie: cookie })).status).toBe(302);
  });

  test("a file message re-checks the session like text: a session ended unannounced sends nothing and the file stays unsent", async () => {
    const customer = await chatAccount("user");
    const staff = await chatAccount("team");
    const atCustomer = await client(customer);
    const atStaff = await client(staff);
    const uploaded = await upload(customer, attachmentForm(supportRoomId(customer.id), "invoice.pdf", samples.pdf()));
    expect(uploaded.status).toBe(201);
    const attachmentId = uploaded.body.data.attachment._id;
    const seenByStaff = collect(atStaff, "supportMessage");
    const threadsSeen = collect(atStaff, "threadUpdated");

    // Ended behind the app's back (as on a node that missed the revocation while Redis was away).
    await db.delete(schema.sessions).where(eq(schema.sessions.userId, customer.id));
    const ended = new Promise<string>((resolve) => atCustomer.once("disconnect", resolve));
    expect(await sendSupport(atCustomer, { message: "", messageType: "file", attachmentId } as never)).toEqual({
      ok: false,
      error: SOCKET_ERRORS.unauthorized,
    });
    expect(await ended).toBe("io server disconnect");

    expect(await db.select().from(schema.chatMessages).where(eq(schema.chatMessages.customerId, customer.id))).toEqual([]);
    const [attachment] = await db.select().from(schema.chatAttachments).where(eq(schema.chatAttachments.id, attachmentId));
    expect(attachment!.messageId).toBeNull();
    expect(await db.select().from(schema.chatThreads).where(eq(schema.chatThreads.customerId, customer.id))).toEqual([]);
    // A message the staff socket would have had by now (same node, same process).
    await new Promise((r) => setTimeout(r, 200));
    expect(seenByStaff.filter((m) => m.roomId === supportRoomId(customer.id))).toEqual([]);
    expect(threadsSeen.filter((t) => t.customer._id === customer.id)).toEqual([]);
  });

  test("gif, webp, pdf, doc and docx are accepted (the report types plus gif and webp); a disguised file 415; someone else's room 404 with nothing left in storage", async () => {
    const customer = await chatAccount("user");
    const other = await chatAccount("user");
    const room = supportRoomId(customer.id);
    const gif = Buffer.concat([Buffer.from("GIF89a"), Buffer.from([1, 0, 1, 0, 0, 0, 0]), Buffer.alloc(40, 0)]);
    const webp = Buffer.concat([Buffer.from("RIFF"), Buffer.from([36, 0, 0, 0]), Buffer.from("WEBPVP8 "), Buffer.alloc(40, 0)]);
    expect((await upload(customer, attachmentForm(room, "a.gif", gif))).status).toBe(201);
    expect((await upload(customer, attachmentForm(room, "b.webp", webp))).status).toBe(201);
    expect((await upload(customer, attachmentForm(room, "c.pdf", samples.pdf()))).status).toBe(201);
    expect(await upload(customer, attachmentForm(room, "notes.doc", samples.doc()))).toMatchObject({
      status: 201,
      body: { data: { attachment: { fileName: "notes.doc", mimeType: "application/msword" } } },
    });
    expect(await upload(customer, attachmentForm(room, "brief.docx", docx()))).toMatchObject({
      status: 201,
      body: { data: { attachment: { fileName: "brief.docx", mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document" } } },
    });

    const before = chatFiles().length;
    expect(await upload(customer, attachmentForm(room, "evil.png", samples.html()))).toMatchObject({
      status: 415,
      body: { message: "Please send only images (JPG, PNG, GIF, WebP), PDF or Word (DOC, DOCX) files" },
    });
    // A .docx that is an old .doc inside is still refused: the content must match the name.
    expect((await upload(customer, attachmentForm(room, "report.docx", samples.doc()))).status).toBe(415);
    expect(await upload(customer, attachmentForm(supportRoomId(other.id), "x.png", samples.png()))).toMatchObject({
      status: 404,
      body: { message: "Conversation not found." },
    });
    expect(await upload(customer, attachmentForm(null, "x.png", samples.png()))).toMatchObject({
      status: 400,
      body: { message: "roomId is required: the conversation the file is for." },
    });
    expect(chatFiles().length).toBe(before);
  });

  test("an upload cancelled half-way leaves nothing in storage", async () => {
    const customer = await chatAccount("user");
    const before = chatFiles().length;
    const boundary = "----cancelled-upload";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="roomId"\r\n\r\n${supportRoomId(customer.id)}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    );
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new Uint8Array(Buffer.concat([head, samples.pdfOfSize(256 * 1024)])));
        else if (sent < 8) controller.enqueue(new Uint8Array(256 * 1024).fill(0x20));
        else controller.error(new Error("aborted")); // the browser cancelled: the connection is gone
        sent += 1;
      },
    });
    const request = new Request("http://localhost/api/chat/attachments", {
      method: "POST",
      headers: { Authorization: `Bearer ${customer.token}`, "Content-Type": `multipart/form-data; boundary=${boundary}` },
      body,
      duplex: "half",
    } as RequestInit);
    const response = await attachments.action({ request, params: {}, context });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(chatFiles().length).toBe(before);
    expect(filesUnder(env.storageDir).filter((f) => f.endsWith(".part"))).toEqual([]);
    expect(await db.select().from(schema.chatAttachments).where(eq(schema.chatAttachments.uploaderId, customer.id))).toEqual([]);
  });
});

describe("visitors", () => {
  test("a contact-form message becomes a visitor thread; staff reply by e-mail; an account created later with that e-mail does not make it theirs", async () => {
    const staff = await chatAccount("team", "Reply Rita");
    const email = `visitor-${Date.now()}@visitor.test`;
    await createContactMessage({ firstName: "Vera", lastName: "Visitor", email: email.toUpperCase(), message: "Do you do logos?" });

    const [visitorThread] = (await listThreads(staff, `?search=${encodeURIComponent(email)}`)).body.data.threads;
    expect(visitorThread).toMatchObject({ kind: "visitor", customer: { name: "Vera Visitor", email }, unread: 1, status: "open" });
    expect(visitorThread!.lastMessage).toMatchObject({ message: "Do you do logos?", senderId: { name: "Vera Visitor" } });

    await replyToVisitor(visitorThread!._id, { id: staff.id, name: staff.name, email: staff.email, profileImage: null }, "Yes, we do. Want a quote?");
    const mails = fs.readdirSync(env.outboxDir).filter((f) => f.includes(email));
    expect(mails).toHaveLength(1);
    const reply = parseEmail(fs.readFileSync(path.join(env.outboxDir, mails[0]!), "utf8"));
    expect(reply.text).toContain("Yes, we do. Want a quote?");
    // Answering it reaches the colleague who wrote (no TEAM_INBOX here), not MAIL_FROM.
    expect(reply.replyTo).toBe(`"Reply Rita (BrandLift)" <${staff.email}>`);
    expect((await listThreads(staff, `?search=${encodeURIComponent(email)}`)).body.data.threads[0]).toMatchObject({ unread: 0 });

    // An account appears later with that address: anyone could have typed it, so the visitor's
    // messages stay the visitor's (decision 125) and the customer's own conversation stays empty.
    const account = await createUser({ email, name: "Vera Visitor", role: "user" });
    const found = (await listThreads(staff, `?search=${encodeURIComponent(email)}`)).body.data.threads;
    expect(found.map((t) => [t.kind, t._id])).toEqual([["visitor", visitorThread!._id]]);
    const own = (await (
      await conversation.loader({ request: api("GET", `/api/chat/conversation/${account.id}`, staff), params: { userId: account.id }, context })
    ).json()) as { data: { messages: ChatMessage[] } };
    expect(own.data.messages).toEqual([]);
    const senders = await db
      .select({ senderId: schema.chatMessages.senderId })
      .from(schema.chatMessages)
      .where(eq(schema.chatMessages.roomId, visitorThread!.roomId));
    expect(senders.map((m) => m.senderId).sort()).toEqual([null, staff.id].sort());
  });

  test("a contact message giving an existing customer's address stays a visitor's message, never the customer's own", async () => {
    const customer = await chatAccount("user", "Known Kim");
    const staff = await chatAccount("team");
    await createContactMessage({ firstName: "Known", lastName: "Kim", email: customer.email, message: "Writing from the website" });
    const own = (await (
      await conversation.loader({ request: api("GET", `/api/chat/conversation/${customer.id}`, staff), params: { userId: customer.id }, context })
    ).json()) as { data: { messages: ChatMessage[] } };
    expect(own.data.messages).toEqual([]);
    expect(await db.$count(schema.chatMessages, eq(schema.chatMessages.senderId, customer.id))).toBe(0);
    const [found] = (await listThreads(staff, `?search=${encodeURIComponent(customer.email)}`)).body.data.threads.filter((t) => t.kind === "visitor");
    expect(found).toMatchObject({ kind: "visitor", customer: { email: customer.email.toLowerCase() }, lastMessage: { message: "Writing from the website" } });
    expect(found!.customer._id).not.toBe(customer.id);
  });

  test("staff assign, unassign, close and reopen a visitor thread (no owner-check 500)", async () => {
    const staff = await chatAccount("team", "Assign Ada");
    const email = `lead-${Date.now()}@visitor.test`;
    await createContactMessage({ email, message: "Please call me" });
    const [lead] = (await listThreads(staff, `?search=${encodeURIComponent(email)}`)).body.data.threads;
    const assigned = await patchThread(staff, lead!._id, { assigneeId: staff.id });
    expect(assigned).toMatchObject({ status: 200, body: { data: { kind: "visitor", assignee: { _id: staff.id } } } });
    expect((await patchThread(staff, lead!._id, { status: "closed" })).body.data).toMatchObject({ status: "closed", customer: { email } });
    expect((await patchThread(staff, lead!._id, { status: "open", assigneeId: null })).body.data).toMatchObject({ status: "open", assignee: null });
    expect(await db.$count(schema.chatThreads, eq(schema.chatThreads.visitorEmail, email))).toBe(1);
  });
});
