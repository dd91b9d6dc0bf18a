import { and, asc, eq, inArray } from "drizzle-orm";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, test } from "vitest";

import { ReviewSummary } from "~/components/calendar/review-summary";
import type { ClientRole } from "~/domain/clients";
import type { Actor } from "~/domain/permissions";
import { reviewChangesOf } from "~/models/post-approvals.server";
import { runReviewDeadlines, startReviewDeadlineSweep } from "~/models/post-review-deadlines.server";
import { addPostMedia, createPost, getPostFor, reviewPost, updatePost } from "~/models/posts.server";
import * as approvalApi from "~/routes/api+/clients+/$id.approval";
import * as postApi from "~/routes/api+/posts+/$id";
import * as reviewApi from "~/routes/api+/posts+/$id.review";
import * as revisionsApi from "~/routes/api+/posts+/$id.revisions";
import * as approvalPage from "~/routes/dashboard+/_staff+/users+/$userId.approval";
import * as calendarPage from "~/routes/dashboard+/calendar";
import * as reviewPage from "~/routes/review.$token";
import { db, schema } from "~/utils/db.server";
import { jobCounts, JobEngine } from "~/utils/jobs.server";
import { redactUrl } from "~/utils/logger.server";

import { callRoute } from "../support/call-route";
import { call, readJson } from "../support/dashboard-helpers";
import { createAccount, sessionCookieFor, type Account } from "../support/factories";
import { samples } from "../support/reports-cases";
import { BASE_URL } from "../support/requests";

/*
 * Approvals that do not stall (decisions 292–294): each mode, any or all approvers, changes win,
 * two_step's second team member, deadlines (reminders once across nodes, overdue, approved at the
 * deadline with an audit entry), review links (once, until reviewBy + 7 days, for one member and
 * post) and revisions with the word-level difference since the last decision.
 */

const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });
const HOUR = 3600 * 1000;

/** A client (its owner) with members of the given roles; each member an actor and an account. */
async function client(name: string, roles: ClientRole[] = []) {
  const owner = await createAccount({ role: "user", name });
  const members: (Account & { actor: Actor })[] = [];
  for (const [i, role] of roles.entries()) {
    const account = await createAccount({ role: "user", name: `${name} ${role} ${i + 1}` });
    await db.update(schema.clientMembers).set({ clientId: owner.id, role }).where(eq(schema.clientMembers.userId, account.id));
    await db.delete(schema.clients).where(eq(schema.clients.id, account.id));
    members.push({ ...account, actor: { id: account.id, role: "user", clientId: owner.id, clientRole: role } });
  }
  return { owner, ownerActor: { id: owner.id, role: "user", clientId: owner.id, clientRole: "owner" } as Actor, members };
}

async function settings(staff: Account, clientId: string, body: Record<string, unknown>) {
  const response = await call(approvalApi.action, `/api/clients/${clientId}/approval`, {
    auth: staff,
    method: "PUT",
    params: { id: clientId },
    ...json({ mode: "required", approvers: "any", onDeadline: "hold", reviewHours: 48, ...body }),
  });
  expect(response.status).toBe(200);
  return response;
}

async function sentPost(staff: Account, customerId: string, scheduledAt = "2031-03-10T12:00:00Z", caption = "Spring is here") {
  const post = await createPost(staff, { customerId, channel: "instagram", scheduledAt, caption });
  const { post: sent } = await updatePost(staff, post.id, { status: "in_review" });
  return sent;
}

const reviewAs = (who: Account, id: string, body: unknown) =>
  call(reviewApi.action, `/api/posts/${id}/review`, { auth: who, method: "POST", params: { id }, ...json(body) });

const emailsTo = (address: string) => db.select().from(schema.emails).where(eq(schema.emails.recipient, address)).orderBy(asc(schema.emails.createdAt));

