import { and, asc, desc, eq, getTableColumns, sql, type SQL } from "drizzle-orm";

import { auditActionLabel, type AuditAction, type AuditEntry, type AuditTargetKind } from "~/domain/audit";
import { csvCell } from "~/domain/csv";
import { withWireId } from "~/domain/ids";
import type { AuditEntryJson, AuditQuery } from "~/domain/schemas/audit";
import { db, schema, type Db, type Tx } from "~/utils/db.server";

/*
 * The audit log (docs/decisions/220): staff actions that change money,
 * access or what a customer sees. Models call recordAudit with the transaction that makes the
 * change where there is one, so the change and its entry commit together or not at all. Entries
 * are only ever added: nothing here updates or deletes, and the database refuses it too.
 */

const a = schema.auditEntries;

export interface AuditInput {
  /** The staff member acting (their name is copied from their account in the same statement). */
  actor: { id: string };
  action: AuditAction;
  target: { kind: AuditTargetKind; id: string; label: string };
  detail?: string;
}

/** Adds one entry, in `tx` when the change has a transaction. */
export async function recordAudit(input: AuditInput, tx: Db | Tx = db): Promise<void> {
  await tx.insert(a).values({
    actorId: input.actor.id,
    actorName: sql`coalesce((select ${schema.users.name} from ${schema.users} where ${schema.users.id} = ${input.actor.id}), '')`,
    action: input.action,
    targetKind: input.target.kind,
    targetId: input.target.id,
    targetLabel: input.target.label.slice(0, 300),
    detail: (input.detail ?? "").slice(0, 1000),
  });
}

/**
 * A change to how a staff account signs in (its own second factor or passkeys): recorded when the
 * account is staff, in `tx` with the change. Customers' own security settings are not staff actions.
 */
export async function recordOwnSignInChange(userId: string, action: AuditAction, detail: string, tx: Db | Tx) {
  const [user] = await tx
    .select({ role: schema.users.role, name: schema.users.name, email: schema.users.email })
    .from(schema.users)
    .where(eq(schema.users.id, userId));
  if (user?.role !== "team") return;
  await recordAudit({ actor: { id: userId }, action, target: { kind: "user", id: userId, label: `${user.name} (${user.email})` }, detail }, tx);
}

type AuditFilter = Pick<AuditQuery, "actorId" | "action">;

function conditions(filter: AuditFilter): SQL | undefined {
  return and(filter.actorId ? eq(a.actorId, filter.actorId) : undefined, filter.action ? eq(a.action, filter.action) : undefined);
}

type AuditRow = typeof a.$inferSelect;

function toEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    actor: { id: row.actorId, name: row.actorName },
    action: row.action as AuditAction,
    target: { kind: row.targetKind, id: row.targetId, label: row.targetLabel },
    detail: row.detail,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The AuditEntry shape of the JSON API (docs/api.md): ids as `_id`. */
export function toAuditEntryJson({ actor, target, ...entry }: AuditEntry): AuditEntryJson {
  return { ...withWireId(entry), actor: withWireId(actor), target: withWireId(target) };
}

/** One page of entries, newest first, with the number matching the filter. */
export async function listAudit(query: AuditQuery): Promise<{ entries: AuditEntry[]; total: number }> {
  const where = conditions(query);
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(a)
      .where(where)
      .orderBy(desc(a.createdAt), desc(a.seq))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(a)
      .where(where),
  ]);
  return { entries: rows.map(toEntry), total: count?.total ?? 0 };
}

/** The staff accounts (active or not), for the page's actor filter. */
export async function listAuditActors(): Promise<{ id: string; name: string }[]> {
  return db
    .select({ id: schema.users.id, name: schema.users.name })
    .from(schema.users)
    .where(eq(schema.users.role, "team"))
    .orderBy(asc(schema.users.name), asc(schema.users.id));
}

export const AUDIT_CSV_HEADER = ["entry_id", "created_at", "actor_id", "actor", "action", "action_label", "target_kind", "target_id", "target", "detail"];
const CSV_BATCH = 500;

function csvLine(row: AuditRow) {
  return [
    csvCell(row.id),
    csvCell(row.createdAt),
    csvCell(row.actorId),
    csvCell(row.actorName),
    csvCell(row.action),
    csvCell(auditActionLabel(row.action)),
    csvCell(row.targetKind),
    csvCell(row.targetId),
    csvCell(row.targetLabel),
    csvCell(row.detail),
  ].join(",");
}

/** Every matching entry as CSV, newest first, read a key-ordered batch per pull (memory stays flat). */
export function auditCsvStream(filter: AuditFilter): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  // The cursor is the timestamp as PostgreSQL writes it (microseconds; a JS Date keeps milliseconds).
  let after: { at: string; seq: number } | undefined;
  let done = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`${AUDIT_CSV_HEADER.join(",")}\r\n`));
    },
    async pull(controller) {
      if (done) return controller.close();
      const rows = await db
        .select({ ...getTableColumns(a), cursorAt: sql<string>`${a.createdAt}::text` })
        .from(a)
        .where(and(conditions(filter), after ? sql`(${a.createdAt}, ${a.seq}) < (${after.at}::timestamptz, ${after.seq})` : undefined))
        .orderBy(desc(a.createdAt), desc(a.seq))
        .limit(CSV_BATCH);
      if (rows.length > 0) controller.enqueue(encoder.encode(rows.map((row) => `${csvLine(row)}\r\n`).join("")));
      const last = rows[rows.length - 1];
      if (rows.length < CSV_BATCH || !last) {
        done = true;
        controller.close();
        return;
      }
      after = { at: last.cursorAt, seq: last.seq };
    },
  });
}
