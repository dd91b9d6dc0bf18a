import { eq } from "drizzle-orm";
import MailComposer from "nodemailer/lib/mail-composer";
import { afterAll, describe, expect, test, vi } from "vitest";

import { supportRoomId } from "~/domain/chat";
import { notifyCustomerOfReply } from "~/models/chat.server";
import { replyText } from "~/models/inbound-email.server";
import { sendReviewNotices } from "~/models/post-review-notices.server";
import { threadEvents } from "~/models/thread-events.server";
import * as inboundRoute from "~/routes/api+/inbound.email";
import { db, schema } from "~/utils/db.server";

import { call, createAccount } from "../support/dashboard-helpers";
import { readOutbox } from "../support/outbox";

/*
 * Replies by e-mail, as a provider delivers them: a chat notice carries the member's Reply-To, and
 * the raw reply posted to /api/inbound/email becomes their message in the client's thread. The
 * settings are set before the app's modules load (the env is read once).
 */
vi.hoisted(() => {
  process.env.INBOUND_SECRET = "inbound-test-secret";
  process.env.INBOUND_DOMAIN = "in.brandlift.test";
});

const posted: string[] = [];
const listener = (message: { roomId: string; message: string }) => void posted.push(`${message.roomId}: ${message.message}`);
threadEvents.on("posted", listener);
afterAll(() => void threadEvents.off("posted", listener));

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

function compose(options: { from: string; to: string; text: string; messageId?: string; attachments?: { filename: string; content: Buffer }[] }) {
  return new MailComposer({ subject: "Re: You have a new message from BrandLift", ...options }).compile().build();
}

function deliver(raw: Buffer, secret = "inbound-test-secret") {
  return call(inboundRoute.action, "/api/inbound/email", {
    method: "POST",
    body: new Uint8Array(raw),
    headers: { Authorization: `Bearer ${secret}`, "Content-Type": "message/rfc822" },
  });
}

const messagesIn = (roomId: string) =>
  db
    .select({ text: schema.chatMessages.message, type: schema.chatMessages.messageType, senderId: schema.chatMessages.senderId })
    .from(schema.chatMessages)
    .where(eq(schema.chatMessages.roomId, roomId))
    .orderBy(schema.chatMessages.createdAt);

/** The Reply-To of the chat notice the member just received. */
async function replyAddressOf(member: { id: string; email: string }) {
  expect(await notifyCustomerOfReply(member.id, "Sam from BrandLift", member.id)).toBe(true);
  const notice = readOutbox(member.email).at(-1)!;
  expect(notice.replyTo).toMatch(/^reply\+[0-9a-f]{52}@in\.brandlift\.test$/);
  expect(notice.text).toContain("Reply to this e-mail");
  return notice.replyTo;
}

