-- Contact-form messages stay a visitor's messages (docs/decisions/125-contact-form-stays-a-visitor.md):
-- an account created with, or changed to, a visitor thread's address no longer takes over that
-- thread, whose messages anyone could have sent with that address.
DROP TRIGGER IF EXISTS "users_join_visitor_thread" ON "users";--> statement-breakpoint
DROP FUNCTION IF EXISTS "chat_join_visitor_thread"();
