ALTER TABLE "orders" DROP CONSTRAINT "orders_kind_check";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "subscription_id" uuid;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "reason" text;--> statement-breakpoint
CREATE INDEX "orders_subscription_idx" ON "orders" USING btree ("subscription_id","created_at") WHERE "orders"."subscription_id" is not null;--> statement-breakpoint
CREATE INDEX "subscriptions_order_idx" ON "subscriptions" USING btree ("order_id");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_kind_check" CHECK ("kind" in ('services', 'subscription', 'renewal'));--> statement-breakpoint
-- Every renewal already paid becomes an order of kind 'renewal' (the invoice's id is the order's), so
-- the orders list, the CSV and revenue read one table (docs/decisions/175). Its refunds
-- so far (Stripe's running total on the invoice) become one refund row, so the order settles right.
INSERT INTO "orders" ("id", "kind", "email", "name", "user_id", "status", "total_cents", "refunded_cents", "currency", "plan_id", "subscription_id",
	"stripe_payment_intent_id", "stripe_customer_id", "paid_at", "created_at", "updated_at")
SELECT i."id", 'renewal', coalesce(u."email", o."email", ''), coalesce(u."name", o."name", ''), coalesce(i."user_id", s."user_id"),
	CASE WHEN i."refunded_cents" <= 0 THEN 'paid' WHEN i."refunded_cents" >= i."amount_cents" THEN 'refunded' ELSE 'partially_refunded' END,
	i."amount_cents", i."refunded_cents", i."currency", s."plan_id", i."subscription_id", i."stripe_payment_intent_id", s."stripe_customer_id",
	i."paid_at", i."paid_at", now()
FROM "invoices" i
LEFT JOIN "subscriptions" s ON s."id" = i."subscription_id"
LEFT JOIN "users" u ON u."id" = coalesce(i."user_id", s."user_id")
LEFT JOIN "orders" o ON o."id" = s."order_id"
WHERE i."renewal" = true AND i."order_id" IS NULL
ON CONFLICT ("id") DO NOTHING;--> statement-breakpoint
INSERT INTO "refunds" ("order_id", "amount_cents", "currency", "status", "source", "created_at", "updated_at")
SELECT i."id", i."refunded_cents", i."currency", 'succeeded', 'stripe', i."paid_at", now()
FROM "invoices" i
WHERE i."renewal" = true AND i."order_id" IS NULL AND i."refunded_cents" > 0;--> statement-breakpoint
UPDATE "invoices" SET "order_id" = "id" WHERE "renewal" = true AND "order_id" IS NULL;
