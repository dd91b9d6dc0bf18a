import { sql } from "drizzle-orm";

import { csvAmount, csvCell } from "~/domain/csv";
import { planChargeOf, planLineName } from "~/domain/order";
import { ORDER_STATUS_LABELS, toApiOrderStatus } from "~/domain/order-status";
import type { OrderStatus } from "~/domain/status";
import { cursorBatches, queryRows } from "~/utils/db-cursor.server";

import { orderConditions, type OrderFilter } from "./orders-list.server";

/*
 * The orders list as CSV, streamed: rows come from a PostgreSQL cursor (or key-ordered batches on
 * the embedded database) and each batch is written as soon as it arrives, so memory stays flat
 * whether the export holds ten orders or a hundred thousand. docs/decisions/093. Renewals are orders
 * (kind "renewal", decision 175), so the `net` column sums to the overview's revenue to the cent.
 */

const BATCH = 1000;

interface ExportRow {
  id: string;
  createdAt: Date | string;
  cursorAt: string;
  status: OrderStatus;
  kind: string;
  name: string;
  email: string;
  customerId: string | null;
  totalCents: number;
  refundedCents: number;
  currency: string;
  paidAt: Date | string | null;
  stripeSessionId: string | null;
  stripePaymentIntentId: string | null;
  /** A services order's lines; null for a plan's payment, named from the two columns below. */
  lines: string | null;
  planName: string | null;
  billingReason: string | null;
}

export const CSV_HEADER = [
  "order_id",
  "created_at",
  "status",
  "kind",
  "name",
  "email",
  "customer_id",
  "amount",
  "refunded",
  "net",
  "currency",
  "paid_at",
  "lines",
  "stripe_session_id",
  "stripe_payment_intent_id",
];

function exportQuery(filter: OrderFilter, after?: { at: string; id: string }, limit?: number) {
  const where = orderConditions(filter);
  const conditions = [where, after ? sql`("orders"."created_at", "orders"."id") < (${after.at}::timestamptz, ${after.id}::uuid)` : undefined].filter(Boolean);
  return sql`
    select "orders"."id", "orders"."created_at" as "createdAt", "orders"."created_at"::text as "cursorAt", "orders"."status",
      "orders"."kind", "orders"."name", "orders"."email", "orders"."user_id" as "customerId",
      "orders"."total_cents" as "totalCents", "orders"."refunded_cents" as "refundedCents", "orders"."currency",
      "orders"."paid_at" as "paidAt", "orders"."stripe_session_id" as "stripeSessionId",
      "orders"."stripe_payment_intent_id" as "stripePaymentIntentId",
      coalesce((select "plans"."name" from "plans" where "plans"."key" = "orders"."plan_id"), upper(coalesce("orders"."plan_id", 'monthly')) || ' plan') as "planName",
      (select "invoices"."billing_reason" from "invoices" where "invoices"."id" = "orders"."id") as "billingReason",
      case when "orders"."kind" <> 'services' then null
        else (select string_agg("services"."name" || ' x' || "purchases"."quantity", '; ' order by "purchases"."created_at", "services"."name")
              from "purchases" join "services" on "services"."id" = "purchases"."service_id"
              where "purchases"."order_id" = "orders"."id") end as "lines"
    from "orders"
    ${conditions.length > 0 ? sql`where ${sql.join(conditions as ReturnType<typeof sql>[], sql` and `)}` : sql``}
    order by "orders"."created_at" desc, "orders"."id" desc
    ${limit ? sql`limit ${limit}` : sql``}`;
}

/** Batches of rows: a server-side cursor on PostgreSQL, key-ordered pages on PGlite. */
async function* batches(filter: OrderFilter): AsyncGenerator<ExportRow[]> {
  const cursor = cursorBatches<ExportRow>(exportQuery(filter), BATCH);
  if (cursor) {
    yield* cursor;
    return;
  }
  let after: { at: string; id: string } | undefined;
  for (;;) {
    const rows = await queryRows<ExportRow>(exportQuery(filter, after, BATCH));
    if (rows.length > 0) yield rows;
    if (rows.length < BATCH) return;
    const last = rows[rows.length - 1];
    after = { at: last.cursorAt, id: last.id };
  }
}

/** Statuses whose money came in; pending and expired orders bring nothing. */
const PAID = new Set<OrderStatus>(["paid", "partially_refunded", "refunded"]);

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** A plan's payment is named as on its receipt and the orders list (decision 264). */
function linesOf(row: ExportRow): string | null {
  if (row.kind !== "subscription" && row.kind !== "renewal") return row.lines;
  return planLineName(row.planName ?? "Monthly plan", planChargeOf(row.kind, row.billingReason));
}

function csvLine(row: ExportRow) {
  return [
    csvCell(row.id),
    csvCell(iso(row.createdAt)),
    csvCell(ORDER_STATUS_LABELS[toApiOrderStatus(row.status)]),
    csvCell(row.kind === "subscription" ? "plan" : row.kind),
    csvCell(row.name),
    csvCell(row.email),
    csvCell(row.customerId),
    csvAmount(row.totalCents),
    csvAmount(row.refundedCents),
    // Money that came in and stayed: the column sums to the overview's Total Revenue (decision 175).
    csvAmount(PAID.has(row.status) ? row.totalCents - row.refundedCents : 0),
    csvCell(row.currency),
    csvCell(iso(row.paidAt)),
    csvCell(linesOf(row)),
    csvCell(row.stripeSessionId),
    csvCell(row.stripePaymentIntentId),
  ].join(",");
}

/** The CSV as a byte stream: one batch read per pull, so a slow reader slows the database reads. */
export function ordersCsvStream(filter: OrderFilter): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let iterator: AsyncIterator<ExportRow[]> | undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`${CSV_HEADER.join(",")}\r\n`));
    },
    async pull(controller) {
      iterator ??= batches(filter)[Symbol.asyncIterator]();
      const next = await iterator.next();
      if (next.done) {
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(next.value.map((row) => `${csvLine(row)}\r\n`).join("")));
    },
    async cancel() {
      await iterator?.return?.();
    },
  });
}
