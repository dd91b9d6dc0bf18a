import { sql } from "drizzle-orm";
import { check, index, jsonb, pgTable, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";

import type { BriefAnswers, BriefQuestion } from "../../app/domain/brief";
import { purchases, subscriptions, users } from "./core";

/*
 * Briefs (decision 200): the questions staff ask the buyer of a service or a plan, and each paid
 * purchase's or subscription's answers. A brief copies its questions when the purchase is paid, so
 * editing the questions later changes only the briefs of orders paid afterwards (decision 200).
 */

const id = () =>
  uuid("id")
    .primaryKey()
    .default(sql`gen_random_uuid()`);
const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

/** The questions of one service or plan (`subject_id` is the service's or the plan's id). */
export const briefForms = pgTable(
  "brief_forms",
  {
    id: id(),
    subject: text("subject").$type<"service" | "plan">().notNull(),
    subjectId: uuid("subject_id").notNull(),
    questions: jsonb("questions").$type<BriefQuestion[]>().notNull().default([]),
    updatedById: uuid("updated_by_id").references(() => users.id, { onDelete: "set null" }),
    updatedAt: updatedAt(),
  },
  (t) => [unique("brief_forms_subject_key").on(t.subject, t.subjectId), check("brief_forms_subject_check", sql`${t.subject} in ('service', 'plan')`)],
);

/**
 * One purchase's or one subscription's brief: the questions as they were when it was paid, the
 * answers, when they were sent, and when the one reminder went out (claimed by a conditional
 * update, so two nodes sweeping at once send it once).
 */
export const briefs = pgTable(
  "briefs",
  {
    id: id(),
    purchaseId: uuid("purchase_id").references(() => purchases.id, { onDelete: "cascade" }),
    subscriptionId: uuid("subscription_id").references(() => subscriptions.id, { onDelete: "cascade" }),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    questions: jsonb("questions").$type<BriefQuestion[]>().notNull(),
    answers: jsonb("answers").$type<BriefAnswers>().notNull().default({}),
    paidAt: timestamp("paid_at", { withTimezone: true }).notNull(),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
    remindedAt: timestamp("reminded_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique("briefs_purchase_key").on(t.purchaseId),
    unique("briefs_subscription_key").on(t.subscriptionId),
    index("briefs_user_idx").on(t.userId),
    // The reminder sweep reads only the briefs still waiting for their one reminder.
    index("briefs_reminder_idx")
      .on(t.paidAt)
      .where(sql`${t.submittedAt} is null and ${t.remindedAt} is null`),
    check("briefs_subject_check", sql`(${t.purchaseId} is null) <> (${t.subscriptionId} is null)`),
  ],
);
