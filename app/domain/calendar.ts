/*
 * The content calendar (issue 24.2): the channels a post is for, its statuses and who sees them,
 * the upload rules of its media, and the one way a post's time is written for a viewer
 * ("Tue 3 Dec, 14:00 CET": stored in UTC, shown in the viewer's named time zone, decision 210).
 */

export const CHANNELS = ["instagram", "tiktok", "facebook", "linkedin", "x", "youtube"] as const;
export type Channel = (typeof CHANNELS)[number];

export const POST_STATUSES = ["draft", "in_review", "changes_requested", "approved", "published"] as const;
export type PostStatus = (typeof POST_STATUSES)[number];
export const isVisibleToCustomer = (status: PostStatus) => status !== "draft";
/** The statuses staff set with PATCH; `changes_requested` and `approved` are the customer's review. */
export const STAFF_STATUSES = ["draft", "in_review", "published"] as const;
export type StaffStatus = (typeof STAFF_STATUSES)[number];

export const CAPTION_MAX = 5000;
export const COMMENT_MAX = 5000;
/** At most this many files on one post (a carousel). */
export const MAX_POST_MEDIA = 10;

export const MEDIA_TYPES: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  mp4: "video/mp4",
};
export const MAX_MEDIA_BYTES = 50 * 1024 * 1024;
export const MEDIA_MESSAGES = {
  file: "Please select an image or video to add",
  size: "File size must be less than 50MB",
  type: "Please add only images (PNG, JPG, WebP, GIF) or MP4 videos",
  tooMany: `A post has at most ${MAX_POST_MEDIA} files.`,
} as const;

export const POST_MESSAGES = {
  notFound: "Post not found.",
  customerNotFound: "Customer not found.",
  reviewStatus: "Only a post waiting for review can be approved or sent back.",
  commentRequired: "Please say what should change.",
  published: "A published post can no longer be changed.",
  publishUnapproved: "Only an approved post can be marked published.",
} as const;

/**
 * Staff moving a post: to draft (withdrawn) from anything not yet published, to review from a
 * draft, a post with changes requested or an approved one, to published only once approved.
 * Null when the move is allowed, else why not.
 */
export function staffMoveRefusal(from: PostStatus, to: StaffStatus): string | null {
  if (from === to) return null;
  if (from === "published") return POST_MESSAGES.published;
  if (to === "published" && from !== "approved") return POST_MESSAGES.publishUnapproved;
  return null;
}
