import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";

import type { PostJson } from "~/domain/schemas/calendar";
import * as posts from "~/routes/api+/posts+/_layout";
import * as postById from "~/routes/api+/posts+/$id";
import * as comments from "~/routes/api+/posts+/$id.comments";
import * as media from "~/routes/api+/posts+/$id.media";
import * as review from "~/routes/api+/posts+/$id.review";
import * as file from "~/routes/files.posts.$mediaId";
import { db, schema } from "~/utils/db.server";

import { chatAccount, chatServerForFile, collect, nextEvent, type ChatAccount } from "../support/chat-helpers";
import { call } from "../support/dashboard-helpers";
import { MiB, samples } from "../support/reports-cases";

/** The content calendar's API (decision 210): posts, review, comments, media, and postUpdated to both sides. */

const { client } = chatServerForFile();

const as = (account: ChatAccount) => ({ bearer: account.token });
const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });
type Answer = { status: string; data: { post: PostJson } };

async function draft(staff: ChatAccount, customerId: string, extra: Record<string, unknown> = {}) {
  const response = await call(posts.action, "/api/posts", {
    auth: as(staff),
    method: "POST",
    ...json({ customerId, channel: "instagram", scheduledAt: "2026-12-03T13:00:00Z", caption: "Winter launch", ...extra }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as Answer).data.post;
}

const patch = (staff: ChatAccount, id: string, body: unknown) =>
  call(postById.action, `/api/posts/${id}`, { auth: as(staff), method: "PATCH", params: { id }, ...json(body) });
const reviewAs = (customer: ChatAccount, id: string, body: unknown) =>
  call(review.action, `/api/posts/${id}/review`, { auth: as(customer), method: "POST", params: { id }, ...json(body) });
const comment = (who: ChatAccount, id: string, body: unknown) =>
  call(comments.action, `/api/posts/${id}/comments`, { auth: as(who), method: "POST", params: { id }, ...json(body) });
const list = async (who: ChatAccount, query = "") => {
  const response = await call(posts.loader, `/api/posts${query}`, { auth: as(who) });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { posts: PostJson[] } }).data.posts;
};
function uploadMedia(staff: ChatAccount, id: string, name: string, bytes: Buffer) {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)]), name);
  return call(media.action, `/api/posts/${id}/media`, { auth: as(staff), method: "POST", params: { id }, body: form });
}

