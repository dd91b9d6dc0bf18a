CREATE TABLE "catalogue_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"actor_id" uuid,
	"actor_name" text NOT NULL,
	"entity" text NOT NULL,
	"entity_id" uuid NOT NULL,
	"entity_name" text NOT NULL,
	"action" text NOT NULL,
	"before" jsonb,
	"after" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "catalogue_changes_entity_check" CHECK ("catalogue_changes"."entity" in ('service', 'packages', 'plan')),
	CONSTRAINT "catalogue_changes_action_check" CHECK ("catalogue_changes"."action" in ('create', 'update'))
);
--> statement-breakpoint
CREATE TABLE "plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"tagline" text DEFAULT '' NOT NULL,
	"price_cents" integer NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"features" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plans_key_unique" UNIQUE("key"),
	CONSTRAINT "plans_price_check" CHECK ("plans"."price_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "service_packages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"service_id" uuid NOT NULL,
	"tier" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"price_cents" integer,
	"features" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_packages_service_tier_key" UNIQUE("service_id","tier"),
	CONSTRAINT "service_packages_tier_check" CHECK ("service_packages"."tier" between 1 and 3),
	CONSTRAINT "service_packages_price_check" CHECK (("service_packages"."tier" = 1) = ("service_packages"."price_cents" is null) and coalesce("service_packages"."price_cents", 1) > 0)
);
--> statement-breakpoint
CREATE INDEX "catalogue_changes_created_idx" ON "catalogue_changes" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "services_name_unique_idx" ON "services" USING btree (lower("name")) WHERE "services"."slug" not like 'package-%' and "services"."slug" not like 'plan-%';