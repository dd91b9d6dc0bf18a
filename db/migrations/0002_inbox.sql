-- The support inbox (docs/decisions/095-thread-summary.md and 096-visitor-threads.md).
-- Hand-written: idempotent DDL (another migration of this round may already have created these
-- tables), the backfill of the thread summary from existing messages and contact-form messages,
-- and the trigger that joins a visitor's thread when an account with that e-mail appears.
CREATE TABLE IF NOT EXISTS "chat_threads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"room_id" text NOT NULL,
	"customer_id" uuid,
	"visitor_email" text,
	"visitor_name" text,
	"status" text DEFAULT 'open' NOT NULL,
	"assignee_id" uuid,
	"last_message_id" uuid,
	"last_message_at" timestamp with time zone,
	"team_unread" integer DEFAULT 0 NOT NULL,
	"customer_unread" integer DEFAULT 0 NOT NULL,
	"team_read_message_id" uuid,
	"customer_read_message_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chat_threads_room_id_unique" UNIQUE("room_id"),
	CONSTRAINT "chat_threads_customer_id_unique" UNIQUE("customer_id"),
	CONSTRAINT "chat_threads_status_check" CHECK ("status" in ('open', 'closed')),
	CONSTRAINT "chat_threads_owner_check" CHECK ("chat_threads"."customer_id" is not null or "chat_threads"."visitor_email" is not null),
	CONSTRAINT "chat_threads_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action,
	CONSTRAINT "chat_threads_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action,
	CONSTRAINT "chat_threads_last_message_id_chat_messages_id_fk" FOREIGN KEY ("last_message_id") REFERENCES "public"."chat_messages"("id") ON DELETE set null ON UPDATE no action
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "chat_attachments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"room_id" text NOT NULL,
	"uploader_id" uuid NOT NULL,
	"message_id" uuid,
	"storage_key" text NOT NULL,
	"file_name" text NOT NULL,
	"mime_type" text NOT NULL,
	"file_size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chat_attachments_storage_key_unique" UNIQUE("storage_key"),
	CONSTRAINT "chat_attachments_uploader_id_users_id_fk" FOREIGN KEY ("uploader_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action,
	CONSTRAINT "chat_attachments_message_id_chat_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."chat_messages"("id") ON DELETE cascade ON UPDATE no action
);
--> statement-breakpoint
ALTER TABLE "chat_messages" ALTER COLUMN "sender_id" DROP NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "chat_attachments_message_idx" ON "chat_attachments" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "chat_attachments_room_idx" ON "chat_attachments" USING btree ("room_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "chat_threads_latest_idx" ON "chat_threads" USING btree ("last_message_at" desc nulls last,"id" desc);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "chat_threads_status_latest_idx" ON "chat_threads" USING btree ("status","last_message_at" desc nulls last);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "chat_threads_assignee_idx" ON "chat_threads" USING btree ("assignee_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "chat_threads_team_unread_idx" ON "chat_threads" USING btree ("customer_id") WHERE "chat_threads"."team_unread" > 0;--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "chat_threads_visitor_email_idx" ON "chat_threads" USING btree ("visitor_email") WHERE "chat_threads"."customer_id" is null;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "chat_messages_search_idx" ON "chat_messages" USING gin (to_tsvector('simple', "message"));--> statement-breakpoint

-- Backfill 1: contact-form messages become messages of a thread. An address with an account goes
-- into that customer's own thread; the others into one visitor thread per address.
INSERT INTO "chat_threads" ("id", "room_id", "visitor_email", "visitor_name", "created_at", "updated_at")
SELECT v."id", 'visitor-' || v."id", v."email", v."name", v."first_at", v."first_at"
FROM (
	SELECT gen_random_uuid() AS "id", lower(c."email") AS "email",
		(array_agg(nullif(trim(concat_ws(' ', c."first_name", c."last_name")), '') ORDER BY c."created_at" DESC))[1] AS "name",
		min(c."created_at") AS "first_at"
	FROM "contact_messages" c
	WHERE NOT EXISTS (SELECT 1 FROM "users" u WHERE lower(u."email") = lower(c."email") AND u."role" = 'user')
	GROUP BY lower(c."email")
) v
ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "chat_messages" ("room_id", "sender_id", "customer_id", "message", "message_type", "created_at")
SELECT coalesce('support-' || u."id", t."room_id"), u."id", u."id",
	left(coalesce(nullif(trim(c."message"), ''), '(No message, they asked to be contacted.)'), 2000), 'text', c."created_at"
FROM "contact_messages" c
LEFT JOIN "users" u ON lower(u."email") = lower(c."email") AND u."role" = 'user'
LEFT JOIN "chat_threads" t ON t."customer_id" IS NULL AND t."visitor_email" = lower(c."email")
WHERE u."id" IS NOT NULL OR t."id" IS NOT NULL;--> statement-breakpoint

-- Backfill 2: one summary per customer thread, from its messages, with the unread rules of
-- decision 050 (staff: customer messages after the last staff read and after the last staff reply).
INSERT INTO "chat_threads" ("room_id", "customer_id", "created_at", "updated_at")
SELECT DISTINCT m."room_id", m."customer_id", now(), now()
FROM "chat_messages" m
WHERE m."customer_id" IS NOT NULL AND m."room_id" = 'support-' || m."customer_id"
ON CONFLICT DO NOTHING;--> statement-breakpoint
UPDATE "chat_threads" t SET
	"last_message_id" = last."id",
	"last_message_at" = last."created_at",
	"updated_at" = coalesce(last."created_at", t."updated_at")
FROM (
	SELECT DISTINCT ON (m."room_id") m."room_id", m."id", m."created_at"
	FROM "chat_messages" m
	ORDER BY m."room_id", m."created_at" DESC, m."id" DESC
) last
WHERE last."room_id" = t."room_id" AND t."last_message_id" IS NULL;--> statement-breakpoint
UPDATE "chat_threads" t SET
	"team_unread" = (
		SELECT count(*) FROM "chat_messages" m
		WHERE m."room_id" = t."room_id" AND (m."sender_id" IS NULL OR m."sender_id" = t."customer_id")
			AND m."created_at" > coalesce((SELECT max(rp."last_read_at") FROM "chat_read_positions" rp JOIN "users" s ON s."id" = rp."user_id"
				WHERE s."role" = 'team' AND rp."room_id" = t."room_id"), 'epoch')
			AND m."created_at" > coalesce((SELECT max(r."created_at") FROM "chat_messages" r
				WHERE r."room_id" = t."room_id" AND r."sender_id" IS NOT NULL AND r."sender_id" IS DISTINCT FROM t."customer_id"), 'epoch')
	),
	"customer_unread" = CASE WHEN t."customer_id" IS NULL THEN 0 ELSE (
		SELECT count(*) FROM "chat_messages" m
		WHERE m."room_id" = t."room_id" AND m."sender_id" IS NOT NULL AND m."sender_id" <> t."customer_id"
			AND m."created_at" > coalesce((SELECT rp."last_read_at" FROM "chat_read_positions" rp
				WHERE rp."user_id" = t."customer_id" AND rp."room_id" = t."room_id"), 'epoch')
	) END;--> statement-breakpoint

-- A visitor who later becomes a customer (an account is created, or an account's e-mail changes
-- to the visitor's address): the visitor's thread joins the customer's conversation.
CREATE OR REPLACE FUNCTION "chat_join_visitor_thread"() RETURNS trigger AS $$
DECLARE
	visitor "chat_threads"%ROWTYPE;
	own uuid;
	room text := 'support-' || NEW."id";
BEGIN
	IF NEW."role" <> 'user' THEN RETURN NEW; END IF;
	SELECT * INTO visitor FROM "chat_threads" WHERE "customer_id" IS NULL AND "visitor_email" = lower(NEW."email") FOR UPDATE;
	IF NOT FOUND THEN RETURN NEW; END IF;
	UPDATE "chat_messages" SET
		"room_id" = room,
		"customer_id" = NEW."id",
		"receiver_id" = CASE WHEN "sender_id" IS NULL THEN NULL ELSE NEW."id" END,
		"sender_id" = coalesce("sender_id", NEW."id")
	WHERE "room_id" = visitor."room_id";
	UPDATE "chat_attachments" SET "room_id" = room WHERE "room_id" = visitor."room_id";
	SELECT "id" INTO own FROM "chat_threads" WHERE "customer_id" = NEW."id" FOR UPDATE;
	IF own IS NULL THEN
		UPDATE "chat_threads" SET "customer_id" = NEW."id", "room_id" = room, "updated_at" = now() WHERE "id" = visitor."id";
	ELSE
		UPDATE "chat_threads" c SET
			"team_unread" = c."team_unread" + visitor."team_unread",
			"last_message_id" = CASE WHEN c."last_message_at" IS NULL OR visitor."last_message_at" > c."last_message_at" THEN visitor."last_message_id" ELSE c."last_message_id" END,
			"last_message_at" = greatest(c."last_message_at", visitor."last_message_at"),
			"status" = CASE WHEN visitor."team_unread" > 0 THEN 'open' ELSE c."status" END,
			"assignee_id" = coalesce(c."assignee_id", visitor."assignee_id"),
			"updated_at" = now()
		WHERE c."id" = own;
		DELETE FROM "chat_threads" WHERE "id" = visitor."id";
	END IF;
	RETURN NEW;
END
$$ LANGUAGE plpgsql;--> statement-breakpoint
DROP TRIGGER IF EXISTS "users_join_visitor_thread" ON "users";--> statement-breakpoint
CREATE TRIGGER "users_join_visitor_thread" AFTER INSERT OR UPDATE OF "email" ON "users"
	FOR EACH ROW EXECUTE FUNCTION "chat_join_visitor_thread"();
