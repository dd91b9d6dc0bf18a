import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

import type { AreaResult, GradeAnswers, Letter } from "../../app/domain/grader";

/*
 * The social media grader: each grade keeps the answers and the result it was given (a shared
 * link shows the same report card even after the model changes); a lead is a grade whose visitor
 * left an e-mail address. Whether a lead became a customer is read from users by e-mail.
 */

const id = () =>
  uuid("id")
    .primaryKey()
    .default(sql`gen_random_uuid()`);
const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

export const grades = pgTable(
  "grades",
  {
    /** Random (v4): the id is the only key to a grade's page. */
    id: id(),
    answers: jsonb("answers").$type<GradeAnswers>().notNull(),
    score: integer("score").notNull(),
    overall: text("overall").$type<Letter>().notNull(),
    areas: jsonb("areas").$type<AreaResult[]>().notNull(),
    /** The service slugs recommended, weakest area first, with the reason shown. */
    recommendations: jsonb("recommendations").$type<Array<{ serviceSlug: string; reason: string }>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [check("grades_score_check", sql`${t.score} between 0 and 100`)],
);

export const leads = pgTable(
  "leads",
  {
    id: id(),
    gradeId: uuid("grade_id")
      .notNull()
      .references(() => grades.id, { onDelete: "cascade" }),
    /** Lower case. */
    email: text("email").notNull(),
    name: text("name"),
    createdAt: createdAt(),
  },
  (t) => [index("leads_email_idx").on(t.email), index("leads_created_idx").on(t.createdAt.desc(), t.id.desc())],
);

/** One report e-mail per address per day, claimed atomically (insert or update only when a day old). */
export const gradeEmails = pgTable("grade_emails", {
  email: text("email").primaryKey(),
  sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
});
