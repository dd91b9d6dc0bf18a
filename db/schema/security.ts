import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

import { users } from "./core";

/*
 * Account security (decisions 230–235): passkeys and their WebAuthn challenges, magic sign-in links
 * and the devices an account signs in from; two-factor sign-in has its own file (schema/two-factor.ts).
 * Every secret a person holds is stored only as its SHA-256.
 */

const id = () =>
  uuid("id")
    .primaryKey()
    .default(sql`gen_random_uuid()`);
const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const userId = () =>
  uuid("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" });

/** WebAuthn credentials (passkeys): the public key and signature counter of each. */
export const passkeys = pgTable(
  "passkeys",
  {
    id: id(),
    userId: userId(),
    credentialId: text("credential_id").notNull(),
    publicKey: text("public_key").notNull(),
    counter: integer("counter").notNull().default(0),
    transports: text("transports")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    name: text("name").notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("passkeys_credential_idx").on(t.credentialId), index("passkeys_user_idx").on(t.userId)],
);

/** A WebAuthn challenge handed out and not yet answered (2 minutes; single use). */
export const webauthnChallenges = pgTable(
  "webauthn_challenges",
  {
    id: id(),
    challenge: text("challenge").notNull().unique(),
    purpose: text("purpose").$type<"register" | "authenticate">().notNull(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [check("webauthn_challenges_purpose_check", sql`${t.purpose} in ('register', 'authenticate')`)],
);

/** E-mailed sign-in links: 15 minutes, single use. */
export const magicLinks = pgTable(
  "magic_links",
  {
    id: id(),
    tokenHash: text("token_hash").notNull().unique(),
    userId: userId(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("magic_links_user_idx").on(t.userId)],
);

/**
 * The browsers and API clients an account has signed in from (decision 233): a sign-in
 * from one not listed e-mails the account. The key is a SHA-256: of the browser's device cookie, or
 * of an API client's user agent and address.
 */
export const signInDevices = pgTable(
  "sign_in_devices",
  {
    id: id(),
    userId: userId(),
    deviceKey: text("device_key").notNull(),
    kind: text("kind").$type<"cookie" | "bearer">().notNull(),
    description: text("description").notNull(),
    ip: text("ip").notNull(),
    createdAt: createdAt(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("sign_in_devices_user_key_idx").on(t.userId, t.deviceKey), check("sign_in_devices_kind_check", sql`${t.kind} in ('cookie', 'bearer')`)],
);
