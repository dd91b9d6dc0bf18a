import { and, eq, gt, inArray, isNull, ne, sql } from "drizzle-orm";

import type { ClientRole } from "~/domain/clients";
import type { Role } from "~/domain/status";
import { db, schema } from "~/utils/db.server";
import { revokeSocketsOfSession, revokeSocketsOfUser } from "~/utils/socket-revocation.server";
import { hashToken, randomToken } from "~/utils/tokens.server";

export type SessionKind = "cookie" | "bearer";

export const SESSION_TTL_MS = { cookie: 30 * 24 * 3600_000, bearer: 30 * 24 * 3600_000 } as const;

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  role: Role;
  profileImage: string | null;
  createdAt: Date;
  /** A customer's client (its id; a client of one has the account's own id); null for staff. */
  clientId: string | null;
  /** The customer's role in their client; null for staff. */
  clientRole: ClientRole | null;
  /** When the account first opened its overview (the welcome was shown then); null until it does. */
  welcomedAt: Date | null;
}

export async function createSession(userId: string, kind: SessionKind) {
  const [session] = await createSessions(userId, kind, 1);
  return session!;
}

/** `count` new sessions of one account in one insert, each with its own secret (only its hash is kept). */
export async function createSessions(userId: string, kind: SessionKind, count: number): Promise<{ token: string; expiresAt: Date }[]> {
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS[kind]);
  const made = Array.from({ length: count }, () => ({ token: randomToken(), expiresAt }));
  await db.insert(schema.sessions).values(made.map(({ token }) => ({ tokenHash: hashToken(token), kind, userId, expiresAt })));
  // A client's member joins with their first sign-in (until then the team page shows them invited).
  await db
    .update(schema.clientMembers)
    .set({ joinedAt: new Date() })
    .where(and(eq(schema.clientMembers.userId, userId), isNull(schema.clientMembers.joinedAt)));
  return made;
}

/** The signed-in user behind a session secret, if it is live and the account is not disabled. */
export async function getSessionUser(token: string, kind: SessionKind): Promise<SessionUser | null> {
  return (await findSession(token, kind))?.user ?? null;
}

/** The live session behind a secret and its user (sockets keep the id to be revoked by it). */
export async function findSession(
  token: string,
  kind: SessionKind,
): Promise<{ sessionId: string; user: SessionUser; hasTwoFactorMethod: boolean; seenAt: Date } | null> {
  const [row] = await sessionByToken.execute({ tokenHash: hashToken(token), kind });
  if (!row || row.disabledAt) return null;
  const { disabledAt: _disabled, sessionId, hasTwoFactorMethod, seenAt, ...user } = row;
  return { sessionId, user, hasTwoFactorMethod: !!hasTwoFactorMethod, seenAt };
}

/**
 * The signed-in person as every credential resolves them (a session here, an API key in
 * api-keys.server.ts): the account, its client and role, whether it is off, whether it has a second
 * factor. Read from `users` left-joined to `client_members`.
 */
export const signedInUserColumns = {
  id: schema.users.id,
  name: schema.users.name,
  email: schema.users.email,
  role: schema.users.role,
  profileImage: schema.users.profileImage,
  createdAt: schema.users.createdAt,
  welcomedAt: schema.users.welcomedAt,
  // A customer without a member row (written by a node that predates client teams) is the owner of a client of one.
  clientId: sql<string | null>`case when ${schema.users.role} = 'user' then coalesce(${schema.clientMembers.clientId}, ${schema.users.id}) end`,
  clientRole: sql<ClientRole | null>`case when ${schema.users.role} = 'user' then coalesce(${schema.clientMembers.role}, 'owner') end`,
  disabledAt: schema.users.disabledAt,
  // An authenticator app that is on, or a passkey (TEAM_2FA=required asks staff for one of them).
  hasTwoFactorMethod: sql<boolean>`(exists (select 1 from ${schema.totpSecrets} where ${schema.totpSecrets.userId} = ${schema.users.id} and ${schema.totpSecrets.enabledAt} is not null) or exists (select 1 from ${schema.passkeys} where ${schema.passkeys.userId} = ${schema.users.id}))`,
};

/** Built once, not per request: every signed-in call resolves its session with it (decision 195). */
const sessionByToken = db
  .select({
    sessionId: schema.sessions.id,
    // When the session was last recorded as used (its start, until then): touchSession skips a fresh one.
    seenAt: sql<Date>`coalesce(${schema.sessions.lastSeenAt}, ${schema.sessions.createdAt})`.mapWith(schema.sessions.createdAt),
    ...signedInUserColumns,
  })
  .from(schema.sessions)
  .innerJoin(schema.users, eq(schema.users.id, schema.sessions.userId))
  .leftJoin(schema.clientMembers, eq(schema.clientMembers.userId, schema.users.id))
  .where(
    and(
      eq(schema.sessions.tokenHash, sql.placeholder("tokenHash")),
      eq(schema.sessions.kind, sql.placeholder("kind")),
      gt(schema.sessions.expiresAt, sql`now()`),
      // A member removed from their client signs in nowhere (their account is off as well).
      isNull(schema.clientMembers.removedAt),
    ),
  )
  .limit(1)
  .prepare("session_by_token");

/** Of these session ids, the ones still live with an account that is not disabled. */
export async function liveSessionIds(sessionIds: string[]): Promise<Set<string>> {
  if (sessionIds.length === 0) return new Set();
  const rows = await db
    .select({ id: schema.sessions.id })
    .from(schema.sessions)
    .innerJoin(schema.users, eq(schema.users.id, schema.sessions.userId))
    .where(and(inArray(schema.sessions.id, sessionIds), gt(schema.sessions.expiresAt, sql`now()`), isNull(schema.users.disabledAt)));
  return new Set(rows.map((r) => r.id));
}

/** Ends one session; its open sockets on every node are disconnected too. */
export async function revokeSession(token: string) {
  const ended = await db
    .delete(schema.sessions)
    .where(eq(schema.sessions.tokenHash, hashToken(token)))
    .returning({ id: schema.sessions.id });
  for (const { id } of ended) revokeSocketsOfSession(id);
}

/** Ends every session of an account (password reset); every socket of the user is disconnected. */
export async function revokeAllSessions(userId: string) {
  await db.delete(schema.sessions).where(eq(schema.sessions.userId, userId));
  revokeSocketsOfUser(userId);
}

/** Ends every session of an account but the one given (password change); their sockets too. */
export async function revokeOtherSessions(userId: string, keepToken: string) {
  const ended = await db
    .delete(schema.sessions)
    .where(and(eq(schema.sessions.userId, userId), ne(schema.sessions.tokenHash, hashToken(keepToken))))
    .returning({ id: schema.sessions.id });
  for (const { id } of ended) revokeSocketsOfSession(id);
}

/** When a live session began (its sign-in), or null when it has ended. */
export async function sessionStartedAt(sessionId: string): Promise<Date | null> {
  const [row] = await db
    .select({ createdAt: schema.sessions.createdAt })
    .from(schema.sessions)
    .where(and(eq(schema.sessions.id, sessionId), gt(schema.sessions.expiresAt, sql`now()`)));
  return row?.createdAt ?? null;
}
