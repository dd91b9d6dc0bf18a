import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";

import { unpackCustomers } from "~/domain/calendar";
import { deletedEmail } from "~/domain/own-data";
import { createPost, updatePost } from "~/models/posts.server";
import * as postPage from "~/routes/dashboard+/_staff+/calendar_.posts.$postId";
import * as calendar from "~/routes/dashboard+/calendar";
import { db, schema } from "~/utils/db.server";

import { callRoute } from "../support/call-route";
import { catalogue, createAccount, sessionCookieFor } from "../support/factories";
import { BASE_URL, formRequest } from "../support/requests";

/** The content calendar's pages (decision 211): the viewer's zone, the plan's quota, review and reschedule without JavaScript. */

async function page(userId: string, path: string, zone?: string) {
  const cookie = `${await sessionCookieFor(userId)}${zone ? `; tz=${encodeURIComponent(zone)}` : ""}`;
  return callRoute(calendar.loader, new Request(`${BASE_URL}${path}`, { headers: { Cookie: cookie } }));
}

async function submit(
  handler: (args: Parameters<typeof calendar.action>[0]) => Promise<unknown>,
  userId: string,
  path: string,
  fields: Record<string, string>,
  zone?: string,
  params = {},
) {
  const cookie = `${await sessionCookieFor(userId)}${zone ? `; tz=${encodeURIComponent(zone)}` : ""}`;
  return callRoute(handler, formRequest(path, fields, { Cookie: cookie, Origin: BASE_URL }), { params });
}

describe("the calendar page", () => {
  test("a customer's month: their posts out of draft, in their zone's days, with the plan's quota", async () => {
    const staff = await createAccount({ role: "team" });
    const customer = await createAccount({ role: "user", name: "Quinn Quota" });
    await catalogue();
    await db.insert(schema.subscriptions).values({ userId: customer.id, planId: "starter", status: "active", priceCents: 4900 });
    // 23:30 UTC on 31 Jan is 1 Feb in Paris: it belongs to February there.
    const edge = await createPost(staff, { customerId: customer.id, channel: "instagram", scheduledAt: "2030-01-31T23:30:00Z", caption: "Edge" });
    const hidden = await createPost(staff, { customerId: customer.id, channel: "x", scheduledAt: "2030-02-10T10:00:00Z", caption: "Draft" });
    await updatePost(staff, edge.id, { status: "in_review" });

    const paris = await page(customer.id, "/dashboard/calendar?month=2030-02", "Europe/Paris");
    const data = paris.data as Awaited<ReturnType<typeof calendar.loader>>;
    expect(data.timeZone).toBe("Europe/Paris");
    // The month alone: the screen derives its 35 or 42 days from it.
    expect(data.period).toEqual({ view: "month", month: "2030-02" });
    expect(data.posts.map((p) => p.id)).toEqual([edge.id]);
    expect(data.quota).toEqual({ used: 1, included: 12 });
    expect(data.posts.some((p) => p.id === hidden.id)).toBe(false);

    const utc = (await page(customer.id, "/dashboard/calendar?month=2030-02")).data as typeof data;
    expect(utc.timeZone).toBe("UTC");
    expect(utc.quota).toEqual({ used: 0, included: 12 });
    expect((await page(customer.id, "/dashboard/calendar?month=2030-02", "Nowhere/Else")).data).toMatchObject({ timeZone: "UTC" });
  });

  test("without JavaScript: the customer approves and asks for changes; a change without a comment is refused with the reason", async () => {
    const staff = await createAccount({ role: "team" });
    const customer = await createAccount({ role: "user" });
    const one = await createPost(staff, { customerId: customer.id, channel: "instagram", scheduledAt: "2030-03-03T10:00:00Z", caption: "One" });
    const two = await createPost(staff, { customerId: customer.id, channel: "tiktok", scheduledAt: "2030-03-04T10:00:00Z", caption: "Two" });
    await updatePost(staff, one.id, { status: "in_review" });
    await updatePost(staff, two.id, { status: "in_review" });

    const approved = await submit(calendar.action, customer.id, "/dashboard/calendar?month=2030-03", { intent: "approve", postId: one.id });
    expect(approved.status).toBe(302);
    expect(approved.location).toBe(`/dashboard/calendar?month=2030-03#post-${one.id}`);
    const empty = await submit(calendar.action, customer.id, "/dashboard/calendar", { intent: "request_changes", postId: two.id, comment: " " });
    expect(empty.status).toBe(400);
    expect(empty.data).toMatchObject({ postId: two.id, result: { error: { "": ["Please say what should change."] } } });
    expect(
      (await submit(calendar.action, customer.id, "/dashboard/calendar", { intent: "request_changes", postId: two.id, comment: "Other photo" })).status,
    ).toBe(302);
    const again = await submit(calendar.action, customer.id, "/dashboard/calendar", { intent: "approve", postId: one.id });
    expect(again.status).toBe(409);

    const month = (await page(customer.id, "/dashboard/calendar?month=2030-03")).data as Awaited<ReturnType<typeof calendar.loader>>;
    expect(month.posts.map((p) => [p.caption, p.status])).toEqual([
      ["One", "approved"],
      ["Two", "changes_requested"],
    ]);
  });

  test("staff: a draft from the form in their zone, moved to another day keeping its time, rescheduled with the plain form", async () => {
    const staff = await createAccount({ role: "team" });
    const customer = await createAccount({ role: "user" });
    const created = await submit(
      calendar.action,
      staff.id,
      "/dashboard/calendar",
      { intent: "create", customerId: customer.id, channel: "linkedin", date: "2030-04-08", time: "09:30", caption: "Hello" },
      "America/New_York",
    );
    expect(created.status).toBe(302);
    const postId = created.location!.split("/").pop()!;
    const view = async () =>
      (await page(staff.id, `/dashboard/calendar?month=2030-04&customerId=${customer.id}`)).data as Awaited<ReturnType<typeof calendar.loader>>;
    expect((await view()).posts[0]).toMatchObject({ id: postId, scheduledAt: "2030-04-08T13:30:00.000Z", status: "draft" });

    expect(
      (await submit(calendar.action, staff.id, "/dashboard/calendar", { intent: "reschedule", postId, date: "2030-04-10" }, "America/New_York")).status,
    ).toBe(302);
    expect((await view()).posts[0]!.scheduledAt).toBe("2030-04-10T13:30:00.000Z");

    const edited = await submit(
      postPage.action,
      staff.id,
      `/dashboard/calendar/posts/${postId}`,
      { intent: "edit", channel: "x", date: "2030-04-11", time: "16:45", caption: "Moved" },
      "UTC",
      { postId },
    );
    expect(edited.status).toBe(302);
    expect((await view()).posts[0]).toMatchObject({ channel: "x", scheduledAt: "2030-04-11T16:45:00.000Z", caption: "Moved" });
    const sent = await submit(postPage.action, staff.id, `/dashboard/calendar/posts/${postId}`, { intent: "status", status: "in_review" }, "UTC", { postId });
    expect(sent.status).toBe(302);
    expect((await view()).posts[0]!.status).toBe("in_review");
    const bad = await submit(
      postPage.action,
      staff.id,
      `/dashboard/calendar/posts/${postId}`,
      { intent: "edit", channel: "x", date: "soon", time: "16:45" },
      "UTC",
      { postId },
    );
    expect(bad.status).toBe(400);
    expect(bad.data).toMatchObject({ result: { error: { date: ["Please give a date and a time."] } } });
  });
});

