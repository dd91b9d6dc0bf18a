import { and, asc, count, desc, eq, gt, inArray, isNull, sql, type AnyColumn, type SQL } from "drizzle-orm";

import {
  CLIENT_ROLE_LABELS,
  MAX_CLIENT_MEMBERS,
  rolesCovering,
  type ClientCapability,
  type ClientMember,
  type ClientRef,
  type ClientRole,
  type MemberJson,
} from "~/domain/clients";
import { isUuid, withWireId } from "~/domain/ids";
import { ownerKey, type Actor } from "~/domain/permissions";
import { db, schema, type Tx } from "~/utils/db.server";
import { sendEmail, sendStoredEmails } from "~/utils/email.server";
import { HttpError } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";
import { revokeSocketsOfUser } from "~/utils/socket-revocation.server";

import { recordAudit } from "./audit.server";
import { issuePasswordToken, passwordLink } from "./password-tokens.server";
import { revokeAllSessions } from "./sessions.server";
import { createUser, findUserByEmail, startClientOfOne } from "./users.server";

/*
 * Client teams (decision 283): a client and its members. The client's id is the id of
 * the account it started from, so a customer's belongings are the client's without a copy. Removing
 * a member keeps their account (what they wrote keeps its name) but turns it off and ends its
 * sessions, tokens and sockets on every node.
 */

const m = schema.clientMembers;
const u = schema.users;
const c = schema.clients;

export const CLIENT_MESSAGES = {
  notFound: "Client not found.",
  memberNotFound: "Member not found.",
  elsewhere: "This e-mail address already belongs to another client or to the BrandLift team.",
  alreadyMember: "This person is already a member of your client.",
  lastOwner: "A client needs an owner: make someone else an owner first.",
  full: `A client can have at most ${MAX_CLIENT_MEMBERS} members: remove someone before inviting another.`,
  notOwner: "Only an owner of the client can do this.",
} as const;

const memberColumns = {
  id: u.id,
  name: u.name,
  email: u.email,
  role: m.role,
  joinedAt: m.joinedAt,
  invitedAt: m.invitedAt,
};
type MemberRow = { id: string; name: string; email: string; role: ClientRole; joinedAt: Date | null };

export function toClientMember(row: MemberRow): ClientMember {
  return { id: row.id, name: row.name, email: row.email, role: row.role, joinedAt: row.joinedAt?.toISOString() ?? null };
}

/** The API's edge: a member with its id as `_id` (docs/api.md). */
export function toMemberJson(member: ClientMember): MemberJson {
  return withWireId(member);
}

/** The API's edge of getOwnClient: the client and its members by `_id`. */
export function toOwnClientJson(own: Awaited<ReturnType<typeof getOwnClient>>) {
  return { client: { _id: own.client.id, name: own.client.name }, role: own.role, members: own.members.map(toMemberJson) };
}

/** The API's edge of getClientForStaff. */
export function toStaffClientJson({ client }: Awaited<ReturnType<typeof getClientForStaff>>) {
  return { client: { _id: client.id, name: client.name, members: client.members.map(toMemberJson), createdAt: client.createdAt } };
}

const activeMember = (clientId: string | SQL) => and(eq(m.clientId, clientId as string), isNull(m.removedAt));

/** The members of a client (owners first, then by when they joined), without those removed. */
export async function clientMembers(clientId: string): Promise<MemberRow[]> {
  return selectClientMembers(clientId);
}

/** clientMembers as a select not yet run (a page reads it with others: readTogether). */
export function selectClientMembers(clientId: string) {
  return db
    .select(memberColumns)
    .from(m)
    .innerJoin(u, eq(u.id, m.userId))
    .where(activeMember(clientId))
    .orderBy(sql`case ${m.role} when 'owner' then 0 when 'approver' then 1 when 'member' then 2 else 3 end`, asc(m.invitedAt), asc(u.id));
}

/**
 * The client of a customer, made on first read when a node that predates client teams created the
 * account (the client of one is then named after the account).
 */
async function clientRow(clientId: string): Promise<{ id: string; name: string; createdAt: Date } | null> {
  const [row] = await selectClient(clientId);
  if (row) return row;
  const [owner] = await db.select({ id: u.id, name: u.name, role: u.role, createdAt: u.createdAt }).from(u).where(eq(u.id, clientId)).limit(1);
  if (!owner || owner.role !== "user") return null;
  await db.transaction(async (tx) => startClientOfOne(tx, owner));
  return { id: owner.id, name: owner.name, createdAt: owner.createdAt };
}