describe("approval settings", () => {
  test("defaults, staff set them, the owner reads them, an approver may not; bad settings are refused in the spec's words", async () => {
    const staff = await createAccount({ role: "team" });
    const { owner, members } = await client("Settings Co", ["approver"]);
    const read = (who: Account) => call(approvalApi.loader, `/api/clients/${owner.id}/approval`, { auth: who, params: { id: owner.id } });
    expect(await readJson(await read(staff))).toEqual({
      status: "success",
      data: { approval: { mode: "required", approvers: "any", onDeadline: "hold", reviewHours: 48 } },
    });
    const put = await settings(staff, owner.id, { mode: "two_step", approvers: "all", onDeadline: "approve", reviewHours: 24 });
    expect((await readJson(put)).data).toEqual({ approval: { mode: "two_step", approvers: "all", onDeadline: "approve", reviewHours: 24 } });
    expect((await readJson<{ data: { approval: { mode: string } } }>(await read(owner))).data.approval.mode).toBe("two_step");
    expect((await read(members[0]!)).status).toBe(403);
    const stranger = await createAccount({ role: "user" });
    expect((await read(stranger)).status).toBe(404);

    const bad = await call(approvalApi.action, `/api/clients/${owner.id}/approval`, {
      auth: staff,
      method: "PUT",
      params: { id: owner.id },
      ...json({ mode: "sometimes", approvers: "any", onDeadline: "hold", reviewHours: 48 }),
    });
    expect(bad.status).toBe(400);
    expect((await readJson<{ message: string }>(bad)).message).toBe("mode must be one of none, required, two_step.");
    const hours = await call(approvalApi.action, `/api/clients/${owner.id}/approval`, {
      auth: staff,
      method: "PUT",
      params: { id: owner.id },
      ...json({ mode: "none", approvers: "any", onDeadline: "hold", reviewHours: -1 }),
    });
    expect(hours.status).toBe(400);
    expect(
      (await call(approvalApi.action, `/api/clients/${owner.id}/approval`, { auth: owner, method: "PUT", params: { id: owner.id }, ...json({}) })).status,
    ).toBe(403);
    const audit = await db
      .select()
      .from(schema.auditEntries)
      .where(and(eq(schema.auditEntries.action, "client.approval"), eq(schema.auditEntries.targetId, owner.id)));
    expect(audit).toHaveLength(1);
  });
});

