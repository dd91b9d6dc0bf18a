CREATE TABLE "chat_thread_words" (
	"thread_id" uuid NOT NULL,
	"page" integer NOT NULL,
	"document" "tsvector" NOT NULL,
	CONSTRAINT "chat_thread_words_thread_id_page_pk" PRIMARY KEY("thread_id","page")
);
--> statement-breakpoint
ALTER TABLE "chat_thread_words" ADD CONSTRAINT "chat_thread_words_thread_id_chat_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."chat_threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_thread_words_document_idx" ON "chat_thread_words" USING gin ("document");--> statement-breakpoint
-- Hand-written (docs/decisions/337): a thread's message words move to pages of their own. Each
-- thread's document so far becomes its first page; the thread row keeps only a visitor's name and
-- address, which a message never changes, so storing a message no longer rewrites the document.
INSERT INTO "chat_thread_words" ("thread_id", "page", "document")
	SELECT "id", 0, "search_document" FROM "chat_threads" WHERE length("search_document") > 0;--> statement-breakpoint
UPDATE "chat_threads" SET "search_document" = CASE WHEN "visitor_email" IS NULL THEN ''::tsvector
	ELSE strip(to_tsvector('simple', coalesce("visitor_name", '') || ' ' || "visitor_email")) END;--> statement-breakpoint
-- The threads a search finds: each word (a tsquery of its own, in `words`) on one of the thread's
-- pages or in its visitor document; or every word in its customer's name and e-mail (`q`, the words
-- together). A word's UNION names each thread once, so a thread found by every word is counted
-- once a word. The same settings as before, for the same reasons (migration 0007).
DROP FUNCTION IF EXISTS "inbox_thread_search"(tsquery);--> statement-breakpoint
CREATE OR REPLACE FUNCTION "inbox_thread_search"(q tsquery, words tsquery[]) RETURNS SETOF uuid
LANGUAGE sql STABLE ROWS 100
SET enable_seqscan = off SET max_parallel_workers_per_gather = 0
AS $$
	SELECT hit."id" FROM unnest(words) WITH ORDINALITY AS w("word", "n")
	CROSS JOIN LATERAL (
		SELECT p."thread_id" AS "id" FROM "chat_thread_words" p WHERE p."document" @@ w."word"
		UNION
		SELECT v."id" FROM "chat_threads" v WHERE v."search_document" @@ w."word"
	) hit
	GROUP BY hit."id" HAVING count(*) = cardinality(words)
	UNION
	SELECT a."id" FROM "chat_threads" a JOIN "users" u ON u."id" = a."customer_id"
	WHERE to_tsvector('simple', u."name" || ' ' || u."email") @@ q
$$;
