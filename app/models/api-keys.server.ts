import { and, count, desc, eq, gte, isNull, sql } from "drizzle-orm";
import type { z } from "zod";

import { API_KEY_MESSAGES, API_KEY_PREFIX, API_KEY_SHOWN_CHARS, API_KEYS_PER_USER, mayHoldScope, type Scope } from "~/domain/api-keys";
import { isUuid } from "~/domain/ids";
import { can } from "~/domain/permissions";
import type { apiKeyJson } from "~/domain/schemas/account";
import { recordAudit } from "~/models/audit.server";
import { signedInUserColumns, type SessionUser } from "~/models/sessions.server";
import { afterResponse } from "~/utils/background.server";
import { db, schema } from "~/utils/db.server";
import { forbidden, HttpError, notFound } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";
import { hashToken, randomToken } from "~/utils/tokens.server";

/*
 * API keys (docs/decisions/284): made on the account page or with POST /api/account/api-keys, shown
 * once, kept only as their SHA-256. A key works while its person may sign in: a disabled or deleted
 * account, or a member removed from their client, ends every key they made.
 */

const k = schema.apiKeys;

/** A key as the API sends it: its schema's type. */
export type ApiKeyJson = z.infer<typeof apiKeyJson>;

const columns = { id: k.id, name: k.name, scopes: k.scopes, prefix: k.prefix, lastUsedAt: k.lastUsedAt, createdAt: k.createdAt };

function toJson(row: { id: string; name: string; scopes: Scope[]; prefix: string; lastUsedAt: Date | null; createdAt: Date }): ApiKeyJson {
  return {
    _id: row.id,
    name: row.name,
    scopes: row.scopes,
    prefix: row.prefix,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A person's keys, newest first. */
export async function listApiKeys(userId: string): Promise<ApiKeyJson[]> {
  const rows = await db.select(columns).from(k).where(eq(k.userId, userId)).orderBy(desc(k.createdAt), desc(k.id));
  return rows.map(toJson);
}

/** A new key with these scopes (each within the person's rights, else 403): the key itself is returned this once. */
export async function createApiKey(user: SessionUser, input: { name: string; scopes: Scope[] }): Promise<{ key: string; apiKey: ApiKeyJson }> {
  const refused = input.scopes.find((scope) => !mayHoldScope(user, scope));
  if (refused) throw forbidden(API_KEY_MESSAGES.scopeNotHeld(refused));
  const key = `${API_KEY_PREFIX}${randomToken()}`;
  const row = await db.transaction(async (tx) => {
    // One person's creations take turns, so the count below holds.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('api-keys'), hashtext(${user.id}))`);
    const [held] = await tx.select({ n: count() }).from(k).where(eq(k.userId, user.id));
    if ((held?.n ?? 0) >= API_KEYS_PER_USER) throw new HttpError(409, API_KEY_MESSAGES.tooMany);
    const [made] = await tx
      .insert(k)
      .values({ userId: user.id, name: input.name, scopes: input.scopes, keyHash: hashToken(key), prefix: key.slice(0, API_KEY_SHOWN_CHARS) })
      .returning(columns);
    if (can(user, "area:team")) {
      await recordAudit(
        {
          actor: user,
          action: "api_key.create",
          target: { kind: "user", id: user.id, label: user.name },
          detail: `${input.name} (${input.scopes.join(", ")})`,
        },
        tx,
      );
    }
    return made!;
  });
  return { key, apiKey: toJson(row) };
}

/** Revokes one of the person's keys (another's, or none: 404); the next call made with it is a 401. */
export async function revokeApiKey(user: SessionUser, id: string): Promise<void> {
  if (!isUuid(id)) throw notFound(API_KEY_MESSAGES.notFound);
  await db.transaction(async (tx) => {
    const [gone] = await tx
      .delete(k)
      .where(and(eq(k.id, id), eq(k.userId, user.id)))
      .returning({ name: k.name, prefix: k.prefix });
    if (!gone) throw notFound(API_KEY_MESSAGES.notFound);
    if (can(user, "area:team")) {
      await recordAudit(
        { actor: user, action: "api_key.revoke", target: { kind: "user", id: user.id, label: user.name }, detail: `${gone.name} (${gone.prefix}…)` },
        tx,
      );
    }
  });
}

/** Keys made in the last day: a password reset through a link or an undone e-mail change ends them, as it ends recent passkeys. */
const RECENT_KEY_MS = 24 * 3600_000;

/** Ends the keys made in the last 24 hours (the account may have been someone else's meanwhile); how many ended. */
export async function endRecentApiKeys(userId: string): Promise<number> {
  const ended = await db
    .delete(k)
    .where(and(eq(k.userId, userId), gte(k.createdAt, new Date(Date.now() - RECENT_KEY_MS))))
    .returning({ id: k.id });
  return ended.length;
}

export interface FoundApiKey {
  keyId: string;
  scopes: Scope[];
  user: SessionUser;
  hasTwoFactorMethod: boolean;
  seenAt: Date;
}

/** The live key behind a secret and its person, if they may still sign in. */
export async function findApiKey(key: string): Promise<FoundApiKey | null> {
  const [row] = await apiKeyByHash.execute({ keyHash: hashToken(key) });
  if (!row || row.disabledAt) return null;
  const { disabledAt: _disabled, keyId, scopes, hasTwoFactorMethod, seenAt, ...user } = row;
  return { keyId, scopes, user, hasTwoFactorMethod: !!hasTwoFactorMethod, seenAt };
}

/** Built once: every call made with a key resolves it with this one indexed look-up (like session_by_token). */
const apiKeyByHash = db
  .select({
    keyId: k.id,
    scopes: k.scopes,
    seenAt: sql<Date>`coalesce(${k.lastUsedAt}, ${k.createdAt})`.mapWith(k.createdAt),
    ...signedInUserColumns,
  })
  .from(k)
  .innerJoin(schema.users, eq(schema.users.id, k.userId))
  .leftJoin(schema.clientMembers, eq(schema.clientMembers.userId, schema.users.id))
  .where(and(eq(k.keyHash, sql.placeholder("keyHash")), isNull(schema.clientMembers.removedAt)))
  .limit(1)
  .prepare("api_key_by_hash");

const TOUCH_EVERY_MS = 60_000;
const touched = new Map<string, number>();

/** Records a key's last use after the answer, at most once a minute per key. */
export function touchApiKey(keyId: string, seenAt: Date) {
  const now = Date.now();
  const recorded = Math.max(touched.get(keyId) ?? 0, seenAt.getTime());
  if (recorded > now - TOUCH_EVERY_MS) return;
  touched.set(keyId, now);
  if (touched.size > 10_000) touched.clear();
  afterResponse("API key last use", () =>
    db
      .update(k)
      .set({ lastUsedAt: new Date(now) })
      .where(eq(k.id, keyId))
      .catch((error: unknown) => logger.warn({ err: error }, "could not record the API key's last use")),
  );
}