describe("drafting for any customer, and a staff link in a customer's hands", () => {
  test("staff may draft for a customer with no plan and no posts yet, who is listed as such; a deleted customer is neither listed nor drafted for", async () => {
    const staff = await createAccount({ role: "team" });
    const newcomer = await createAccount({ role: "user", name: "Nova Newcomer" });
    const planned = await createAccount({ role: "user", name: "Pat Planned" });
    const gone = await createAccount({ role: "user", name: "Gus Gone" });
    await catalogue();
    await db.insert(schema.subscriptions).values({ userId: planned.id, planId: "starter", status: "active", priceCents: 4900 });
    await db
      .update(schema.users)
      .set({ email: deletedEmail(gone.id), disabledAt: new Date() })
      .where(eq(schema.users.id, gone.id));

    const customers = unpackCustomers(
      ((await page(staff.id, "/dashboard/calendar?month=2030-05")).data as Awaited<ReturnType<typeof calendar.loader>>).customers,
    );
    expect(customers).toContainEqual({ id: newcomer.id, name: "Nova Newcomer", livePlan: false });
    expect(customers).toContainEqual({ id: planned.id, name: "Pat Planned", livePlan: true });
    expect(customers.some((c) => c.id === gone.id)).toBe(false);

    const fields = { intent: "create", channel: "instagram", date: "2030-05-06", time: "09:30", caption: "First post" };
    const made = await submit(calendar.action, staff.id, "/dashboard/calendar", { ...fields, customerId: newcomer.id });
    expect(made.status).toBe(302);
    expect(made.location).toMatch(/^\/dashboard\/calendar\/posts\/[0-9a-f-]{36}$/);
    const refused = await submit(calendar.action, staff.id, "/dashboard/calendar", { ...fields, customerId: gone.id });
    expect(refused.status).toBe(404);
    expect(refused.data).toMatchObject({ postId: "new", result: { error: { "": [expect.stringMatching(/customer/i)] } } });
  });

  test("a customer opening the staff page of their own post is sent to it in their calendar; another's, or a draft, is a plain 404", async () => {
    const staff = await createAccount({ role: "team" });
    const owner = await createAccount({ role: "user" });
    const other = await createAccount({ role: "user" });
    const post = await createPost(staff, { customerId: owner.id, channel: "instagram", scheduledAt: "2030-06-15T10:00:00Z", caption: "Yours" });
    const draft = await createPost(staff, { customerId: owner.id, channel: "x", scheduledAt: "2030-06-16T10:00:00Z", caption: "Not yet" });
    await updatePost(staff, post.id, { status: "in_review" });
    const open = async (userId: string, postId: string) =>
      callRoute(postPage.loader, new Request(`${BASE_URL}/dashboard/calendar/posts/${postId}`, { headers: { Cookie: await sessionCookieFor(userId) } }), {
        params: { postId },
      });

    const mine = await open(owner.id, post.id);
    expect(mine.status).toBe(302);
    expect(mine.location).toBe(`/dashboard/calendar?month=2030-06#post-${post.id}`);
    expect((await open(other.id, post.id)).status).toBe(404);
    expect((await open(owner.id, draft.id)).status).toBe(404);
    expect((await open(owner.id, "not-a-post")).status).toBe(404);
    expect((await open(staff.id, post.id)).status).toBe(200);
  });
});