describe("the review flow", () => {
  test("required (the default): reviewBy is scheduledAt minus 48 hours, stage client; any approver's approval is enough, recorded by name", async () => {
    const staff = await createAccount({ role: "team" });
    const { owner, members } = await client("Required Co", ["approver", "member"]);
    const post = await sentPost(staff, owner.id);
    expect(post).toMatchObject({ status: "in_review", stage: "client", reviewBy: "2031-03-08T12:00:00.000Z", approvals: [], overdue: false });

    // A member whose role does not cover approving: 403, nothing recorded.
    const refused = await reviewAs(members[1]!, post.id, { decision: "approve" });
    expect(refused.status).toBe(403);
    // Staff do not approve for the client.
    expect((await reviewAs(staff, post.id, { decision: "approve" })).status).toBe(403);

    const approved = await reviewAs(members[0]!, post.id, { decision: "approve" });
    expect(approved.status).toBe(200);
    const body = await readJson<{ data: { post: { status: string; stage: null; approvals: unknown[] } } }>(approved);
    expect(body.data.post).toMatchObject({
      status: "approved",
      stage: null,
      approvals: [{ member: { _id: members[0]!.id, name: "Required Co approver 1" }, decision: "approve", at: expect.any(String) }],
    });
    // The team member who sent it is told, with the approver's name (a post_decided notification).
    const told = await db.select().from(schema.notifications).where(eq(schema.notifications.userId, staff.id));
    expect(told).toMatchObject([{ kind: "post_decided", title: "Approved: Instagram post for Required Co", url: `/dashboard/calendar/posts/${post.id}` }]);
    expect(told[0]!.body).toContain("Required Co approver 1 approved");
  });

  test("none: a post sent for review is approved at once", async () => {
    const staff = await createAccount({ role: "team" });
    const { owner } = await client("Easy Co");
    await settings(staff, owner.id, { mode: "none" });
    const post = await sentPost(staff, owner.id);
    expect(post).toMatchObject({ status: "approved", stage: null });
  });

  test("all: approved once every member with the approver role approved (an owner's counts as one more); any request for changes wins", async () => {
    const staff = await createAccount({ role: "team" });
    const { owner, ownerActor, members } = await client("All Co", ["approver", "approver"]);
    await settings(staff, owner.id, { approvers: "all" });
    const post = await sentPost(staff, owner.id);
    expect((await reviewPost(ownerActor, post.id, { decision: "approve" })).status).toBe("in_review");
    expect((await reviewPost(members[0]!.actor, post.id, { decision: "approve" })).status).toBe("in_review");
    const done = await reviewPost(members[1]!.actor, post.id, { decision: "approve" });
    expect(done.status).toBe("approved");
    expect(done.approvals.map((approval) => approval.member.name)).toEqual(["All Co", "All Co approver 1", "All Co approver 2"]);

    // Another post: one approval, then a request for changes: changes win at once.
    const second = await sentPost(staff, owner.id, "2031-03-12T12:00:00Z");
    await reviewPost(members[0]!.actor, second.id, { decision: "approve" });
    const changed = await reviewPost(members[1]!.actor, second.id, { decision: "request_changes", comment: "Shorter, please" });
    expect(changed).toMatchObject({ status: "changes_requested", stage: null });
    expect(changed.approvals.map((approval) => approval.decision)).toEqual(["approve", "request_changes"]);
    // Sent again: a new round, the earlier decisions no longer count.
    const { post: again } = await updatePost(staff, second.id, { caption: "Short", status: "in_review" });
    expect(again).toMatchObject({ status: "in_review", stage: "client", approvals: [] });
  });

  test("any: a request for changes needs a comment (400) and, made, sends the post back", async () => {
    const staff = await createAccount({ role: "team" });
    const { owner, members } = await client("Any Co", ["approver"]);
    const post = await sentPost(staff, owner.id);
    const empty = await reviewAs(members[0]!, post.id, { decision: "request_changes" });
    expect(empty.status).toBe(400);
    expect((await readJson<{ message: string }>(empty)).message).toBe("Please say what should change.");
    const changes = await reviewAs(members[0]!, post.id, { decision: "request_changes", comment: "Another photo" });
    expect((await readJson<{ data: { post: { status: string } } }>(changes)).data.post.status).toBe("changes_requested");
    expect((await reviewAs(members[0]!, post.id, { decision: "approve" })).status).toBe(409);
  });

  test("two_step: a staff member other than the sender checks first (stage team), then the client (stage client)", async () => {
    const sender = await createAccount({ role: "team", name: "Sally Sender" });
    const checker = await createAccount({ role: "team", name: "Chuck Checker" });
    const { owner, members } = await client("Two Step Co", ["approver"]);
    await settings(sender, owner.id, { mode: "two_step" });
    const post = await sentPost(sender, owner.id);
    expect(post).toMatchObject({ status: "in_review", stage: "team" });

    // The client waits for the team's check; the sender may not check their own post.
    expect((await reviewAs(members[0]!, post.id, { decision: "approve" })).status).toBe(409);
    const own = await reviewAs(sender, post.id, { decision: "approve" });
    expect(own.status).toBe(403);
    expect((await readJson<{ message: string }>(own)).message).toBe("Someone other than the team member who sent this post for review checks it.");

    const checked = await reviewAs(checker, post.id, { decision: "approve" });
    expect(checked.status).toBe(200);
    expect((await readJson<{ data: { post: unknown } }>(checked)).data.post).toMatchObject({
      status: "in_review",
      stage: "client",
      approvals: [{ member: { _id: checker.id, name: "Chuck Checker" }, decision: "approve" }],
    });
    // Staff do not decide the client's stage.
    expect((await reviewAs(checker, post.id, { decision: "approve" })).status).toBe(403);
    const final = await reviewAs(members[0]!, post.id, { decision: "approve" });
    expect((await readJson<{ data: { post: { status: string; approvals: unknown[] } } }>(final)).data.post).toMatchObject({
      status: "approved",
      approvals: [{ member: { name: "Chuck Checker" } }, { member: { name: "Two Step Co approver 1" } }],
    });
  });
});