describe("posts: drafts, review and comments", () => {
  test("a draft is staff's alone; sent for review it reaches the customer, who approves it", async () => {
    const staff = await chatAccount("team", "Sam Staff");
    const customer = await chatAccount("user", "Cora Calendar");
    const staffSocket = await client(staff);
    const customerSocket = await client(customer);
    const seenByCustomer = collect(customerSocket, "postUpdated");

    const teamSees = nextEvent(staffSocket, "postUpdated", (p) => p.caption === "Winter launch" && p.customer._id === customer.id);
    const post = await draft(staff, customer.id);
    expect(post).toEqual({
      _id: expect.any(String),
      customer: { _id: customer.id, name: "Cora Calendar" },
      channel: "instagram",
      scheduledAt: "2026-12-03T13:00:00.000Z",
      caption: "Winter launch",
      media: [],
      status: "draft",
      reviewBy: null,
      stage: null,
      approvals: [],
      overdue: false,
      comments: [],
      updatedAt: expect.stringMatching(/^\d{4}-/),
      permalink: null,
      publishedAt: null,
    });
    expect((await teamSees).status).toBe("draft");
    // The customer neither lists nor reaches a draft, nor hears of it.
    expect(await list(customer)).toEqual([]);
    expect(await list(customer, "?status=draft")).toEqual([]);
    expect((await comment(customer, post._id, { body: "hi?" })).status).toBe(404);
    expect((await reviewAs(customer, post._id, { decision: "approve" })).status).toBe(404);

    const customerSees = nextEvent(customerSocket, "postUpdated", (p) => p._id === post._id);
    expect((await patch(staff, post._id, { status: "in_review" })).status).toBe(200);
    expect((await customerSees).status).toBe("in_review");
    expect(seenByCustomer.filter((p) => p.status === "draft")).toEqual([]);
    expect((await list(customer)).map((p) => p._id)).toEqual([post._id]);

    const approvedLive = nextEvent(staffSocket, "postUpdated", (p) => p._id === post._id && p.status === "approved");
    const approved = await reviewAs(customer, post._id, { decision: "approve" });
    expect(approved.status).toBe(200);
    expect(((await approved.json()) as Answer).data.post.status).toBe("approved");
    await approvedLive;
    // Reviewing again is a conflict: it no longer waits for review.
    const again = await reviewAs(customer, post._id, { decision: "request_changes", comment: "wait" });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ success: false, code: "CONFLICT", message: "Only a post waiting for review can be approved or sent back." });
  });

  test("asking for changes needs a comment, which joins the post's thread", async () => {
    const staff = await chatAccount("team", "Sam Staff");
    const customer = await chatAccount("user", "Reva Review");
    const post = await draft(staff, customer.id);
    await patch(staff, post._id, { status: "in_review" });

    for (const body of [{ decision: "request_changes" }, { decision: "request_changes", comment: "   " }]) {
      const response = await reviewAs(customer, post._id, body);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ message: "Please say what should change." });
    }
    expect((await reviewAs(customer, post._id, { decision: "maybe" })).status).toBe(400);
    expect((await reviewAs(customer, post._id, { decision: "request_changes", comment: "a\u0000b" })).status).toBe(400);

    const response = await reviewAs(customer, post._id, { decision: "request_changes", comment: "  Brighter photo, please  " });
    expect(response.status).toBe(200);
    const changed = ((await response.json()) as Answer).data.post;
    expect(changed.status).toBe("changes_requested");
    expect(changed.comments).toEqual([
      {
        _id: expect.any(String),
        author: { _id: customer.id, name: "Reva Review", role: "user" },
        body: "Brighter photo, please",
        createdAt: expect.any(String),
      },
    ]);

    const reply = await comment(staff, post._id, { body: "On it!" });
    expect(reply.status).toBe(201);
    expect(await reply.json()).toEqual({
      status: "success",
      data: { comment: { _id: expect.any(String), author: { _id: staff.id, name: "Sam Staff", role: "team" }, body: "On it!", createdAt: expect.any(String) } },
    });
    expect((await comment(staff, post._id, { body: "" })).status).toBe(400);
    expect((await comment(staff, post._id, { body: "x".repeat(5001) })).status).toBe(400);
    const [listed] = await list(customer);
    expect(listed!.comments.map((c) => c.body)).toEqual(["Brighter photo, please", "On it!"]);
  });

  test("editing an approved post sends it back to review; published only once approved, and then it stays", async () => {
    const staff = await chatAccount("team");
    const customer = await chatAccount("user");
    const post = await draft(staff, customer.id);
    expect((await patch(staff, post._id, { status: "published" })).status).toBe(409);
    await patch(staff, post._id, { status: "in_review" });
    await reviewAs(customer, post._id, { decision: "approve" });

    const edited = await patch(staff, post._id, { caption: "Winter launch, take two", scheduledAt: "2026-12-04T09:30:00+01:00" });
    expect(edited.status).toBe(200);
    expect(((await edited.json()) as Answer).data.post).toMatchObject({
      status: "in_review",
      caption: "Winter launch, take two",
      scheduledAt: "2026-12-04T08:30:00.000Z",
    });

    await reviewAs(customer, post._id, { decision: "approve" });
    // The same values again change nothing: still approved.
    expect(((await (await patch(staff, post._id, { caption: "Winter launch, take two" })).json()) as Answer).data.post.status).toBe("approved");
    expect(((await (await patch(staff, post._id, { status: "published" })).json()) as Answer).data.post.status).toBe("published");
    const late = await patch(staff, post._id, { caption: "too late" });
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ message: "A published post can no longer be changed." });
    expect((await patch(staff, post._id, { status: "draft" })).status).toBe(409);
  });

  test("a post taken back to draft leaves the customer's calendar as they last saw it", async () => {
    const staff = await chatAccount("team");
    const customer = await chatAccount("user");
    const customerSocket = await client(customer);
    const post = await draft(staff, customer.id, { caption: "Seen by the customer" });
    await patch(staff, post._id, { status: "in_review" });
    const gone = nextEvent(customerSocket, "postUpdated", (p) => p._id === post._id && p.status === "draft");
    await patch(staff, post._id, { status: "draft", caption: "Secret rework" });
    expect((await gone).caption).toBe("Seen by the customer");
    expect(await list(customer)).toEqual([]);
  });

  test("another customer's post is 404 everywhere; bad input is 400 in the error shape", async () => {
    const staff = await chatAccount("team");
    const owner = await chatAccount("user");
    const stranger = await chatAccount("user");
    const post = await draft(staff, owner.id);
    await patch(staff, post._id, { status: "in_review" });
    expect((await reviewAs(stranger, post._id, { decision: "approve" })).status).toBe(404);
    expect((await comment(stranger, post._id, { body: "mine?" })).status).toBe(404);
    expect((await call(posts.loader, `/api/posts?customerId=${owner.id}`, { auth: as(stranger) })).status).toBe(404);
    expect(await list(stranger)).toEqual([]);
    // Staff may not decide for the customer.
    expect((await reviewAs(staff, post._id, { decision: "approve" })).status).toBe(403);

    const bad = [
      { customerId: owner.id, channel: "myspace", scheduledAt: "2026-12-03T13:00:00Z" },
      { customerId: owner.id, channel: "x", scheduledAt: "tomorrow" },
      { customerId: owner.id, channel: "x", scheduledAt: "2026-12-03T13:00:00Z", caption: "x".repeat(5001) },
      { customerId: owner.id, channel: "x", scheduledAt: "2026-12-03T13:00:00Z", caption: "bad\u0007" },
      { customerId: "nobody", channel: "x", scheduledAt: "2026-12-03T13:00:00Z" },
    ];
    for (const body of bad) {
      const response = await call(posts.action, "/api/posts", { auth: as(staff), method: "POST", ...json(body) });
      expect(response.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(await response.json()).toMatchObject({ success: false, status: "error", code: "INVALID_INPUT" });
    }
    const staffAsCustomer = await call(posts.action, "/api/posts", {
      auth: as(staff),
      method: "POST",
      ...json({ customerId: staff.id, channel: "x", scheduledAt: "2026-12-03T13:00:00Z" }),
    });
    expect(staffAsCustomer.status).toBe(404);
    expect((await patch(staff, crypto.randomUUID(), { caption: "x" })).status).toBe(404);
    expect((await patch(staff, "not-an-id", { caption: "x" })).status).toBe(404);
    expect((await patch(staff, post._id, { status: "approved" })).status).toBe(400);
    expect((await call(posts.loader, "/api/posts?from=yesterday", { auth: as(staff) })).status).toBe(400);
  });

  test("the list: by time, filtered by customer, status and window", async () => {
    const staff = await chatAccount("team");
    const a = await chatAccount("user");
    const b = await chatAccount("user");
    const late = await draft(staff, a.id, { scheduledAt: "2031-03-20T10:00:00Z" });
    const early = await draft(staff, a.id, { scheduledAt: "2031-03-02T10:00:00Z" });
    const other = await draft(staff, b.id, { scheduledAt: "2031-03-10T10:00:00Z" });
    await draft(staff, a.id, { scheduledAt: "2031-04-02T10:00:00Z" });
    await patch(staff, early._id, { status: "in_review" });
    const window = "from=2031-03-01T00:00:00Z&to=2031-04-01T00:00:00Z";
    expect((await list(staff, `?${window}&customerId=${a.id}`)).map((p) => p._id)).toEqual([early._id, late._id]);
    expect((await list(staff, `?${window}`)).map((p) => p._id)).toEqual(expect.arrayContaining([early._id, other._id, late._id]));
    expect((await list(staff, `?${window}&status=in_review&customerId=${a.id}`)).map((p) => p._id)).toEqual([early._id]);
    expect((await list(a, `?${window}`)).map((p) => p._id)).toEqual([early._id]);
  });
});