/** A client's row as stored (none yet for an account a node that predates client teams created: clientRow makes it), as a select not yet run. */
export function selectClient(clientId: string) {
  return db.select().from(c).where(eq(c.id, clientId)).limit(1);
}

/** The signed-in customer's client, their role and its members (`GET /api/client`). */
export async function getOwnClient(actor: Actor) {
  const clientId = ownerKey(actor);
  const row = await clientRow(clientId);
  if (!row) throw new HttpError(404, CLIENT_MESSAGES.notFound, "NOT_FOUND");
  const members = await clientMembers(clientId);
  return { client: { id: row.id, name: row.name }, role: actor.clientRole ?? "owner", members: members.map(toClientMember) };
}

function requireOwner(actor: Actor) {
  if (actor.role !== "user" || (actor.clientRole ?? "owner") !== "owner") throw new HttpError(403, CLIENT_MESSAGES.notOwner, "FORBIDDEN");
}

export async function renameClient(actor: Actor, name: string): Promise<ClientRef> {
  requireOwner(actor);
  const clientId = ownerKey(actor);
  if (!(await clientRow(clientId))) throw new HttpError(404, CLIENT_MESSAGES.notFound, "NOT_FOUND");
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ name: c.name }).from(c).where(eq(c.id, clientId)).for("update");
    await tx.update(c).set({ name }).where(eq(c.id, clientId));
    await recordAudit({ actor, action: "client.rename", target: { kind: "client", id: clientId, label: name }, detail: `From "${before?.name ?? ""}"` }, tx);
    return { _id: clientId, name };
  });
}

/**
 * Adds a member: a new account without a password (or a removed member's account, taken back) and
 * an e-mail whose link (7 days, once) sets a password; they may also sign in by magic link. An
 * address of another client's member or of staff is refused (409), as is a 51st member.
 */
export async function inviteMember(actor: Actor & { name?: string }, input: { email: string; name: string; role: ClientRole }) {
  requireOwner(actor);
  const clientId = ownerKey(actor);
  const client = await clientRow(clientId);
  if (!client) throw new HttpError(404, CLIENT_MESSAGES.notFound, "NOT_FOUND");
  const existing = await findUserByEmail(input.email);
  let membership: { clientId: string; removedAt: Date | null } | undefined;
  if (existing) {
    [membership] = await db.select({ clientId: m.clientId, removedAt: m.removedAt }).from(m).where(eq(m.userId, existing.id)).limit(1);
    if (existing.role !== "user") throw new HttpError(409, CLIENT_MESSAGES.elsewhere, "CONFLICT");
    const removed = membership?.removedAt != null;
    if (!removed && membership?.clientId === clientId) throw new HttpError(409, CLIENT_MESSAGES.alreadyMember, "CONFLICT");
    // An account of its own (a client of one, even with nothing bought) or of another client stays there.
    if (!removed) throw new HttpError(409, CLIENT_MESSAGES.elsewhere, "CONFLICT");
  }
  const { member, token, jobId } = await db.transaction(async (tx) => {
    // One invitation at a time per client: the count and the insert see the same members.
    await tx.select({ id: c.id }).from(c).where(eq(c.id, clientId)).for("update");
    const [{ total } = { total: 0 }] = await tx.select({ total: count() }).from(m).where(activeMember(clientId));
    if (total >= MAX_CLIENT_MEMBERS) throw new HttpError(409, CLIENT_MESSAGES.full, "CONFLICT");
    const now = new Date();
    let user = existing;
    if (user) {
      [user] = await tx.update(u).set({ name: input.name, disabledAt: null, updatedAt: now }).where(eq(u.id, user.id)).returning();
      await tx
        .update(m)
        .set({ clientId, role: input.role, invitedBy: actor.id, invitedAt: now, joinedAt: null, removedAt: null })
        .where(eq(m.userId, user!.id));
    } else {
      user = await createUser({ email: input.email, name: input.name, role: "user" }, tx, clientId).catch((error: unknown) => {
        throw isUniqueViolation(error) ? new HttpError(409, CLIENT_MESSAGES.elsewhere, "CONFLICT") : error;
      });
      await tx.insert(m).values({ userId: user.id, clientId, role: input.role, invitedBy: actor.id, invitedAt: now });
    }
    await recordAudit(
      {
        actor,
        action: "client.invite",
        target: { kind: "client", id: clientId, label: client.name },
        detail: `Invited ${input.name} <${user!.email}> as ${CLIENT_ROLE_LABELS[input.role]}`,
      },
      tx,
    );
    const issued = await issuePasswordToken(user!.id, "set", tx);
    const { jobId } = await sendEmail(
      invitationEmail({ inviter: actor.name ?? "A colleague", client: client.name, to: user!, role: input.role, token: issued }),
      { tx, userId: user!.id },
    );
    return { member: { id: user!.id, name: user!.name, email: user!.email, role: input.role, joinedAt: null }, token: issued, jobId };
  });
  // Stored with the membership; sent now that both exist (and retried by its job if the mail server is down).
  await sendStoredEmails([jobId]);
  logger.info({ clientId, userId: member.id, invitedBy: actor.id }, "client member invited");
  return { member: toClientMember(member), link: passwordLink(token) };
}