describe("deadlines", () => {
  test("approvers are reminded 24 hours ahead and at the deadline, once across nodes; past it the post is overdue and owners and staff are told; onDeadline approve approves it with an audit entry", async () => {
    const staff = await createAccount({ role: "team", name: "Dee Staff" });
    const { owner, members } = await client("Deadline Co", ["approver", "member"]);
    await settings(staff, owner.id, { onDeadline: "approve", reviewHours: 48 });
    const post = await sentPost(staff, owner.id, "2031-04-10T12:00:00Z");
    const reviewBy = new Date(post.reviewBy!);
    const reminders = async () => (await emailsTo(members[0]!.email)).map((mail) => mail.subject);

    // Within a minute of reaching the client: the notice, once however many nodes run the job.
    await Promise.all([runReviewDeadlines(new Date(reviewBy.getTime() - 30 * HOUR)), runReviewDeadlines(new Date(reviewBy.getTime() - 30 * HOUR))]);
    expect(await reminders()).toEqual(["A post waits for your review"]);
    // Two nodes run the job at once, then one again: one reminder.
    await Promise.all([runReviewDeadlines(new Date(reviewBy.getTime() - 23 * HOUR)), runReviewDeadlines(new Date(reviewBy.getTime() - 23 * HOUR))]);
    await runReviewDeadlines(new Date(reviewBy.getTime() - 22 * HOUR));
    expect(await reminders()).toEqual(["A post waits for your review", "A post waits for your review until tomorrow"]);
    // Owners may approve too: they are reminded; a plain member is not.
    expect((await emailsTo(owner.email)).map((mail) => mail.subject)).toEqual(["A post waits for your review", "A post waits for your review until tomorrow"]);
    expect(await emailsTo(members[1]!.email)).toEqual([]);

    const at = new Date(reviewBy.getTime() + 60 * 1000);
    const [first, second] = await Promise.all([runReviewDeadlines(at), runReviewDeadlines(at)]);
    expect(first.approved + second.approved).toBe(1);
    await runReviewDeadlines(new Date(at.getTime() + 10 * 60 * 1000));
    expect(await reminders()).toEqual(["A post waits for your review", "A post waits for your review until tomorrow", "A post's review deadline is now"]);
    expect((await emailsTo(staff.email)).map((mail) => mail.subject)).toEqual(["A post was approved at its review deadline"]);
    expect((await emailsTo(owner.email)).map((mail) => mail.subject)).toContain("A post was approved at its review deadline");

    const approved = await getPostFor({ id: staff.id, role: "team" }, post.id);
    expect(approved.status).toBe("approved");
    const audit = await db
      .select()
      .from(schema.auditEntries)
      .where(and(eq(schema.auditEntries.action, "post.auto_approve"), eq(schema.auditEntries.targetId, post.id)));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.detail).toContain("review deadline");
  });

  test("hold: past the deadline the post stays in review, overdue on both sides", async () => {
    const staff = await createAccount({ role: "team" });
    const { owner, ownerActor } = await client("Hold Co");
    const post = await sentPost(staff, owner.id, "2031-04-10T12:00:00Z");
    // Its deadline is in the past from the database's point of view once we move it there.
    await db
      .update(schema.postReviews)
      .set({ reviewBy: new Date(Date.now() - HOUR) })
      .where(eq(schema.postReviews.postId, post.id));
    await runReviewDeadlines(new Date());
    const staffView = await getPostFor({ id: staff.id, role: "team" }, post.id);
    const clientView = await getPostFor(ownerActor, post.id);
    expect(staffView).toMatchObject({ status: "in_review", overdue: true });
    expect(clientView).toMatchObject({ status: "in_review", overdue: true });
    expect((await emailsTo(owner.email)).map((mail) => mail.subject)).toContain("A post's review is overdue");
    expect((await emailsTo(staff.email)).map((mail) => mail.subject)).toEqual(["A post's review is overdue"]);
  });
});

