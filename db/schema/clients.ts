import { sql } from "drizzle-orm";
import { check, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

import { CLIENT_ROLES, type ClientRole } from "../../app/domain/clients";
import { users } from "./core";

/*
 * Client teams: a client (company) and its members. A client's id is the id of the account it
 * started from (decision 283), so the customer columns of earlier tables name the client unchanged.
 * One login belongs to one client: a member row per user.
 */
export const clients = pgTable(
  "clients",
  {
    id: uuid("id").primaryKey(),
    name: text("name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("clients_created_idx").on(t.createdAt, t.id), index("clients_search_idx").using("gin", sql`to_tsvector('simple', ${t.name})`)],
);

export const clientMembers = pgTable(
  "client_members",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    clientId: uuid("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    role: text("role").$type<ClientRole>().notNull(),
    invitedBy: uuid("invited_by").references(() => users.id, { onDelete: "set null" }),
    invitedAt: timestamp("invited_at", { withTimezone: true }).notNull().defaultNow(),
    /** When the member first signed in (null while the invitation is not yet taken). */
    joinedAt: timestamp("joined_at", { withTimezone: true }),
    /** Removed from the client, or left it: the account stays (what they wrote keeps its name) but is off. */
    removedAt: timestamp("removed_at", { withTimezone: true }),
  },
  (t) => [
    index("client_members_client_idx").on(t.clientId, t.role),
    check("client_members_role_check", sql.raw(`"role" in (${CLIENT_ROLES.map((r) => `'${r}'`).join(", ")})`)),
  ],
);
