import { sql } from "drizzle-orm";
import { bigint, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/*
 * The audit log (decision 220): one row per staff action that changes money, access or what a
 * customer sees. Rows are only ever added: the code has no update or delete of this table, and a
 * trigger in the migration refuses UPDATE and DELETE (docs/decisions/220). The actor and the
 * target are kept as they were (ids and names copied, no foreign keys), so an entry still reads
 * right after the account or the thing it names has changed or gone.
 */

export const auditEntries = pgTable(
  "audit_entries",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    /** The staff account that acted; null for the system (none today). */
    actorId: uuid("actor_id"),
    actorName: text("actor_name").notNull(),
    /** What was done, `area.verb`: "order.refund", "service.update", "team.invite"… (app/domain/audit.ts). */
    action: text("action").notNull(),
    targetKind: text("target_kind").notNull(),
    targetId: text("target_id").notNull(),
    targetLabel: text("target_label").notNull(),
    /** One line saying what changed, for people ("Refunded $20.00 of $120.00: duplicate charge"). */
    detail: text("detail").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * The order entries were written in: entries of one transaction share `created_at` (it is the
     * transaction's start), so the log reads newest first by time, then by this.
     */
    seq: bigint("seq", { mode: "number" }).notNull().generatedAlwaysAsIdentity(),
  },
  (t) => [
    index("audit_entries_created_idx").on(t.createdAt, t.seq),
    index("audit_entries_actor_created_idx").on(t.actorId, t.createdAt),
    index("audit_entries_action_created_idx").on(t.action, t.createdAt),
    /** One thing's history: who completed a purchase, for its order's timeline. */
    index("audit_entries_target_created_idx").on(t.targetKind, t.targetId, t.createdAt),
  ],
);
