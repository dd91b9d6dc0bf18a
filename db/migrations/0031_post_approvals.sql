CREATE TABLE "client_approvals" (
	"client_id" uuid PRIMARY KEY NOT NULL,
	"mode" text NOT NULL,
	"approvers" text NOT NULL,
	"on_deadline" text NOT NULL,
	"review_hours" integer NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_approvals_mode_check" CHECK ("mode" in ('none', 'required', 'two_step')),
	CONSTRAINT "client_approvals_approvers_check" CHECK ("approvers" in ('any', 'all')),
	CONSTRAINT "client_approvals_deadline_check" CHECK ("on_deadline" in ('hold', 'approve')),
	CONSTRAINT "client_approvals_hours_check" CHECK ("review_hours" between 0 and 720)
);
--> statement-breakpoint
CREATE TABLE "post_approvals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"post_id" uuid NOT NULL,
	"round" integer NOT NULL,
	"stage" text NOT NULL,
	"member_id" uuid,
	"member_name" text NOT NULL,
	"decision" text NOT NULL,
	"via_link" boolean DEFAULT false NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "post_approvals_once" UNIQUE("post_id","round","stage","member_id"),
	CONSTRAINT "post_approvals_decision_check" CHECK ("post_approvals"."decision" in ('approve', 'request_changes', 'auto_approve'))
);
--> statement-breakpoint
CREATE TABLE "post_review_reminders" (
	"post_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"review_by" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "post_review_reminders_post_id_kind_review_by_pk" PRIMARY KEY("post_id","kind","review_by")
);
--> statement-breakpoint
CREATE TABLE "post_reviews" (
	"post_id" uuid PRIMARY KEY NOT NULL,
	"round" integer DEFAULT 1 NOT NULL,
	"stage" text,
	"review_by" timestamp with time zone,
	"review_by_set" boolean DEFAULT false NOT NULL,
	"sent_by" uuid,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reviewed_revision" integer,
	"overdue_at" timestamp with time zone,
	CONSTRAINT "post_reviews_stage_check" CHECK ("post_reviews"."stage" is null or "post_reviews"."stage" in ('team', 'client'))
);
--> statement-breakpoint
CREATE TABLE "post_revisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"post_id" uuid NOT NULL,
	"n" integer NOT NULL,
	"caption" text NOT NULL,
	"media" jsonb NOT NULL,
	"author_id" uuid,
	"author_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "post_revisions_n" UNIQUE("post_id","n")
);
--> statement-breakpoint
CREATE TABLE "review_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"post_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_links_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "client_approvals" ADD CONSTRAINT "client_approvals_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_approvals" ADD CONSTRAINT "client_approvals_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_approvals" ADD CONSTRAINT "post_approvals_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_approvals" ADD CONSTRAINT "post_approvals_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_review_reminders" ADD CONSTRAINT "post_review_reminders_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_reviews" ADD CONSTRAINT "post_reviews_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_reviews" ADD CONSTRAINT "post_reviews_sent_by_users_id_fk" FOREIGN KEY ("sent_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_revisions" ADD CONSTRAINT "post_revisions_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_revisions" ADD CONSTRAINT "post_revisions_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_links" ADD CONSTRAINT "review_links_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_links" ADD CONSTRAINT "review_links_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "post_approvals_post_idx" ON "post_approvals" USING btree ("post_id","at");--> statement-breakpoint
CREATE INDEX "post_reviews_waiting_idx" ON "post_reviews" USING btree ("review_by") WHERE "post_reviews"."stage" is not null;--> statement-breakpoint
CREATE INDEX "review_links_post_idx" ON "review_links" USING btree ("post_id","member_id");