describe("replies by e-mail", () => {
  test("a reply to a chat notice becomes the member's message (quoted part cut) and its attachment a file message; a replay posts nothing", async () => {
    const member = await createAccount("user", { name: "Rita Reply" });
    const address = await replyAddressOf(member);
    const raw = await compose({
      from: member.email,
      to: address,
      messageId: "<reply-1@mail.example.com>",
      text: "Yes, Friday works for us.\nThanks!\n\nOn Mon, 2 Mar 2026 at 10:00, BrandLift <hello@brandlift.test> wrote:\n> Sam from the BrandLift team replied\n> to your support conversation.",
      attachments: [{ filename: "logo.png", content: PNG }],
    });

    const response = await deliver(raw);
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ status: "success", data: { posted: 2, duplicate: false } });
    const room = supportRoomId(member.id);
    const messages = await messagesIn(room);
    expect(messages).toEqual([
      { text: "Yes, Friday works for us.\nThanks!", type: "text", senderId: member.id },
      { text: "logo.png", type: "file", senderId: member.id },
    ]);
    // Through the chat's own send path: open sockets on every node are told.
    expect(posted).toContain(`${room}: Yes, Friday works for us.\nThanks!`);
    const [attachment] = await db.select().from(schema.chatAttachments).where(eq(schema.chatAttachments.roomId, room));
    expect(attachment).toMatchObject({ fileName: "logo.png", mimeType: "image/png", uploaderId: member.id, fileSize: PNG.length });

    // The provider delivering the same message again: accepted, nothing posted twice.
    const replay = await deliver(raw);
    expect(replay.status).toBe(202);
    expect(await replay.json()).toEqual({ status: "success", data: { posted: 0, duplicate: true } });
    expect(await messagesIn(room)).toHaveLength(2);
  });

  test("a wrong secret is 401; a forged token, a disabled or removed member, and a file the chat refuses post nothing", async () => {
    const member = await createAccount("user");
    const address = await replyAddressOf(member);
    const room = supportRoomId(member.id);
    const reply = (to: string, id: string, attachments?: { filename: string; content: Buffer }[]) =>
      compose({ from: member.email, to, messageId: `<${id}@mail.example.com>`, text: "Looks great", attachments });

    expect((await deliver(await reply(address, "wrong-secret"), "not-the-secret")).status).toBe(401);
    const forged = address.replace(/(reply\+[0-9a-f]{51})([0-9a-f])/, (_, head: string, last: string) => head + (last === "0" ? "1" : "0"));
    expect((await deliver(await reply(forged, "forged"))).status).toBe(403);
    const someoneElse = await createAccount("user");
    const borrowed = address.replace(/reply\+[0-9a-f]{32}/, `reply+${someoneElse.id.replace(/-/g, "")}`);
    expect((await deliver(await reply(borrowed, "borrowed"))).status).toBe(403);
    const fake = await reply(address, "fake-pdf", [{ filename: "invoice.pdf", content: Buffer.from("not really a pdf") }]);
    expect((await deliver(fake)).status).toBe(415);
    expect(await messagesIn(room)).toEqual([]);

    await db.update(schema.clientMembers).set({ removedAt: new Date() }).where(eq(schema.clientMembers.userId, member.id));
    expect((await deliver(await reply(address, "removed"))).status).toBe(403);
    await db.update(schema.clientMembers).set({ removedAt: null }).where(eq(schema.clientMembers.userId, member.id));
    await db.update(schema.users).set({ disabledAt: new Date() }).where(eq(schema.users.id, member.id));
    expect((await deliver(await reply(address, "disabled"))).status).toBe(403);
    expect(await messagesIn(room)).toEqual([]);
  });

  test("the review e-mail carries the member's Reply-To too, and a reply to it lands in their thread", async () => {
    const owner = await createAccount("user");
    await db.insert(schema.posts).values({
      customerId: owner.id,
      channel: "linkedin",
      scheduledAt: new Date(Date.now() + 7 * 86_400_000),
      caption: "Quarterly results",
      status: "in_review",
      reviewRequestedAt: new Date(Date.now() - 86_400_000),
    });
    expect(await sendReviewNotices()).toBeGreaterThan(0);
    const notice = readOutbox(owner.email).at(-1)!;
    expect(notice.subject).toMatch(/for your review/);
    expect(notice.replyTo).toMatch(/^reply\+[0-9a-f]{52}@in\.brandlift\.test$/);
    const raw = await compose({ from: owner.email, to: notice.replyTo, messageId: "<review-reply@mail.example.com>", text: "Can the second line be shorter?" });
    expect((await deliver(raw)).status).toBe(202);
    expect(await messagesIn(supportRoomId(owner.id))).toEqual([{ text: "Can the second line be shorter?", type: "text", senderId: owner.id }]);
  });

  test("the quoted part is cut at the usual client markers", () => {
    expect(replyText("Sounds good\n\n> earlier text")).toBe("Sounds good");
    expect(replyText("Approved.\r\n\r\nOn Tue, Mar 3, 2026 at 9:12 AM Sam <sam@brandlift.test>\r\nwrote:\r\n> hi")).toBe("Approved.");
    expect(replyText("Ok\n\n-----Original Message-----\nFrom: Sam")).toBe("Ok");
    expect(replyText("Ok by me\n\nSent from my iPhone")).toBe("Ok by me");
    expect(replyText("Merci\n\nLe lun. 2 mars 2026 à 10:00, Sam a écrit :\n> salut")).toBe("Merci");
  });
});
