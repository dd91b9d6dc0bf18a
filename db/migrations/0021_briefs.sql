CREATE TABLE "brief_forms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subject" text NOT NULL,
	"subject_id" uuid NOT NULL,
	"questions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_by_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "brief_forms_subject_key" UNIQUE("subject","subject_id"),
	CONSTRAINT "brief_forms_subject_check" CHECK ("brief_forms"."subject" in ('service', 'plan'))
);
--> statement-breakpoint
CREATE TABLE "briefs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"purchase_id" uuid,
	"subscription_id" uuid,
	"user_id" uuid,
	"questions" jsonb NOT NULL,
	"answers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"paid_at" timestamp with time zone NOT NULL,
	"submitted_at" timestamp with time zone,
	"reminded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "briefs_purchase_key" UNIQUE("purchase_id"),
	CONSTRAINT "briefs_subscription_key" UNIQUE("subscription_id"),
	CONSTRAINT "briefs_subject_check" CHECK (("briefs"."purchase_id" is null) <> ("briefs"."subscription_id" is null))
);
--> statement-breakpoint
ALTER TABLE "chat_attachments" ADD COLUMN "brief_id" uuid;--> statement-breakpoint
ALTER TABLE "brief_forms" ADD CONSTRAINT "brief_forms_updated_by_id_users_id_fk" FOREIGN KEY ("updated_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "briefs" ADD CONSTRAINT "briefs_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "briefs" ADD CONSTRAINT "briefs_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "briefs" ADD CONSTRAINT "briefs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "briefs_user_idx" ON "briefs" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "briefs_reminder_idx" ON "briefs" USING btree ("paid_at") WHERE "briefs"."submitted_at" is null and "briefs"."reminded_at" is null;--> statement-breakpoint
ALTER TABLE "chat_attachments" ADD CONSTRAINT "chat_attachments_brief_id_briefs_id_fk" FOREIGN KEY ("brief_id") REFERENCES "public"."briefs"("id") ON DELETE set null ON UPDATE no action;