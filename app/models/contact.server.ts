import { db, schema } from "~/utils/db.server";
import { sendEmail } from "~/utils/email.server";
import { logger } from "~/utils/logger.server";

import { recordContactMessage } from "./inbox.server";
import { teamRecipients } from "./order-emails.server";

export interface ContactMessageInput {
  firstName?: string;
  lastName?: string;
  email: string;
  message?: string;
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