describe("review links", () => {
  async function linkFor(memberEmail: string) {
    const [mail] = (await emailsTo(memberEmail)).filter((row) => row.message.action?.url.includes("/review/"));
    return new URL(mail!.message.action!.url).pathname;
  }
  const open = (path: string) => callRoute(reviewPage.loader, path, { params: { token: path.split("/").pop()! } });
  const decide = (path: string, form: Record<string, string>) =>
    callRoute(reviewPage.action, new Request(BASE_URL + path, { method: "POST", body: new URLSearchParams(form), headers: { Origin: BASE_URL } }), {
      params: { token: path.split("/").pop()! },
    });

  async function reminded() {
    const staff = await createAccount({ role: "team" });
    const { owner, members } = await client("Link Co", ["approver", "approver"]);
    const post = await sentPost(staff, owner.id, "2031-05-10T12:00:00Z", "Link caption");
    await runReviewDeadlines(new Date(new Date(post.reviewBy!).getTime() - 23 * HOUR));
    return { staff, owner, members, post, links: await Promise.all(members.map((member) => linkFor(member.email))) };
  }

  test("opens without a sign-in, records the member's decision under their name, and is spent once", async () => {
    const { members, post, links } = await reminded();
    const page = await open(links[0]!);
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({ refused: null, memberName: "Link Co approver 1", post: { id: post.id, caption: "Link caption" } });

    const done = await decide(links[0]!, { decision: "approve" });
    expect(done.status).toBe(200);
    const after = await getPostFor(members[0]!.actor, post.id);
    expect(after.status).toBe("approved");
    expect(after.approvals).toMatchObject([{ member: { id: members[0]!.id, name: "Link Co approver 1" }, decision: "approve" }]);
    const audit = await db
      .select()
      .from(schema.auditEntries)
      .where(and(eq(schema.auditEntries.action, "post.review"), eq(schema.auditEntries.targetId, post.id)));
    expect(audit).toMatchObject([{ actorId: members[0]!.id, actorName: "Link Co approver 1" }]);
    expect(audit[0]!.detail).toContain("e-mailed review link");

    // Reused: refused, clearly, nothing recorded.
    const reused = await decide(links[0]!, { decision: "request_changes", comment: "Wait" });
    expect(reused.status).toBe(410);
    expect(reused.data).toMatchObject({ refused: "This review link has already been used. Sign in to see the post and what was decided." });
    expect((await open(links[0]!)).status).toBe(410);
    expect((await getPostFor(members[0]!.actor, post.id)).approvals).toHaveLength(1);
  });

  test("tampered, another member's post, expired, or a member who may no longer approve: refused with nothing recorded", async () => {
    const { members, post, links } = await reminded();
    const [token, signature] = links[0]!.split("/").pop()!.split(".");
    // A signature of another link on this token: not valid.
    const otherSignature = links[1]!.split(".").pop();
    expect((await open(`/review/${token}.${otherSignature}`)).status).toBe(404);
    expect((await decide(`/review/${token}.${signature}x`, { decision: "approve" })).status).toBe(404);
    expect((await decide(`/review/${"A".repeat(43)}`, { decision: "approve" })).status).toBe(404);

    // The second member's role no longer covers approving: their link is refused.
    await db.update(schema.clientMembers).set({ role: "member" }).where(eq(schema.clientMembers.userId, members[1]!.id));
    const demoted = await decide(links[1]!, { decision: "approve" });
    expect(demoted.status).toBe(403);
    expect(demoted.data).toMatchObject({ refused: "Your role in your company's account no longer covers approving posts: ask an owner." });

    expect((await getPostFor(members[0]!.actor, post.id)).status).toBe("in_review");
    expect(await db.select().from(schema.postApprovals).where(eq(schema.postApprovals.postId, post.id))).toEqual([]);
  });

  test("a link past its post's deadline plus 7 days is expired: refused, nothing recorded", async () => {
    const staff = await createAccount({ role: "team" });
    const { owner, members } = await client("Late Co", ["approver"]);
    // Its deadline was 12 days ago: the deadline's e-mail carries a link that ended 5 days ago.
    const post = await sentPost(staff, owner.id, new Date(Date.now() - 10 * 24 * HOUR).toISOString());
    await runReviewDeadlines(new Date());
    const link = await linkFor(members[0]!.email);
    const expired = await decide(link, { decision: "approve" });
    expect(expired.status).toBe(410);
    expect(expired.data).toMatchObject({ refused: "This review link has expired. Sign in to review the post." });
    expect((await getPostFor(members[0]!.actor, post.id)).status).toBe("in_review");
    expect(await db.select().from(schema.postApprovals).where(eq(schema.postApprovals.postId, post.id))).toEqual([]);
  });

  test("a removed member's link is refused", async () => {
    const { members, links } = await reminded();
    await db.update(schema.clientMembers).set({ removedAt: new Date() }).where(eq(schema.clientMembers.userId, members[0]!.id));
    expect((await open(links[0]!)).status).toBe(403);
  });

  test("a link expires 7 days after the post's deadline", async () => {
    const { post } = await reminded();
    const rows = await db.select().from(schema.reviewLinks).where(eq(schema.reviewLinks.postId, post.id));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.expiresAt.getTime() - new Date(post.reviewBy!).getTime()).toBe(7 * 24 * HOUR);
    expect(rows.every((row) => row.tokenHash.length === 64)).toBe(true);
  });
});

