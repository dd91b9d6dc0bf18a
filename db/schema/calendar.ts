import { sql } from "drizzle-orm";
import { check, date, index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";

import { CHANNELS, POST_STATUSES, type Channel, type PostStatus } from "../../app/domain/calendar";
import { users } from "./core";

/*
 * The content calendar (decision 210): posts staff draft for a customer, their media and comment
 * thread, each customer's private iCalendar link, and the one review e-mail a day per customer.
 * Times are timestamptz (UTC); the viewer's zone is applied when they are shown.
 */

const id = () =>
  uuid("id")
    .primaryKey()
    .default(sql`gen_random_uuid()`);
const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const inList = (column: string, values: readonly string[]) => sql.raw(`"${column}" in (${values.map((v) => `'${v}'`).join(", ")})`);

export const posts = pgTable(
  "posts",
  {
    id: id(),
    customerId: uuid("customer_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    channel: text("channel").$type<Channel>().notNull(),
    scheduledAt: timestamp("scheduled_at", { withTimezone: true }).notNull(),
    caption: text("caption").notNull().default(""),
    status: text("status").$type<PostStatus>().notNull().default("draft"),
    /** When the post last went to review: the review e-mail waits a little so that a batch goes out as one. */
    reviewRequestedAt: timestamp("review_requested_at", { withTimezone: true }),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /** Where the post went live, as the publishing tool reported it (POST /api/posts/:id/published). */
    permalink: text("permalink"),
    publishedAt: timestamp("published_at", { withTimezone: true }),
  },
  (t) => [
    // A customer's month (decision 210): their posts by time.
    index("posts_customer_scheduled_idx").on(t.customerId, t.scheduledAt),
    // The staff calendar, every customer, by time; and filtered by status.
    index("posts_scheduled_idx").on(t.scheduledAt),
    index("posts_status_scheduled_idx").on(t.status, t.scheduledAt),
    // Posts waiting for review, for the daily e-mail.
    index("posts_in_review_idx")
      .on(t.customerId)
      .where(sql`${t.status} = 'in_review'`),
    check("posts_channel_check", inList("channel", CHANNELS)),
    check("posts_status_check", inList("status", POST_STATUSES)),
    check("posts_caption_length_check", sql`char_length(${t.caption}) <= 5000`),
  ],
);

export const postMedia = pgTable(
  "post_media",
  {
    id: id(),
    postId: uuid("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    storageKey: text("storage_key").notNull().unique(),
    fileName: text("file_name").notNull(),
    mimeType: text("mime_type").notNull(),
    fileSize: integer("file_size").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("post_media_post_idx").on(t.postId, t.createdAt)],
);

export const postComments = pgTable(
  "post_comments",
  {
    id: id(),
    postId: uuid("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    authorId: uuid("author_id").references(() => users.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("post_comments_post_idx").on(t.postId, t.createdAt)],
);

/**
 * One private iCalendar link per customer; renewing replaces it, so the old link stops. Only the
 * token's SHA-256 is kept: the token is an HMAC of the random salt (decision 212), so the page can
 * show the link again while a copy of the database opens no one's calendar.
 */
export const calendarLinks = pgTable("calendar_links", {
  customerId: uuid("customer_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  salt: text("salt").notNull(),
  tokenHash: text("token_hash").notNull().unique(),
  createdAt: createdAt(),
});

/** The review e-mail of one customer on one (UTC) day: inserting the row claims it, once across nodes. */
export const postReviewNotices = pgTable(
  "post_review_notices",
  {
    customerId: uuid("customer_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    day: date("day").notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.day] })],
);