function isUniqueViolation(error: unknown) {
  const code = (error as { code?: string; cause?: { code?: string } }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  return code === "23505";
}

function invitationEmail(input: { inviter: string; client: string; to: { email: string; name: string }; role: ClientRole; token: string }) {
  return {
    to: input.to.email,
    subject: `${input.inviter} invited you to ${input.client} on BrandLift`,
    heading: `Join ${input.client} on BrandLift`,
    paragraphs: [
      `Hi ${input.to.name},`,
      `${input.inviter} has added you to ${input.client}'s BrandLift dashboard as ${CLIENT_ROLE_LABELS[input.role].toLowerCase()}.`,
      "Choose your password to sign in. The link works once and expires in 7 days; you can also sign in with a link by e-mail from the sign-in page.",
    ],
    action: { label: "Set your password", url: passwordLink(input.token) },
  };
}

/** The member of the actor's client with this user id, locked with every owner row of the client. */
async function lockMembers(tx: Tx, clientId: string) {
  return tx.select({ userId: m.userId, role: m.role }).from(m).where(activeMember(clientId)).orderBy(asc(m.userId)).for("update");
}

export async function changeMemberRole(actor: Actor, userId: string, role: ClientRole) {
  requireOwner(actor);
  const clientId = ownerKey(actor);
  if (!isUuid(userId)) throw new HttpError(404, CLIENT_MESSAGES.memberNotFound, "NOT_FOUND");
  const changed = await db.transaction(async (tx) => {
    const members = await lockMembers(tx, clientId);
    const target = members.find((row) => row.userId === userId);
    if (!target) throw new HttpError(404, CLIENT_MESSAGES.memberNotFound, "NOT_FOUND");
    if (target.role === "owner" && role !== "owner" && members.filter((row) => row.role === "owner").length === 1) {
      throw new HttpError(409, CLIENT_MESSAGES.lastOwner, "CONFLICT");
    }
    await tx.update(m).set({ role }).where(eq(m.userId, userId));
    const [row] = await tx.select(memberColumns).from(m).innerJoin(u, eq(u.id, m.userId)).where(eq(m.userId, userId));
    if (target.role !== role) {
      await recordAudit(
        {
          actor,
          action: "client.role",
          target: { kind: "client", id: clientId, label: row!.name },
          detail: `${row!.name}: ${CLIENT_ROLE_LABELS[target.role]} → ${CLIENT_ROLE_LABELS[role]}`,
        },
        tx,
      );
    }
    return { row: row!, previous: target.role };
  });
  // Sockets hold the rooms their role let them join: a change ends them (sessions stay), and they reconnect with the new role.
  if (changed.previous !== role) revokeSocketsOfUser(userId);
  return toClientMember(changed.row);
}

/**
 * Removes a member (an owner) or leaves (a member themselves). The last owner cannot go. The
 * account stays for what it wrote, off, with every session, token and socket ended on every node.
 */
export async function removeMember(actor: Actor, userId: string) {
  const clientId = ownerKey(actor);
  const self = userId === actor.id;
  if (!self) requireOwner(actor);
  if (!isUuid(userId)) throw new HttpError(404, CLIENT_MESSAGES.memberNotFound, "NOT_FOUND");
  await db.transaction(async (tx) => {
    const members = await lockMembers(tx, clientId);
    const target = members.find((row) => row.userId === userId);
    if (!target) throw new HttpError(404, CLIENT_MESSAGES.memberNotFound, "NOT_FOUND");
    if (target.role === "owner" && members.filter((row) => row.role === "owner").length === 1) {
      throw new HttpError(409, CLIENT_MESSAGES.lastOwner, "CONFLICT");
    }
    const now = new Date();
    await tx.update(m).set({ removedAt: now }).where(eq(m.userId, userId));
    const [user] = await tx.update(u).set({ disabledAt: now, updatedAt: now }).where(eq(u.id, userId)).returning({ name: u.name, email: u.email });
    await tx
      .update(schema.passwordTokens)
      .set({ usedAt: now })
      .where(and(eq(schema.passwordTokens.userId, userId), isNull(schema.passwordTokens.usedAt)));
    await tx.delete(schema.magicLinks).where(eq(schema.magicLinks.userId, userId));
    await recordAudit(
      {
        actor,
        action: self ? "client.leave" : "client.remove",
        target: { kind: "client", id: clientId, label: user?.name ?? "" },
        detail: self ? `${user?.name} left the client` : `Removed ${user?.name} <${user?.email}>`,
      },
      tx,
    );
  });
  await revokeAllSessions(userId);
  logger.info({ clientId, userId, by: actor.id }, self ? "client member left" : "client member removed");
}

/** The members of a client whose role covers a capability (who an e-mail or notice about it reaches), once each. */
export async function membersWho(clientId: string, capability: ClientCapability): Promise<{ id: string; name: string; email: string; role: ClientRole }[]> {
  return db
    .select({ id: u.id, name: u.name, email: u.email, role: m.role })
    .from(m)
    .innerJoin(u, eq(u.id, m.userId))
    .where(and(activeMember(clientId), inArray(m.role, rolesCovering(capability)), isNull(u.disabledAt)))
    .orderBy(asc(m.invitedAt), asc(u.id));
}

/**
 * The client of a customer account, to join into a query that reads the account (decision 283):
 * `.leftJoin(...of.membership).leftJoin(...of.client)`, then `of.id` and `of.name(accountName)` in
 * its columns. An account without a member row (a client of one not moved yet) is its own client,
 * named after it. A removed member is again their own client, unless `formerToo`: then their id
 * still names the client they wrote for (its thread keeps what they wrote).
 */
export function clientOfAccount(accountId: AnyColumn, { formerToo = false } = {}) {
  return {
    membership: [m, and(eq(m.userId, accountId), formerToo ? undefined : isNull(m.removedAt))] as const,
    client: [c, eq(c.id, m.clientId)] as const,
    id: sql<string>`coalesce(${m.clientId}, ${accountId})`,
    name: (accountName: AnyColumn) => sql<string>`coalesce(${c.name}, ${accountName})`,
    /** The member's role; null for an account without a member row (its client's owner). */
    role: m.role,
  };
}

/** The client a customer account belongs to (a client of one when it has no member row), or null for staff and unknown ids. */
export async function clientIdOf(userId: string): Promise<string | null> {
  if (!isUuid(userId)) return null;
  return clientIdIn(await selectClientIdOf(userId));
}

/** clientIdOf as a select not yet run (a page reads it with others: readTogether); its rows give the id through clientIdIn. */
export function selectClientIdOf(userId: string) {
  const client = clientOfAccount(u.id, { formerToo: true });
  return db
    .select({ role: u.role, clientId: client.id })
    .from(u)
    .leftJoin(...client.membership)
    .where(eq(u.id, userId))
    .limit(1);
}

/** The client's id of selectClientIdOf's rows: null for staff and unknown ids. */
export function clientIdIn([row]: Array<{ role: string; clientId: string }>): string | null {
  return row && row.role === "user" ? row.clientId : null;
}

/** Each client's `{ id, name }` for lists that name their customers' clients, in one query (decision 309: an API's edge writes `_id`). */
export async function clientRefs(clientIds: readonly string[]): Promise<Map<string, { id: string; name: string }>> {
  const ids = [...new Set(clientIds.filter(isUuid))];
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: c.id, name: c.name }).from(c).where(inArray(c.id, ids));
  return new Map(rows.map((row) => [row.id, row]));
}

