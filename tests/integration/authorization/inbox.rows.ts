import { eq } from "drizzle-orm";

import { supportRoomId } from "~/domain/chat";
import { createAttachmentUrl } from "~/models/chat-attachments.server";
import { recordContactMessage } from "~/models/contact.server";
import { db, schema } from "~/utils/db.server";
import { putBuffer } from "~/utils/storage.server";

import { postInThread } from "../../support/factories";
import { byRole, everyone, messageForm } from "./helpers";
import type { AuthorizationRow, Fixtures } from "./types";

/**
 * The support inbox (decisions 095–097): staff pages and API, the customer's Messages page, attachments of
 * customer A's thread (B asking gets 404), and attachment files: at their stable address (the
 * session decides, on every request) and through a signed link.
 */

const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082",
  "hex",
);

export async function fixtures(base: Omit<Fixtures, "ids">) {
  const a = base.customerA;
  const message = await postInThread(a, "A's question");
  const storageKey = `chat/${crypto.randomUUID()}.png`;
  await putBuffer(storageKey, PNG, "image/png");
  const [attachment] = await db
    .insert(schema.chatAttachments)
    .values({
      roomId: supportRoomId(a.id),
      uploaderId: a.id,
      messageId: message._id,
      storageKey,
      fileName: "a.png",
      mimeType: "image/png",
      fileSize: PNG.length,
    })
    .returning();
  const visitor = await recordContactMessage({ email: `visitor-${crypto.randomUUID()}@authz.test`, name: "Vic", message: "hello" });
  const [visitorThread] = await db.select({ id: schema.chatThreads.id }).from(schema.chatThreads).where(eq(schema.chatThreads.roomId, visitor.roomId));
  return { inboxAttachmentA: attachment!.id, inboxVisitorThread: visitorThread!.id };
}

const login = { status: 302, location: "/login" };
const staffPage = byRole({ anonymous: login, customer: 403, team: 200 });
const staffApi = byRole({ anonymous: 401, customer: 403, team: 200 });
const attachmentA = (f: Fixtures) => f.ids.inboxAttachmentA;
const pngFor = (roomOf: (f: Fixtures) => string) => (f: Fixtures) => ({
  multipart: () => {
    const form = new FormData();
    form.append("roomId", roomOf(f));
    form.append("file", new Blob([new Uint8Array(PNG)], { type: "image/png" }), "shot.png");
    return form;
  },
});

