import { sql } from "drizzle-orm";
import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

import { users } from "./core";

/*
 * The staff workspace (decision 155): internal notes on a customer's thread, which
 * live in their own table so that nothing that reads or sends chat messages can ever carry one to
 * the customer, and the team's saved replies.
 */

const id = () =>
  uuid("id")
    .primaryKey()
    .default(sql`gen_random_uuid()`);
const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

export const threadNotes = pgTable(
  "thread_notes",
  {
    id: id(),
    customerId: uuid("customer_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    authorId: uuid("author_id").references(() => users.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("thread_notes_customer_created_idx").on(t.customerId, t.createdAt)],
);

export const savedReplies = pgTable(
  "saved_replies",
  {
    id: id(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("saved_replies_title_idx").on(t.title)],
);
