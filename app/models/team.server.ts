import { and, asc, eq, inArray, isNull } from "drizzle-orm";

import { isUuid } from "~/domain/ids";
import { deletedEmail } from "~/domain/own-data";
import { db, schema } from "~/utils/db.server";
import { sendEmail } from "~/utils/email.server";
import { HttpError } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";

import { recordAudit } from "./audit.server";
import { issuePasswordToken, passwordLink } from "./password-tokens.server";
import { revokeAllSessions } from "./sessions.server";
import { createUser, findUserByEmail, type User } from "./users.server";

/*
 * The staff (decision 094): list, invite by e-mail with a set-password link, disable and re-enable.
 * Disabling ends every session, API token and socket of the account at once and spends its
 * unused password links; a disabled account cannot sign in (verifyLogin) nor use a session it
 * still holds (getSessionUser). docs/decisions/094.
 */

export type AccountState = "active" | "invited" | "disabled";

export interface StaffMember {
  id: string;
  name: string;
  email: string;
  role: User["role"];
  createdAt: Date;
  disabledAt: Date | null;
  state: AccountState;
}

export const stateOf = (user: Pick<User, "disabledAt" | "passwordHash">): AccountState =>
  user.disabledAt ? "disabled" : user.passwordHash ? "active" : "invited";

function toMember(user: User): StaffMember {
  return { id: user.id, name: user.name, email: user.email, role: user.role, createdAt: user.createdAt, disabledAt: user.disabledAt, state: stateOf(user) };
}

export function toMemberJson(member: StaffMember) {
  return {
    _id: member.id,
    id: member.id,
    name: member.name,
    email: member.email,
    role: member.role,
    createdAt: member.createdAt.toISOString(),
    disabledAt: member.disabledAt?.toISOString() ?? null,
    state: member.state,
  };
}

export async function listStaff(): Promise<StaffMember[]> {
  const rows = await db.select().from(schema.users).where(eq(schema.users.role, "team")).orderBy(asc(schema.users.createdAt), asc(schema.users.id));
  return rows.map(toMember);
}

export const INVITE_MESSAGES = {
  exists: "An account with this e-mail address already exists.",
  notInvited: "This colleague has already set a password or is disabled: there is no invitation to send again.",
};

/** A fresh link for a colleague invited but not signed in yet (the last one expired or got lost). */
export async function resendInvitation(inviter: { id: string; name: string }, userId: string): Promise<StaffMember> {
  const [user] = isUuid(userId) ? await db.select().from(schema.users).where(eq(schema.users.id, userId)).limit(1) : [];
  if (!user || user.role !== "team") throw new HttpError(404, "User not found.", "NOT_FOUND");
  if (stateOf(user) !== "invited") throw new HttpError(409, INVITE_MESSAGES.notInvited, "CONFLICT");
  return (await inviteStaff(inviter, { email: user.email, name: user.name })).member;
}

/**
 * A new staff account without a password, and an e-mail with a one-hour set-password link.
 * Inviting someone already invited (no password yet) sends them a fresh link.
 */
export async function inviteStaff(
  inviter: { id: string; name: string },
  input: { email: string; name: string },
): Promise<{ member: StaffMember; link: string; created: boolean }> {
  const existing = await findUserByEmail(input.email);
  if (existing && !(existing.role === "team" && !existing.passwordHash && !existing.disabledAt)) {
    throw new HttpError(409, INVITE_MESSAGES.exists, "CONFLICT");
  }
  const user =
    existing ??
    (await createUser({ email: input.email, name: input.name, role: "team" }).catch(async (error: unknown) => {
      // Two invitations at once: the unique index on lower(email) lets one through.
      if (await findUserByEmail(input.email)) throw new HttpError(409, INVITE_MESSAGES.exists, "CONFLICT");
      throw error;
    }));
  await recordAudit({
    actor: inviter,
    action: existing ? "team.invite_resend" : "team.invite",
    target: { kind: "user", id: user.id, label: `${user.name} (${user.email})` },
    detail: existing ? "A fresh set-password link" : "Staff account created; set-password link sent",
  });
  const token = await issuePasswordToken(user.id, "set");
  const link = passwordLink(token);
  try {
    await sendEmail({
      to: user.email,
      subject: `${inviter.name} invited you to the BrandLift team`,
      heading: "Join the BrandLift team",
      paragraphs: [
        `Hi ${user.name},`,
        `${inviter.name} has added you to the BrandLift team dashboard, where staff see orders, customers, reports and messages.`,
        "Choose your password to sign in. The link works once and expires in one hour; when it has expired, use 'Forgot your password?' on the sign-in page.",
      ],
      action: { label: "Set your password", url: link },
    });
  } catch (error) {
    logger.error({ err: error, userId: user.id }, "sending the staff invitation failed");
  }
  logger.info({ userId: user.id, invitedBy: inviter.id }, existing ? "staff invitation sent again" : "staff member invited");
  return { member: toMember(user), link, created: !existing };
}

