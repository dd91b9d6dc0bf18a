import { line, z } from "./zod";

/*
 * The publishing hand-off (docs/decisions/285): a publishing tool reports where an approved post went
 * live with POST /api/posts/:id/published; staff and the client then see the link on the post.
 */

export const PERMALINK_MAX = 2000;
/** A tool's clock may run a little ahead of ours. */
const FUTURE_SLACK_MS = 5 * 60_000;

export const PUBLISH_MESSAGES = {
  permalink: "The permalink must be an https:// address.",
  permalinkLength: `The permalink is at most ${PERMALINK_MAX} characters.`,
  publishedAt: "publishedAt must be a date and time (ISO 8601) that is not in the future.",
  notApproved: "Only an approved post can be marked published: this one is not approved yet.",
  alreadyPublished: "This post is already marked published with another permalink.",
} as const;

function isHttpsUrl(value: string) {
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.hostname.length > 0 && !url.username && !url.password;
  } catch {
    return false;
  }
}

export const publishPostSchema = z.object({
  permalink: line(z.string({ error: PUBLISH_MESSAGES.permalink }).trim().max(PERMALINK_MAX, PUBLISH_MESSAGES.permalinkLength), "The permalink")
    .refine(isHttpsUrl, PUBLISH_MESSAGES.permalink)
    .meta({ description: "Where the post went live (https).", format: "uri", pattern: "^https://" }),
  publishedAt: z
    .string({ error: PUBLISH_MESSAGES.publishedAt })
    .datetime({ offset: true, error: PUBLISH_MESSAGES.publishedAt })
    .refine((value) => Date.parse(value) <= Date.now() + FUTURE_SLACK_MS, PUBLISH_MESSAGES.publishedAt)
    .optional()
    .meta({ description: "When it went live; now when left out." }),
});
