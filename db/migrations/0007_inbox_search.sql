-- The inbox search (docs/decisions/095-thread-summary.md): one text-search document per
-- thread (the words of all its messages, and a visitor's name and address), kept up to date with
-- each message, so a search finds threads through one GIN index instead of a million messages;
-- names and e-mails of accounts through an expression index on users. Hand-written: the column is
-- maintained by SQL in app/models/chat.server.ts and is not part of the drizzle schema.
ALTER TABLE "chat_threads" ADD COLUMN IF NOT EXISTS "search_document" tsvector NOT NULL DEFAULT ''::tsvector;--> statement-breakpoint
UPDATE "chat_threads" t SET "search_document" = strip(
	to_tsvector('simple', coalesce(t."visitor_name", '') || ' ' || coalesce(t."visitor_email", '')) ||
	coalesce((SELECT to_tsvector('simple', string_agg(m."message", ' ')) FROM "chat_messages" m WHERE m."room_id" = t."room_id"), ''::tsvector)
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "chat_threads_search_idx" ON "chat_threads" USING gin ("search_document");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_search_idx" ON "users" USING gin (to_tsvector('simple', "name" || ' ' || "email"));--> statement-breakpoint
-- A joined visitor thread brings its words along.
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
			"search_document" = c."search_document" || visitor."search_document",
			"updated_at" = now()
		WHERE c."id" = own;
		DELETE FROM "chat_threads" WHERE "id" = visitor."id";
	END IF;
	RETURN NEW;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- The threads a search finds, through the two GIN indexes. A function so that its settings hold
-- for it alone: the planner prices a scan of 10,000 thread documents below the index because it
-- does not count reading each (large, out-of-line) document, and parallel workers cost more to
-- start than these lookups take.
CREATE OR REPLACE FUNCTION "inbox_thread_search"(q tsquery) RETURNS SETOF uuid
LANGUAGE sql STABLE ROWS 100
SET enable_seqscan = off SET max_parallel_workers_per_gather = 0
AS $$
	SELECT s."id" FROM "chat_threads" s WHERE s."search_document" @@ q
	UNION
	SELECT a."id" FROM "chat_threads" a JOIN "users" u ON u."id" = a."customer_id"
	WHERE to_tsvector('simple', u."name" || ' ' || u."email") @@ q
$$;