export const rows: AuthorizationRow[] = [
  // Pages
  { route: "dashboard+/_staff+/inbox+/_layout.tsx", method: "GET", path: "/dashboard/inbox", expect: staffPage },
  { route: "dashboard+/_staff+/inbox+/_layout.tsx", method: "GET", path: "/dashboard/inbox?filter=mine&search=question", note: "filtered", expect: staffPage },
  { route: "dashboard+/_staff+/inbox+/_index.tsx", method: "GET", path: "/dashboard/inbox", expect: staffPage },
  {
    route: "dashboard+/_staff+/inbox+/$customerId.tsx",
    method: "GET",
    path: (f) => `/dashboard/inbox/${f.customerA.id}`,
    note: "customer A's thread",
    expect: staffPage,
  },
  {
    route: "dashboard+/_staff+/inbox+/$customerId.tsx",
    method: "GET",
    path: (f) => `/dashboard/inbox/${f.ids.inboxVisitorThread}`,
    note: "a visitor's thread",
    expect: staffPage,
  },
  {
    route: "dashboard+/_staff+/inbox+/$customerId.tsx",
    method: "GET",
    path: (f) => `/dashboard/inbox/${f.team.id}`,
    note: "a staff id is no thread",
    expect: byRole({ anonymous: login, customer: 403, team: 404 }),
  },
  {
    route: "dashboard+/_staff+/inbox+/$customerId.tsx",
    method: "POST",
    path: (f) => `/dashboard/inbox/${f.customerA.id}`,
    body: { form: { intent: "status", status: "open" } },
    expect: byRole({ anonymous: login, customer: 403, team: { status: 302, location: "/dashboard/inbox/" } }),
  },
  {
    route: "dashboard+/_staff+/inbox+/$customerId.tsx",
    method: "POST",
    path: (f) => `/dashboard/inbox/${f.customerA.id}`,
    note: "the message form (multipart)",
    body: messageForm,
    expect: byRole({ anonymous: login, customer: 403, team: { status: 302, location: "/dashboard/inbox/" } }),
  },
  {
    route: "dashboard+/_customer+/messages.tsx",
    method: "GET",
    path: "/dashboard/messages",
    needs: "chat",
    expect: byRole({ anonymous: login, customer: 200, team: { status: 302, location: "/dashboard/inbox" } }),
  },
  {
    route: "dashboard+/_customer+/messages.tsx",
    method: "POST",
    path: "/dashboard/messages",
    note: "the message form: always the customer's own thread",
    needs: "chat",
    body: messageForm,
    expect: byRole({ anonymous: login, customer: { status: 302, location: "/dashboard/messages" }, team: 403 }),
  },

  // API
  { route: "api+/chat+/threads.ts", method: "GET", path: "/api/chat/threads", expect: staffApi },
  {
    route: "api+/chat+/threads.ts",
    method: "GET",
    path: "/api/chat/threads?filter=unassigned&search=question&page=1&limit=10",
    note: "filtered",
    expect: staffApi,
  },
  { route: "api+/chat+/threads.ts", method: "POST", path: "/api/chat/threads", expect: everyone(405) },
  { route: "api+/chat+/unread.ts", method: "GET", path: "/api/chat/unread", expect: staffApi },
  { route: "api+/chat+/unread.ts", method: "POST", path: "/api/chat/unread", expect: everyone(405) },
  {
    route: "api+/chat+/threads.$customerId.ts",
    method: "PATCH",
    path: (f) => `/api/chat/threads/${f.customerA.id}`,
    body: { json: { status: "open" } },
    expect: staffApi,
  },
  {
    route: "api+/chat+/threads.$customerId.ts",
    method: "PATCH",
    path: (f) => `/api/chat/threads/${f.customerA.id}`,
    note: "assign to a customer",
    body: (f) => ({ json: { assigneeId: f.customerB.id } }),
    expect: byRole({ anonymous: 401, customer: 403, team: 400 }),
  },
  { route: "api+/chat+/threads.$customerId.ts", method: "GET", path: (f) => `/api/chat/threads/${f.customerA.id}`, expect: everyone(405) },
  {
    route: "api+/chat+/attachments.ts",
    method: "POST",
    path: "/api/chat/attachments",
    note: "to customer A's thread",
    needs: "chat",
    refused: 404,
    body: pngFor((f) => supportRoomId(f.customerA.id)),
    expect: { anonymous: 401, customerA: 201, customerB: 404, team: 201 },
  },
  { route: "api+/chat+/attachments.ts", method: "GET", path: "/api/chat/attachments", expect: everyone(405) },
  {
    route: "api+/chat+/attachments.$id.ts",
    method: "GET",
    path: (f) => `/api/chat/attachments/${attachmentA(f)}`,
    needs: "chat",
    refused: 404,
    expect: { anonymous: 401, customerA: 200, customerB: 404, team: 200 },
  },
  { route: "api+/chat+/attachments.$id.ts", method: "POST", path: (f) => `/api/chat/attachments/${attachmentA(f)}`, expect: everyone(405) },
  {
    route: "files.chat.$attachmentId.ts",
    method: "GET",
    path: (f) => new URL(createAttachmentUrl(attachmentA(f))).pathname + new URL(createAttachmentUrl(attachmentA(f))).search,
    note: "signed link",
    expect: everyone(200),
  },
  {
    route: "files.chat.$attachmentId.ts",
    method: "GET",
    path: (f) => `/files/chat/${attachmentA(f)}`,
    note: "the stable address: the session decides",
    needs: "chat",
    refused: 404,
    expect: { anonymous: login, customerA: 200, customerB: 404, team: 200 },
  },
  {
    route: "files.chat.$attachmentId.ts",
    method: "GET",
    path: (f) => `/files/chat/${attachmentA(f)}${new URL(createAttachmentUrl(attachmentA(f), Date.now() - 60 * 60 * 1000)).search}`,
    note: "an expired signed link: the session decides",
    needs: "chat",
    refused: 404,
    expect: { anonymous: login, customerA: 200, customerB: 404, team: 200 },
  },
  {
    route: "files.chat.$attachmentId.ts",
    method: "GET",
    path: "/files/chat/not-an-id",
    note: "no such attachment",
    expect: byRole({ anonymous: login, customer: 404, team: 404 }),
  },
];
