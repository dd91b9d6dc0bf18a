import { eq, inArray } from "drizzle-orm";
import { describe, expect, test } from "vitest";

import { claimReviewNotices, sendReviewNotices } from "~/models/post-review-notices.server";
import { createPost, reviewPost, updatePost } from "~/models/posts.server";
import { db, schema } from "~/utils/db.server";

import { createAccount, type Account } from "../support/factories";
import { readOutbox } from "../support/outbox";

/** The content calendar's grouped review e-mail (decision 213): one a day at most, once across nodes. */

const at = (iso: string) => new Date(iso);
const reviewMails = (email: string) => readOutbox(email).filter((mail) => /for your review$/.test(mail.subject));

/** Posts sent for review, their review asked at a chosen moment (the app stamps the database's now()). */
async function sentForReview(staff: Account, customer: Account, requestedAt: string, captions: string[]) {
  const ids: string[] = [];
  for (const [i, caption] of captions.entries()) {
    const post = await createPost(staff, { customerId: customer.id, channel: "instagram", scheduledAt: `2031-02-0${i + 1}T10:00:00Z`, caption });
    await updatePost(staff, post.id, { status: "in_review" });
    ids.push(post.id);
  }
  await db
    .update(schema.posts)
    .set({ reviewRequestedAt: at(requestedAt) })
    .where(inArray(schema.posts.id, ids));
  return ids;
}

describe("the review e-mail", () => {
  test("a batch waits to settle, then goes out as one e-mail; at most one a day, and only for posts new since the last", async () => {
    const staff = await createAccount({ role: "team" });
    const customer = await createAccount({ role: "user", name: "Rita Review" });
    const [first] = await sentForReview(staff, customer, "2031-01-10T08:00:00Z", ["Spring launch", "Behind the scenes"]);

    // Five minutes after the batch: staff may still be sending more.
    expect(await claimReviewNotices(at("2031-01-10T08:05:00Z"))).not.toContain(customer.id);
    // Two nodes sweep at once after it settled: one of them claims the customer's day.
    const [a, b] = await Promise.all([claimReviewNotices(at("2031-01-10T08:15:00Z")), claimReviewNotices(at("2031-01-10T08:15:00Z"))]);
    expect([...a, ...b].filter((id) => id === customer.id)).toHaveLength(1);
    await db.delete(schema.postReviewNotices).where(eq(schema.postReviewNotices.customerId, customer.id));

    const sent = await Promise.all([sendReviewNotices(at("2031-01-10T08:15:00Z")), sendReviewNotices(at("2031-01-10T08:15:00Z"))]);
    expect(sent.reduce((x, y) => x + y, 0)).toBeGreaterThanOrEqual(1);
    let mails = reviewMails(customer.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("2 posts wait for your review");
    expect(mails[0]!.text).toContain("Rita Review");
    expect(mails[0]!.text).toContain("Spring launch");
    expect(mails[0]!.text).toContain("Behind the scenes");
    expect(mails[0]!.text).toContain("/dashboard/calendar");

    // Later the same day another post goes to review: it waits for tomorrow's e-mail.
    await reviewPost(customer, first!, { decision: "approve" });
    await sentForReview(staff, customer, "2031-01-10T12:00:00Z", ["Summer teaser"]);
    await sendReviewNotices(at("2031-01-10T13:00:00Z"));
    expect(reviewMails(customer.email)).toHaveLength(1);

    await sendReviewNotices(at("2031-01-11T07:00:00Z"));
    mails = reviewMails(customer.email);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.subject).toBe("2 posts wait for your review");
    expect(mails[1]!.text).toContain("Summer teaser");
    expect(mails[1]!.text).not.toContain("Spring launch");

    // Nothing new went to review since: no e-mail the day after, though posts still wait.
    await sendReviewNotices(at("2031-01-12T07:00:00Z"));
    expect(reviewMails(customer.email)).toHaveLength(2);
  });

  test("no e-mail for drafts, for posts already reviewed, or to a disabled account", async () => {
    const staff = await createAccount({ role: "team" });
    const quiet = await createAccount({ role: "user" });
    const disabled = await createAccount({ role: "user" });
    await createPost(staff, { customerId: quiet.id, channel: "x", scheduledAt: "2031-03-01T10:00:00Z", caption: "Draft only" });
    const [reviewed] = await sentForReview(staff, quiet, "2031-03-01T08:00:00Z", ["Reviewed already"]);
    await reviewPost(quiet, reviewed!, { decision: "request_changes", comment: "Warmer, please" });
    await sentForReview(staff, disabled, "2031-03-01T08:00:00Z", ["Nobody reads this"]);
    await db.update(schema.users).set({ disabledAt: new Date() }).where(eq(schema.users.id, disabled.id));

    await sendReviewNotices(at("2031-03-01T09:00:00Z"));
    expect(reviewMails(quiet.email)).toHaveLength(0);
    expect(reviewMails(disabled.email)).toHaveLength(0);
  });
});
