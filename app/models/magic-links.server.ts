import { and, eq, gt, isNull, sql } from "drizzle-orm";

import { findUserByEmail, getUserById, type User } from "~/models/users.server";
import { db, schema } from "~/utils/db.server";
import { sendEmail } from "~/utils/email.server";
import { env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import { hashToken, randomToken } from "~/utils/tokens.server";

/*
 * Magic sign-in links: a 256-bit secret stored hashed, good once, for 15 minutes; a newer link
 * replaces the older ones. Opening the link shows a button (a mail scanner fetching the page does
 * not spend it); the POST spends it, and an account with two-factor on is then asked for its code.
 */

export const MAGIC_LINK_TTL_MS = 15 * 60 * 1000;
export const MAGIC_LINK_MESSAGES = {
  sent: "If an account exists for that e-mail, a sign-in link is on its way. It works once, within 15 minutes.",
  invalid: "This sign-in link is not valid any more: it was used, replaced by a newer one or is over 15 minutes old. Please ask for a new one.",
} as const;

export const magicLinkUrl = (token: string) => `${env.appUrl}/login/magic?${new URLSearchParams({ token })}`;

/** E-mails a sign-in link when the account exists and is not disabled (run after the answer: the same either way). */
export async function requestMagicLink(email: string) {
  const user = await findUserByEmail(email);
  if (!user || user.disabledAt) return;
  const token = randomToken();
  const now = new Date();
  await db.transaction(async (tx) => {
    await tx
      .update(schema.magicLinks)
      .set({ usedAt: now })
      .where(and(eq(schema.magicLinks.userId, user.id), isNull(schema.magicLinks.usedAt)));
    await tx
      .insert(schema.magicLinks)
      .values({ tokenHash: hashToken(token), userId: user.id, expiresAt: new Date(now.getTime() + MAGIC_LINK_TTL_MS), createdAt: now });
  });
  try {
    await sendEmail({
      to: user.email,
      category: "security",
      subject: "Your BrandLift sign-in link",
      heading: "Sign in to BrandLift",
      paragraphs: [
        `Hi ${user.name},`,
        "Use the button below to sign in. The link works once and expires in 15 minutes.",
        "If you did not ask for it, you can ignore this e-mail: nobody can sign in without opening it.",
      ],
      action: { label: "Sign in", url: magicLinkUrl(token) },
    });
  } catch (error) {
    logger.error({ err: error }, "could not send the sign-in link");
  }
}

/** Spends a link (one conditional update): its account, or null when unknown, used, replaced or expired. */
export async function consumeMagicLink(token: string): Promise<User | null> {
  const [row] = await db
    .update(schema.magicLinks)
    .set({ usedAt: new Date() })
    .where(and(eq(schema.magicLinks.tokenHash, hashToken(token)), isNull(schema.magicLinks.usedAt), gt(schema.magicLinks.expiresAt, sql`now()`)))
    .returning({ userId: schema.magicLinks.userId });
  if (!row) return null;
  const user = await getUserById(row.userId);
  return user && !user.disabledAt ? user : null;
}
