-- Revenue per month and orders per status, kept by the database itself (docs/decisions/091-092). Hand-written:
-- a rollup that a trigger on "orders" keeps in step with every payment and refund, in the same
-- transaction, so the revenue series and the overview's total read twelve rows instead of every
-- order. An order counts in the UTC month it was paid (its creation if it has no paid_at) while its
-- status is paid or partially_refunded: total minus what has been refunded. Not part of the drizzle
-- schema (no snapshot entry), like the inbox's trigger.
CREATE TABLE IF NOT EXISTS "order_revenue_months" (
	"month" date PRIMARY KEY NOT NULL,
	"revenue_cents" bigint DEFAULT 0 NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL
);--> statement-breakpoint
-- How many orders each status holds: the orders list's total without counting 100,000 rows.
CREATE TABLE IF NOT EXISTS "order_status_counts" (
	"status" text PRIMARY KEY NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL
);--> statement-breakpoint
CREATE OR REPLACE FUNCTION "orders_revenue_rollup"() RETURNS trigger AS $$
BEGIN
	IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND OLD."status" IS DISTINCT FROM NEW."status") THEN
		UPDATE "order_status_counts" SET "orders" = "orders" - 1 WHERE "status" = OLD."status";
	END IF;
	IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND OLD."status" IS DISTINCT FROM NEW."status") THEN
		INSERT INTO "order_status_counts" AS c ("status", "orders") VALUES (NEW."status", 1)
		ON CONFLICT ("status") DO UPDATE SET "orders" = c."orders" + 1;
	END IF;
	IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."status" IN ('paid', 'partially_refunded') THEN
		INSERT INTO "order_revenue_months" AS r ("month", "revenue_cents", "orders")
		VALUES (date_trunc('month', coalesce(OLD."paid_at", OLD."created_at") AT TIME ZONE 'UTC')::date, -(OLD."total_cents" - OLD."refunded_cents"), -1)
		ON CONFLICT ("month") DO UPDATE SET "revenue_cents" = r."revenue_cents" + excluded."revenue_cents", "orders" = r."orders" + excluded."orders";
	END IF;
	IF TG_OP IN ('INSERT', 'UPDATE') AND NEW."status" IN ('paid', 'partially_refunded') THEN
		INSERT INTO "order_revenue_months" AS r ("month", "revenue_cents", "orders")
		VALUES (date_trunc('month', coalesce(NEW."paid_at", NEW."created_at") AT TIME ZONE 'UTC')::date, NEW."total_cents" - NEW."refunded_cents", 1)
		ON CONFLICT ("month") DO UPDATE SET "revenue_cents" = r."revenue_cents" + excluded."revenue_cents", "orders" = r."orders" + excluded."orders";
	END IF;
	RETURN NULL;
END
$$ LANGUAGE plpgsql;--> statement-breakpoint
DROP TRIGGER IF EXISTS "orders_revenue_rollup" ON "orders";--> statement-breakpoint
CREATE TRIGGER "orders_revenue_rollup" AFTER INSERT OR DELETE OR UPDATE OF "status", "total_cents", "refunded_cents", "paid_at", "created_at" ON "orders"
	FOR EACH ROW EXECUTE FUNCTION "orders_revenue_rollup"();--> statement-breakpoint
DELETE FROM "order_revenue_months";--> statement-breakpoint
DELETE FROM "order_status_counts";--> statement-breakpoint
INSERT INTO "order_status_counts" ("status", "orders") SELECT "status", count(*) FROM "orders" GROUP BY 1;--> statement-breakpoint
INSERT INTO "order_revenue_months" ("month", "revenue_cents", "orders")
SELECT date_trunc('month', coalesce("paid_at", "created_at") AT TIME ZONE 'UTC')::date, sum("total_cents" - "refunded_cents"), count(*)
FROM "orders" WHERE "status" IN ('paid', 'partially_refunded')
GROUP BY 1;--> statement-breakpoint
-- The orders list's search by e-mail: what was typed is the start of the address.
CREATE INDEX IF NOT EXISTS "orders_email_lower_idx" ON "orders" USING btree (lower("email") text_pattern_ops);
