-- Accounts that existed before the first-visit greeting have visited already: "Welcome back".
UPDATE "users" SET "welcomed_at" = "created_at" WHERE "welcomed_at" IS NULL;
