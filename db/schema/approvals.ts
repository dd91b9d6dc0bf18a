import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";

import { posts } from "./calendar";
import { clients } from "./clients";
import { users } from "./core";

/*
 * Approvals that do not stall (decisions 292–294): each client's approval settings, where a post
 * stands in its review (deadline, stage, round), every decision under the member's name, the
 * reminders already claimed, the e-mailed review links (their SHA-256 only) and the revisions of
 * a post's caption and media after it was first sent for review.
 */

const id = () =>
  uuid("id")
    .primaryKey()
    .default(sql`gen_random_uuid()`);
const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

/** A client's approval settings; a client without a row has the defaults (required, any, hold, 48). */
export const clientApprovals = pgTable(
  "client_approvals",
  {
    clientId: uuid("client_id")
      .primaryKey()
      .references(() => clients.id, { onDelete: "cascade" }),
    mode: text("mode").notNull(),
    approvers: text("approvers").notNull(),
    onDeadline: text("on_deadline").notNull(),
    reviewHours: integer("review_hours").notNull(),
    updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  () => [
    check("client_approvals_mode_check", sql`"mode" in ('none', 'required', 'two_step')`),
    check("client_approvals_approvers_check", sql`"approvers" in ('any', 'all')`),
    check("client_approvals_deadline_check", sql`"on_deadline" in ('hold', 'approve')`),
    check("client_approvals_hours_check", sql`"review_hours" between 0 and 720`),
  ],
);

/**
 * Where a post stands in its review: one row from the first time it was sent. `round` grows each
 * time it is sent again (decisions count only in their round); `reviewBy` is its deadline.
 */
export const postReviews = pgTable(
  "post_reviews",
  {
    postId: uuid("post_id")
      .primaryKey()
      .references(() => posts.id, { onDelete: "cascade" }),
    round: integer("round").notNull().default(1),
    /** "team" (two_step's first stage), "client", or null once decided. */
    stage: text("stage"),
    reviewBy: timestamp("review_by", { withTimezone: true }),
    /** Staff set the deadline by hand: a new time does not move it. */
    reviewBySet: boolean("review_by_set").notNull().default(false),
    /** Who sent it for review this round (two_step: someone else approves first). */
    sentBy: uuid("sent_by").references(() => users.id, { onDelete: "set null" }),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
    /** The revision the last decision was made on (the post's page shows what changed since). */
    reviewedRevision: integer("reviewed_revision"),
    /** Its deadline passed while it waited (cleared when it is sent again). */
    overdueAt: timestamp("overdue_at", { withTimezone: true }),
  },
  (t) => [
    // The deadline sweep: posts still waiting, by deadline.
    index("post_reviews_waiting_idx")
      .on(t.reviewBy)
      .where(sql`${t.stage} is not null`),
    check("post_reviews_stage_check", sql`${t.stage} is null or ${t.stage} in ('team', 'client')`),
  ],
);

/** Every decision on a post, under the member's name as it was; one per member, round and stage. */
export const postApprovals = pgTable(
  "post_approvals",
  {
    id: id(),
    postId: uuid("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    round: integer("round").notNull(),
    stage: text("stage").notNull(),
    memberId: uuid("member_id").references(() => users.id, { onDelete: "set null" }),
    memberName: text("member_name").notNull(),
    decision: text("decision").notNull(),
    /** Made through an e-mailed review link. */
    viaLink: boolean("via_link").notNull().default(false),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("post_approvals_post_idx").on(t.postId, t.at),
    unique("post_approvals_once").on(t.postId, t.round, t.stage, t.memberId),
    check("post_approvals_decision_check", sql`${t.decision} in ('approve', 'request_changes', 'auto_approve')`),
  ],
);

/** A reminder or deadline notice claimed for one deadline: inserting the row sends it, once across nodes. */
export const postReviewReminders = pgTable(
  "post_review_reminders",
  {
    postId: uuid("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    /** "before" (24 hours ahead), "due" (at the deadline), "overdue" (past it: owners and staff told). */
    kind: text("kind").notNull(),
    reviewBy: timestamp("review_by", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.kind, t.reviewBy] })],
);

/** An e-mailed review link: one post, one member, until `expiresAt`, spent once. Only its hash is kept. */
export const reviewLinks = pgTable(
  "review_links",
  {
    id: id(),
    tokenHash: text("token_hash").notNull().unique(),
    postId: uuid("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    memberId: uuid("member_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("review_links_post_idx").on(t.postId, t.memberId)],
);

/** A post's caption and media after each edit made once it was first sent for review (n = 1 is what was first sent). */
export const postRevisions = pgTable(
  "post_revisions",
  {
    id: id(),
    postId: uuid("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    n: integer("n").notNull(),
    caption: text("caption").notNull(),
    media: jsonb("media").$type<{ _id: string; mimeType: string }[]>().notNull(),
    authorId: uuid("author_id").references(() => users.id, { onDelete: "set null" }),
    authorName: text("author_name").notNull(),
    createdAt: createdAt(),
  },
  (t) => [unique("post_revisions_n").on(t.postId, t.n)],
);
