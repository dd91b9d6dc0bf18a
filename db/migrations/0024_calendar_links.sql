DELETE FROM "calendar_links";--> statement-breakpoint
ALTER TABLE "calendar_links" DROP CONSTRAINT "calendar_links_token_unique";--> statement-breakpoint
ALTER TABLE "calendar_links" ADD COLUMN "salt" text NOT NULL;--> statement-breakpoint
ALTER TABLE "calendar_links" ADD COLUMN "token_hash" text NOT NULL;--> statement-breakpoint
ALTER TABLE "calendar_links" DROP COLUMN "token";--> statement-breakpoint
ALTER TABLE "calendar_links" ADD CONSTRAINT "calendar_links_token_hash_unique" UNIQUE("token_hash");