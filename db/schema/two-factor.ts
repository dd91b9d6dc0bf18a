import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

import { users } from "./core";

/*
 * Two-factor sign-in (decisions 230, 231, 257): an authenticator app's TOTP secret, the recovery
 * codes made when it is turned on, and the pending second step of a sign-in. The tables keep the
 * names they were made with (totp_secrets names the algorithm's secret). Recovery codes and challenges
 * are stored only as their SHA-256.
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

/** An authenticator app's secret: pending until a first code verifies it (enabled_at). */
export const totpSecrets = pgTable("totp_secrets", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secret: text("secret").notNull(),
  enabledAt: timestamp("enabled_at", { withTimezone: true }),
  /** The last 30-second step a code was accepted for: a code is never taken twice (decision 231). */
  lastStep: integer("last_step"),
  createdAt: createdAt(),
});

/** Ten single-use recovery codes per account, made when two-factor is turned on. */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: id(),
    userId: userId(),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("recovery_codes_user_idx").on(t.userId)],
);

/** A sign-in waiting for its second factor: 5 minutes, 5 tries, for the transport that started it (decision 230). */
export const signInChallenges = pgTable(
  "sign_in_challenges",
  {
    id: id(),
    tokenHash: text("token_hash").notNull().unique(),
    userId: userId(),
    kind: text("kind").$type<"cookie" | "bearer">().notNull(),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("sign_in_challenges_user_idx").on(t.userId), check("sign_in_challenges_kind_check", sql`${t.kind} in ('cookie', 'bearer')`)],
);