describe("revisions", () => {
  test("each edit of caption or media after the first review is a revision; the pages show the words changed since the last decision", async () => {
    const staff = await createAccount({ role: "team", name: "Rev Staff" });
    const { owner, ownerActor, members } = await client("Revision Co", ["approver"]);
    const post = await createPost(staff, { customerId: owner.id, channel: "x", scheduledAt: "2031-06-10T12:00:00Z", caption: "Our big summer sale" });
    const list = async (who: Account) => {
      const response = await call(revisionsApi.loader, `/api/posts/${post.id}/revisions`, { auth: who, params: { id: post.id } });
      return {
        status: response.status,
        body: response.status === 200 ? (await readJson<{ data: { revisions: { n: number; caption: string; media: unknown[] }[] } }>(response)).data : null,
      };
    };
    // Edits of a draft never sent are not revisions; the client does not see drafts.
    await updatePost(staff, post.id, { caption: "Our summer sale" });
    expect((await list(staff)).body).toEqual({ revisions: [] });
    expect((await list(owner)).status).toBe(404);

    await updatePost(staff, post.id, { status: "in_review" });
    await reviewPost(members[0]!.actor, post.id, { decision: "request_changes", comment: "Say when" });
    await updatePost(staff, post.id, { caption: "Our summer sale starts Friday" });
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(samples.png())]), "sale.png");
    await addPostMedia(staff, post.id, new Request(`${BASE_URL}/api/posts/${post.id}/media`, { method: "POST", body: form }));

    const { body } = await list(owner);
    expect(body!.revisions.map((revision) => [revision.n, revision.caption, revision.media.length])).toEqual([
      [1, "Our summer sale", 0],
      [2, "Our summer sale starts Friday", 0],
      [3, "Our summer sale starts Friday", 1],
    ]);
    expect(body!.revisions[0]).toMatchObject({ author: { _id: staff.id, name: "Rev Staff" }, createdAt: expect.any(String) });
    const stranger = await createAccount({ role: "user" });
    expect((await list(stranger)).status).toBe(404);

    // The client's calendar shows the difference against the revision decided on, as <ins>/<del> words.
    const page = await callRoute(
      calendarPage.loader,
      new Request(`${BASE_URL}/dashboard/calendar?month=2031-06`, { headers: { Cookie: await sessionCookieFor(ownerActor.id) } }),
    );
    expect(page.status).toBe(200);
    const changes = (page.data as { changes: Record<string, { caption: { value: string; added: boolean; removed: boolean }[]; mediaAdded: number }> }).changes[
      post.id
    ];
    expect(changes!.caption.filter((part) => part.added).map((part) => part.value.trim())).toEqual(["starts Friday"]);
    expect(changes!.mediaAdded).toBe(1);
  });
});

