import crypto from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";

import { visitorRoomId } from "~/domain/inbox";
import { db, schema } from "~/utils/db.server";
import { sendEmail } from "~/utils/email.server";
import { env } from "~/utils/env.server";
import { notFound } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";

import { storeMessage } from "./chat-send.server";
import { teamRecipients } from "./order-emails.server";

export interface ContactMessageInput {
  firstName?: string;
  lastName?: string;
  email: string;
  message: string;
}

/** Stores the message first (it is never lost), then tells the team; a mail failure is only logged. */
export async function createContactMessage(input: ContactMessageInput) {
  const [saved] = await db
    .insert(schema.contactMessages)
    .values({
      firstName: input.firstName || null,
      lastName: input.lastName || null,
      email: input.email,
      message: input.message || null,
    })
    .returning();
  const name = [input.firstName, input.lastName].filter(Boolean).join(" ") || "Someone";
  // The support inbox shows it as a thread staff can answer (docs/decisions/096-visitor-threads.md).
  await recordContactMessage({ email: input.email, name: name === "Someone" ? null : name, message: input.message ?? null }).catch((error: unknown) =>
    logger.error({ err: error, contactMessageId: saved.id }, "the contact message did not reach the inbox"),
  );
  try {
    const recipients = await teamRecipients();
    if (recipients.length > 0) {
      await sendEmail({
        to: recipients,
        // Answering the e-mail answers the visitor.
        replyTo: name === "Someone" ? input.email : { name, address: input.email },
        subject: `New contact message from ${name}`,
        heading: "A visitor sent a message from the website",
        paragraphs: [
          `From: ${name} <${input.email}>`,
          input.message ? `Message: ${input.message}` : "(No message, they asked to be contacted.)",
          "Reply to them within one business day, as the website promises.",
        ],
      });
    }
  } catch (error) {
    logger.error({ err: error, contactMessageId: saved.id }, "e-mailing the contact message failed");
  }
  return saved;
}

/* Visitors: the contact form's messages and staff answers to them (docs/decisions/096-visitor-threads.md). */

const t = schema.chatThreads;

const CHUNK = 2000;

/** A long contact message becomes several chat messages (a chat message holds at most 2,000 characters). */
function chunks(text: string): string[] {
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += CHUNK) parts.push(text.slice(i, i + CHUNK));
  return parts;
}

/**
 * A contact-form message: always a visitor's message in the visitor thread of the address it
 * claims (created on the first message), never the message of the account that may use that
 * address: anyone can type any address (docs/decisions/125-contact-form-stays-a-visitor.md).
 */
export async function recordContactMessage(input: { email: string; name: string | null; message: string | null }) {
  const email = input.email.trim().toLowerCase();
  const text = input.message?.trim() || "(No message, they asked to be contacted.)";
  const id = crypto.randomUUID();
  const [thread] = await db
    .insert(t)
    .values({
      id,
      roomId: visitorRoomId(id),
      visitorEmail: email,
      visitorName: input.name,
      searchDocument: sql`strip(to_tsvector('simple', ${`${input.name ?? ""} ${email}`}))`,
    })
    .onConflictDoUpdate({
      target: t.visitorEmail,
      targetWhere: sql`${t.customerId} is null`,
      set: { visitorName: sql`coalesce(excluded.visitor_name, ${t.visitorName})`, searchDocument: sql`${t.searchDocument} || excluded.search_document` },
    })
    .returning({ roomId: t.roomId });
  for (const part of chunks(text)) {
    await storeMessage({ roomId: thread!.roomId, sender: null, receiverId: null, customerId: null, message: part });
  }
  return { roomId: thread!.roomId };
}

/**
 * Staff answer a visitor from the inbox: stored in the visitor's thread, then e-mailed to them
 * (the visitor has no account to read it in). Returns the message; a failed e-mail throws after it is stored.
 */
export async function replyToVisitor(threadId: string, staff: { id: string; name: string; email: string; profileImage: string | null }, text: string) {
  const [thread] = await db
    .select({ roomId: t.roomId, email: t.visitorEmail, name: t.visitorName })
    .from(t)
    .where(and(eq(t.id, threadId), isNull(t.customerId)))
    .limit(1);
  if (!thread?.email) throw notFound("Conversation not found.");
  const message = await storeMessage({
    roomId: thread.roomId,
    sender: { _id: staff.id, name: staff.name, profileImage: staff.profileImage },
    receiverId: null,
    customerId: null,
    message: text,
  });
  await sendEmail({
    to: thread.email,
    // Answering the e-mail reaches the team (TEAM_INBOX) or the colleague who wrote, never MAIL_FROM.
    replyTo: env.teamInbox?.length ? env.teamInbox : { name: `${staff.name} (BrandLift)`, address: staff.email },
    subject: "A reply from BrandLift to your message",
    heading: thread.name ? `Hi ${thread.name},` : "Hello,",
    paragraphs: [
      `${staff.name} from the BrandLift team answered your message:`,
      text,
      "Reply to this e-mail, or write to us again through our website's contact form, to continue the conversation.",
    ],
    action: { label: "Visit BrandLift", url: env.appUrl },
  });
  return message;
}
