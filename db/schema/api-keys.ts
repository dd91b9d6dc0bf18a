import { sql } from "drizzle-orm";
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

import type { Scope } from "../../app/domain/api-keys";
import { users } from "./core";

/*
 * API keys (docs/decisions/284): a person's keys for other tools, each limited to its scopes. The
 * key itself is shown once; only its SHA-256 is kept, with its first characters to recognise it by.
 */

export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    keyHash: text("key_hash").notNull(),
    prefix: text("prefix").notNull(),
    scopes: text("scopes").array().$type<Scope[]>().notNull(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // Every call made with a key finds it by its hash; the account page lists a person's keys.
  (t) => [uniqueIndex("api_keys_key_hash_idx").on(t.keyHash), index("api_keys_user_idx").on(t.userId, t.createdAt)],
);