/** Staff's list of clients with their members: one query for the page, one for its members. */
export async function listClients(query: { search?: string; page: number; limit: number }) {
  const words = (query.search ?? "").trim();
  const where = words
    ? sql`(${c.name} ilike ${"%" + words + "%"} or exists (select 1 from ${m} join ${u} on ${u.id} = ${m.userId} where ${m.clientId} = ${c.id} and ${m.removedAt} is null and (${u.name} ilike ${"%" + words + "%"} or ${u.email} ilike ${"%" + words + "%"})))`
    : undefined;
  const [rows, [{ total } = { total: 0 }]] = await Promise.all([
    db
      .select()
      .from(c)
      .where(where)
      .orderBy(desc(c.createdAt), desc(c.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ total: count() }).from(c).where(where),
  ]);
  const members = await membersOf(rows.map((row) => row.id));
  return {
    clients: rows.map((row) => ({
      _id: row.id,
      name: row.name,
      members: (members.get(row.id) ?? []).map((member) => toMemberJson(toClientMember(member))),
      createdAt: row.createdAt.toISOString(),
    })),
    total,
  };
}

/** The members of several clients in one query. */
export async function membersOf(clientIds: readonly string[]): Promise<Map<string, MemberRow[]>> {
  const byClient = new Map<string, MemberRow[]>();
  if (clientIds.length === 0) return byClient;
  const rows = await db
    .select({ ...memberColumns, clientId: m.clientId })
    .from(m)
    .innerJoin(u, eq(u.id, m.userId))
    .where(and(inArray(m.clientId, [...clientIds]), isNull(m.removedAt)))
    .orderBy(asc(m.invitedAt), asc(u.id));
  for (const row of rows) byClient.set(row.clientId, [...(byClient.get(row.clientId) ?? []), row]);
  return byClient;
}