export const DISABLE_MESSAGES = {
  self: "You cannot disable your own account.",
  actorInactive: "Your account is disabled, so you cannot change other accounts.",
  deleted: "This account was deleted at its owner's request: it cannot be enabled again.",
  removed: "This person was removed from their company's account: an owner of that company can invite them again.",
};

/**
 * Disables (or re-enables) an account. Staff cannot disable themselves. The actor's row and the
 * target's are locked together (in id order, so two staff acting on each other wait instead of
 * deadlocking) and the actor must still be active staff when its transaction holds them: of two
 * staff disabling each other at once, the second finds itself disabled and is refused (403). So
 * an actor that disables someone is itself active staff until the commit: the team never loses
 * its last active staff account, however many staff act at once. docs/decisions/131.
 */
export async function setAccountDisabled(actorId: string, userId: string, disabled: boolean): Promise<StaffMember> {
  if (!isUuid(userId)) throw new HttpError(404, "User not found.", "NOT_FOUND");
  if (disabled && actorId === userId) throw new HttpError(400, DISABLE_MESSAGES.self, "INVALID_INPUT");
  const now = new Date();
  const user = await db.transaction(async (tx) => {
    const locked = await tx
      .select()
      .from(schema.users)
      .where(inArray(schema.users.id, [actorId, userId]))
      .orderBy(asc(schema.users.id))
      .for("update");
    const actor = locked.find((row) => row.id === actorId);
    if (!actor || actor.role !== "team" || actor.disabledAt) throw new HttpError(403, DISABLE_MESSAGES.actorInactive, "FORBIDDEN");
    const current = locked.find((row) => row.id === userId);
    if (!current) return null;
    // A deleted customer's row stays for the books, nameless and without a way to sign in: it stays off.
    if (!disabled && current.email === deletedEmail(current.id)) throw new HttpError(409, DISABLE_MESSAGES.deleted, "CONFLICT");
    // A member removed from their client comes back only by a new invitation from an owner (decision 283).
    if (!disabled && current.role === "user") {
      const [membership] = await tx
        .select({ removedAt: schema.clientMembers.removedAt })
        .from(schema.clientMembers)
        .where(eq(schema.clientMembers.userId, userId))
        .limit(1);
      if (membership?.removedAt) throw new HttpError(409, DISABLE_MESSAGES.removed, "CONFLICT");
    }
    const [updated] = await tx
      .update(schema.users)
      .set({ disabledAt: disabled ? (current.disabledAt ?? now) : null, updatedAt: now })
      .where(eq(schema.users.id, userId))
      .returning();
    if (disabled) {
      await tx
        .update(schema.passwordTokens)
        .set({ usedAt: now })
        .where(and(eq(schema.passwordTokens.userId, userId), isNull(schema.passwordTokens.usedAt)));
    }
    if (!current.disabledAt !== !disabled) {
      await recordAudit(
        {
          actor: { id: actorId },
          action: disabled ? "account.disable" : "account.enable",
          target: { kind: "user", id: userId, label: `${current.name} (${current.email})` },
          detail: `${current.role === "team" ? "Staff" : "Customer"} account ${disabled ? "disabled: sessions, tokens and sockets ended" : "enabled"}`,
        },
        tx,
      );
    }
    return updated;
  });
  if (!user) throw new HttpError(404, "User not found.", "NOT_FOUND");
  // After the commit: sessions, tokens and (through the revocation hook) sockets on every node.
  if (disabled) await revokeAllSessions(userId);
  logger.info({ userId, by: actorId, disabled }, disabled ? "account disabled" : "account enabled");
  return toMember(user);
}
