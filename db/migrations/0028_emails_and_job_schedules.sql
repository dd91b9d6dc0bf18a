CREATE TABLE "emails" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"recipient" text NOT NULL,
	"subject" text NOT NULL,
	"message" jsonb NOT NULL,
	"order_id" uuid,
	"user_id" uuid,
	"state" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "emails_state_check" CHECK ("emails"."state" in ('queued', 'sent', 'retrying', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "job_schedules" (
	"kind" text PRIMARY KEY NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "emails_order_idx" ON "emails" USING btree ("order_id","created_at");--> statement-breakpoint
CREATE INDEX "emails_user_idx" ON "emails" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "emails_state_idx" ON "emails" USING btree ("state");