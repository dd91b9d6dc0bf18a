import { CAPTION_MAX, CHANNELS, COMMENT_MAX, POST_STATUSES, STAFF_STATUSES } from "~/domain/calendar";
import { dateTimeField, dayOrDateTimeField } from "~/domain/dates";
import { isUuid } from "~/domain/ids";
import { postReviewJson } from "~/domain/schemas/approvals";
import { ROLES } from "~/domain/status";
import { text, z } from "~/domain/zod";

/*
 * The content calendar's inputs and answers (contracts: posts, reviews, comments, the calendar
 * link). One schema per body, shared by the API and the no-JavaScript forms.
 */

const channel = z.enum(CHANNELS, { error: `Channel must be one of ${CHANNELS.join(", ")}.` });
const scheduledAt = dateTimeField("scheduledAt");
const caption = text(
  z
    .string({ error: "Caption must be text." })
    .trim()
    .max(CAPTION_MAX, { error: `A caption is at most ${CAPTION_MAX.toLocaleString("en-US")} characters.` }),
  "Caption",
);
const uuid = (message: string) => z.string({ error: message }).refine(isUuid, { error: message }).meta({ format: "uuid" });

export const createPostSchema = z.object({
  customerId: uuid("customerId is required: the customer the post is for."),
  channel,
  scheduledAt,
  caption: caption.default(""),
});

export const updatePostSchema = z.object({
  channel: channel.optional(),
  scheduledAt: scheduledAt.optional(),
  caption: caption.optional(),
  status: z.enum(STAFF_STATUSES, { error: `Status must be one of ${STAFF_STATUSES.join(", ")}.` }).optional(),
  /** The review deadline set by hand (decision 292): a post in review keeps it whatever its time. */
  reviewBy: dateTimeField("reviewBy").optional(),
});

const commentBody = (label: string, required: string) =>
  text(
    z
      .string({ error: required })
      .trim()
      .min(1, { error: required })
      .max(COMMENT_MAX, { error: `A comment is at most ${COMMENT_MAX.toLocaleString("en-US")} characters.` }),
    label,
  );

export const reviewSchema = z.object({
  decision: z.enum(["approve", "request_changes"], { error: "decision must be approve or request_changes." }),
  // Optional (asking for changes needs one, which the model checks): an empty comment is none.
  comment: z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    text(
      z
        .string({ error: "Comment must be text." })
        .trim()
        .max(COMMENT_MAX, { error: `A comment is at most ${COMMENT_MAX.toLocaleString("en-US")} characters.` }),
      "Comment",
    ).optional(),
  ),
});

export const commentSchema = z.object({ body: commentBody("Comment", "Please write a comment.") });

export const listPostsQuery = z.object({
  customerId: uuid("customerId must be a customer's id.").optional(),
  from: dayOrDateTimeField("from").optional(),
  to: dayOrDateTimeField("to").optional(),
  status: z.enum(POST_STATUSES, { error: `status must be one of ${POST_STATUSES.join(", ")}.` }).optional(),
});

const id = z.string().meta({ format: "uuid" });
const isoDate = z.string().meta({ format: "date-time" });

export const commentJson = z.object({
  _id: id,
  author: z.object({ _id: id, name: z.string(), role: z.enum(ROLES) }).nullable(),
  body: z.string(),
  createdAt: isoDate,
});
export type CommentJson = z.infer<typeof commentJson>;

export const postJson = z.object({
  _id: id,
  customer: z.object({ _id: id, name: z.string() }),
  channel: z.enum(CHANNELS),
  scheduledAt: isoDate,
  caption: z.string(),
  media: z.array(z.object({ _id: id, mimeType: z.string(), url: z.string().meta({ description: "The file, for the signed-in owner and staff." }) })),
  status: z.enum(POST_STATUSES),
  /** Its review (decisions 292–294): deadline, stage, this round's decisions, past its deadline. */
  ...postReviewJson,
  comments: z.array(commentJson),
  updatedAt: isoDate,
  /** Where it went live, as its publishing tool reported (null until then, or when staff marked it by hand). */
  permalink: z.string().nullable(),
  publishedAt: isoDate.nullable(),
});
export type PostJson = z.infer<typeof postJson>;