test("a post of another client is not found; its review is not counted", async () => {
  const staff = await createAccount({ role: "team" });
  const { owner } = await client("Mine Co");
  const { members: others } = await client("Other Co", ["approver"]);
  const post = await sentPost(staff, owner.id);
  expect((await reviewAs(others[0]!, post.id, { decision: "approve" })).status).toBe(404);
  expect(
    await db
      .select()
      .from(schema.postApprovals)
      .where(inArray(schema.postApprovals.postId, [post.id])),
  ).toEqual([]);
});

test("staff set a client's approvals on its page with a plain form; a bad value is told in the field's words", async () => {
  const staff = await createAccount({ role: "team" });
  const { owner } = await client("Form Co");
  const page = `/dashboard/users/${owner.id}/approval`;
  const post = (form: Record<string, string>) =>
    callRoute(
      approvalPage.action,
      new Request(BASE_URL + page, { method: "POST", body: new URLSearchParams(form), headers: { Cookie: staff.cookie, Origin: BASE_URL } }),
      { params: { userId: owner.id } },
    );
  const shown = await callRoute(approvalPage.loader, new Request(BASE_URL + page, { headers: { Cookie: staff.cookie } }), { params: { userId: owner.id } });
  expect(shown.data).toMatchObject({ approval: { mode: "required", approvers: "any", onDeadline: "hold", reviewHours: 48 } });
  const saved = await post({ mode: "two_step", approvers: "all", onDeadline: "approve", reviewHours: "72" });
  expect(saved).toMatchObject({ status: 302, location: page });
  const bad = await post({ mode: "two_step", approvers: "all", onDeadline: "approve", reviewHours: "soon" });
  expect(bad).toMatchObject({ status: 400, data: { result: { error: { reviewHours: ["reviewHours must be a whole number of hours from 0 to 720."] } } } });
  const again = await callRoute(approvalPage.loader, new Request(BASE_URL + page, { headers: { Cookie: staff.cookie } }), { params: { userId: owner.id } });
  expect(again.data).toMatchObject({ approval: { mode: "two_step", approvers: "all", onDeadline: "approve", reviewHours: 72 } });
});

test("the difference is drawn as <ins> and <del> with words that say so, not colour alone", async () => {
  const staff = await createAccount({ role: "team" });
  const { owner, ownerActor } = await client("Diff Co");
  const post = await sentPost(staff, owner.id, "2031-07-10T12:00:00Z", "Fresh bread every morning");
  await reviewPost(ownerActor, post.id, { decision: "request_changes", comment: "Say sourdough" });
  const { post: edited } = await updatePost(staff, post.id, { caption: "Fresh sourdough every morning" });
  const changes = await reviewChangesOf([post.id]);
  const html = renderToStaticMarkup(createElement(ReviewSummary, { post: edited, timeZone: "UTC", changes: changes[post.id] }));
  expect(html).toContain('<del class="bg-red-100 text-red-900 line-through"><span class="sr-only">[removed: </span>bread<span class="sr-only">]</span></del>');
  expect(html).toContain(
    '<ins class="bg-green-100 font-semibold text-green-900 underline"><span class="sr-only">[added: </span>sourdough<span class="sr-only">]</span></ins>',
  );
  expect(html).toContain("revision 1 → 2");
});

