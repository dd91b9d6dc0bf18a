import { and, eq, gt, sql } from "drizzle-orm";
import { db, schema } from "~/utils/db.server";
import { hashToken, randomToken } from "~/utils/tokens.server";
import type { Role } from "~/utils/permissions";

export type SessionKind = "cookie" | "bearer";

export const SESSION_TTL_MS = { cookie: 30 * 24 * 3600_000, bearer: 30 * 24 * 3600_000 } as const;

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  role: Role;
  profileImage: string | null;
  createdAt: Date;
}

export async function createSession(userId: string, kind: SessionKind) {
  const token = randomToken();
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS[kind]);
  await db.insert(schema.sessions).values({ tokenHash: hashToken(token), kind, userId, expiresAt });
  return { token, expiresAt };
}

/** The signed-in user behind a session secret, if it is live and the account is not disabled. */
export async function getSessionUser(token: string, kind: SessionKind): Promise<SessionUser | null> {
  const [row] = await db
    .select({
      id: schema.users.id,
      name: schema.users.name,
      email: schema.users.email,
      role: schema.users.role,
      profileImage: schema.users.profileImage,
      createdAt: schema.users.createdAt,
      disabledAt: schema.users.disabledAt,
    })
    .from(schema.sessions)
    .innerJoin(schema.users, eq(schema.users.id, schema.sessions.userId))
    .where(
      and(
        eq(schema.sessions.tokenHash, hashToken(token)),
        eq(schema.sessions.kind, kind),
        gt(schema.sessions.expiresAt, sql`now()`),
      ),
    )
    .limit(1);
  if (!row || row.disabledAt) return null;
  const { disabledAt: _disabled, ...user } = row;
  return user;
}

export async function revokeSession(token: string) {
  await db.delete(schema.sessions).where(eq(schema.sessions.tokenHash, hashToken(token)));
}

export async function revokeAllSessions(userId: string) {
  await db.delete(schema.sessions).where(eq(schema.sessions.userId, userId));
}
