/*
 * Every table of the database, by area. The core (accounts, catalogue rows, orders, purchases,
 * reports, chat) is in schema/core.ts; later areas import from it, never from this file, so the
 * schema has no import circle. drizzle-kit and app/utils/db.server.ts read this file.
 */
export * from "./schema/core";
export * from "./schema/inbox";
export * from "./schema/catalogue";
export * from "./schema/billing";
export * from "./schema/ops";
export * from "./schema/grader";
export * from "./schema/workspace";
export * from "./schema/calendar";
export * from "./schema/audit";
export * from "./schema/briefs";
export * from "./schema/security";
export * from "./schema/two-factor";
export * from "./schema/report-versions";
export * from "./schema/jobs";
export * from "./schema/clients";
export * from "./schema/api-keys";
export * from "./schema/approvals";
export * from "./schema/webhooks";
export * from "./schema/notifications";