test("staff set a review deadline by hand (PATCH reviewBy): a new time no longer moves it; a draft has none (409)", async () => {
  const staff = await createAccount({ role: "team" });
  const { owner } = await client("Manual Co");
  const post = await sentPost(staff, owner.id, "2031-08-10T12:00:00Z");
  expect(post.reviewBy).toBe("2031-08-08T12:00:00.000Z");
  const patch = (id: string, body: unknown) => call(postApi.action, `/api/posts/${id}`, { auth: staff, method: "PATCH", params: { id }, ...json(body) });
  const set = await patch(post.id, { reviewBy: "2031-08-09T09:00:00Z" });
  expect(set.status).toBe(200);
  expect((await readJson<{ data: { post: { reviewBy: string } } }>(set)).data.post.reviewBy).toBe("2031-08-09T09:00:00.000Z");
  const moved = await patch(post.id, { scheduledAt: "2031-08-20T12:00:00Z" });
  expect((await readJson<{ data: { post: { reviewBy: string } } }>(moved)).data.post.reviewBy).toBe("2031-08-09T09:00:00.000Z");
  const draft = await createPost(staff, { customerId: owner.id, channel: "x", scheduledAt: "2031-08-10T12:00:00Z", caption: "" });
  expect((await patch(draft.id, { reviewBy: "2031-08-09T09:00:00Z" })).status).toBe(409);
});

test("the review-deadlines job on two nodes' engines: enqueued once a minute, the notice sent once", async () => {
  const stop = startReviewDeadlineSweep();
  const nodeA = new JobEngine();
  const nodeB = new JobEngine();
  try {
    const staff = await createAccount({ role: "team" });
    const { owner, members } = await client("Engine Co", ["approver"]);
    await sentPost(staff, owner.id, new Date(Date.now() + 5 * 24 * HOUR).toISOString());
    await Promise.all([nodeA.poll(), nodeB.poll()]);
    const later = new Date(Date.now() + 60_000);
    await Promise.all([nodeA.enqueueRecurring(later), nodeB.enqueueRecurring(later)]);
    await Promise.all([nodeA.runDue(), nodeB.runDue()]);
    const notices = await db.select().from(schema.notifications).where(eq(schema.notifications.userId, members[0]!.id));
    expect(notices.map((notice) => [notice.kind, notice.title])).toEqual([["post_review", "A post waits for your review"]]);
    expect(notices[0]!.url).toMatch(/\/review\/[\w-]+\.[\w-]+$/);
    const runs = (await jobCounts()).filter((row) => row.kind === "review-deadlines");
    expect(runs.reduce((sum, row) => sum + row.count, 0)).toBe(2);
  } finally {
    stop();
    await nodeA.stop();
    await nodeB.stop();
  }
});

test("the calendar offers the review forms only to those whose role covers approving", async () => {
  const { members } = await client("Forms Co", ["approver", "member"]);
  const asMember = async (account: Account) =>
    (await callRoute(calendarPage.loader, new Request(`${BASE_URL}/dashboard/calendar`, { headers: { Cookie: account.cookie } }))).data as {
      mayReview: boolean;
    };
  expect((await asMember(members[0]!)).mayReview).toBe(true);
  expect((await asMember(members[1]!)).mayReview).toBe(false);
});

test("a review link is kept out of the logs like a calendar feed", () => {
  expect(redactUrl("/review/secret.signature")).toBe("/review/[redacted]");
  expect(redactUrl("https://app.example/review/secret.signature/media/x")).toBe("https://app.example/review/[redacted]/media/x");
  expect(redactUrl("/dashboard/review/kept")).toBe("/dashboard/review/kept");
});