/** One client for staff, by its id or any member's id (`clientIdOfId`: `clientIdOf(id)`, when the caller has just read it). */
export async function getClientForStaff(id: string, clientIdOfId?: string | null) {
  const clientId = clientIdOfId === undefined ? await clientIdOf(id) : clientIdOfId;
  const row = clientId ? await clientRow(clientId) : null;
  if (!row) throw new HttpError(404, CLIENT_MESSAGES.notFound, "NOT_FOUND");
  const members = await clientMembers(row.id);
  return { client: { id: row.id, name: row.name, members: members.map(toClientMember), createdAt: row.createdAt.toISOString() } };
}

/**
 * Every customer account without a member row becomes the owner of a client of one, named after
 * them, with the account's id (decision 283): in batches, each its own short transaction, so the
 * accounts table is never locked for long on a live database; sessions of accounts not reached yet
 * already read as the owner of a client of one. Safe to run on several nodes at once. Answers how
 * many accounts it moved.
 */
export async function backfillClientsOfOne(batchSize = 2000): Promise<number> {
  let moved = 0;
  let after = "00000000-0000-0000-0000-000000000000";
  for (;;) {
    const done = await db.transaction(async (tx) => {
      // Walks the accounts by id once: each batch starts where the last one ended.
      const batch = await tx
        .select({ id: u.id, name: u.name, createdAt: u.createdAt })
        .from(u)
        .where(and(gt(u.id, after), eq(u.role, "user"), sql`not exists (select 1 from ${m} where ${m.userId} = ${u.id})`))
        .orderBy(asc(u.id))
        .limit(batchSize);
      if (batch.length === 0) return 0;
      after = batch.at(-1)!.id;
      await tx
        .insert(c)
        .values(batch.map((row) => ({ id: row.id, name: row.name, createdAt: row.createdAt })))
        .onConflictDoNothing();
      await tx
        .insert(m)
        .values(batch.map((row) => ({ userId: row.id, clientId: row.id, role: "owner" as const, invitedAt: row.createdAt, joinedAt: row.createdAt })))
        .onConflictDoNothing();
      return batch.length;
    });
    moved += done;
    if (done < batchSize) return moved;
  }
}