describe("post media", () => {
  test("an image is stored and served to staff and, once out of draft, to the customer", async () => {
    const staff = await chatAccount("team");
    const customer = await chatAccount("user");
    const post = await draft(staff, customer.id);
    const response = await uploadMedia(staff, post._id, "look.png", samples.png());
    expect(response.status).toBe(201);
    const [item] = ((await response.json()) as Answer).data.post.media;
    expect(item).toEqual({ _id: expect.any(String), mimeType: "image/png", url: `/files/posts/${item!._id}` });

    const fetchAs = (who: ChatAccount) => call(file.loader, item!.url, { auth: as(who), params: { mediaId: item!._id } });
    const served = await fetchAs(staff);
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/png");
    expect(Buffer.from(await served.arrayBuffer()).equals(samples.png())).toBe(true);
    expect((await fetchAs(customer)).status).toBe(404);
    await patch(staff, post._id, { status: "in_review" });
    expect((await fetchAs(customer)).status).toBe(200);
    expect((await fetchAs(await chatAccount("user"))).status).toBe(404);
  });

  test("new media on an approved post sends it back to review", async () => {
    const staff = await chatAccount("team");
    const customer = await chatAccount("user");
    const post = await draft(staff, customer.id);
    await patch(staff, post._id, { status: "in_review" });
    await reviewAs(customer, post._id, { decision: "approve" });
    const response = await uploadMedia(staff, post._id, "second.jpg", samples.jpeg());
    expect(((await response.json()) as Answer).data.post.status).toBe("in_review");
  });

  test("wrong types and contents are 415, no file 400, over 50 MiB 413", async () => {
    const staff = await chatAccount("team");
    const customer = await chatAccount("user");
    const post = await draft(staff, customer.id);
    for (const [name, bytes] of [
      ["notes.pdf", samples.pdf()],
      ["fake.png", samples.html()],
      ["fake.mp4", samples.png()],
    ] as const) {
      const response = await uploadMedia(staff, post._id, name, bytes);
      expect(response.status, name).toBe(415);
      expect(await response.json()).toMatchObject({ message: "Please add only images (PNG, JPG, WebP, GIF) or MP4 videos" });
    }
    const empty = await call(media.action, `/api/posts/${post._id}/media`, { auth: as(staff), method: "POST", params: { id: post._id }, body: new FormData() });
    expect(empty.status).toBe(400);
    const mp4 = Buffer.concat([Buffer.from("000000186674797069736d0000000069736f6d6d703432", "hex"), Buffer.alloc(64, 0)]);
    expect((await uploadMedia(staff, post._id, "clip.mp4", mp4)).status).toBe(201);
    const huge = Buffer.concat([samples.png(), Buffer.alloc(50 * MiB, 1)]);
    const tooBig = await uploadMedia(staff, post._id, "huge.png", huge);
    expect(tooBig.status).toBe(413);
    expect(await tooBig.json()).toMatchObject({ message: "File size must be less than 50MB" });
    const customerTry = await call(media.action, `/api/posts/${post._id}/media`, {
      auth: as(customer),
      method: "POST",
      params: { id: post._id },
      body: new FormData(),
    });
    expect(customerTry.status).toBe(403);
  });
});

describe("the audit log", () => {
  test("staff status changes are entries; a customer's review and plain edits are not", async () => {
    const staff = await chatAccount("team", "Audra Audit");
    const customer = await chatAccount("user", "Pia Post");
    const post = await draft(staff, customer.id);
    await patch(staff, post._id, { caption: "plain edit" });
    await patch(staff, post._id, { status: "in_review" });
    await reviewAs(customer, post._id, { decision: "approve" });
    await patch(staff, post._id, { caption: "after approval" });
    const entries = await db.select().from(schema.auditEntries).where(eq(schema.auditEntries.targetId, post._id)).orderBy(schema.auditEntries.createdAt);
    expect(entries.map((e) => [e.action, e.actorId, e.detail])).toEqual([
      ["post.status", staff.id, "Draft → Waiting for review"],
      ["post.status", staff.id, "Approved → Waiting for review (edited after approval)"],
    ]);
    expect(entries[0]!.targetLabel).toBe("Instagram post for Pia Post, 2026-12-03 13:00 UTC");
  });
});
