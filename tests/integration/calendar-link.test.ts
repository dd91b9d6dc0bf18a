import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";

import { createPost, reviewPost, updatePost } from "~/models/posts.server";
import * as link from "~/routes/api+/calendar.link";
import * as feed from "~/routes/calendar.$token";
import * as calendar from "~/routes/dashboard+/calendar";
import { db, schema } from "~/utils/db.server";

import { callRoute } from "../support/call-route";
import { call, createAccount, readJson } from "../support/dashboard-helpers";
import { sessionCookieFor } from "../support/factories";
import { BASE_URL, formRequest } from "../support/requests";

/** The private iCalendar link of the content calendar (decision 212). */

type LinkAnswer = { status: string; data: { url: string } };

const linkOf = async (customer: Awaited<ReturnType<typeof createAccount>>, method = "GET") => {
  const response = await call(method === "GET" ? link.loader : link.action, "/api/calendar/link", { auth: customer, method });
  expect(response.status).toBe(200);
  return (await readJson<LinkAnswer>(response)).data.url;
};
const open = (url: string) => {
  const path = new URL(url).pathname;
  return call(feed.loader, path, { params: { token: path.split("/").pop()! } });
};

describe("the private iCalendar link", () => {
  test("one event per approved or published post; renewing stops the old link; only a hash is stored", async () => {
    const staff = await createAccount("team");
    const customer = await createAccount("user", { name: "Ivy Ical" });
    const other = await createAccount("user");
    const approved = await createPost(staff, {
      customerId: customer.id,
      channel: "instagram",
      scheduledAt: "2030-05-02T09:00:00Z",
      caption: "Spring, approved",
    });
    const published = await createPost(staff, { customerId: customer.id, channel: "linkedin", scheduledAt: "2030-05-03T09:00:00Z", caption: "Live now" });
    const waiting = await createPost(staff, { customerId: customer.id, channel: "x", scheduledAt: "2030-05-04T09:00:00Z", caption: "Still in review" });
    await createPost(staff, { customerId: customer.id, channel: "tiktok", scheduledAt: "2030-05-05T09:00:00Z", caption: "A draft" });
    await createPost(staff, { customerId: other.id, channel: "instagram", scheduledAt: "2030-05-02T10:00:00Z", caption: "Someone else's" });
    for (const post of [approved, published, waiting]) await updatePost(staff, post.id, { status: "in_review" });
    await reviewPost(customer, approved.id, { decision: "approve" });
    await reviewPost(customer, published.id, { decision: "approve" });
    await updatePost(staff, published.id, { status: "published" });

    const url = await linkOf(customer);
    expect(url).toMatch(/^http:\/\/[^/]+\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    expect(await linkOf(customer)).toBe(url);
    const token = url
      .split("/")
      .pop()!
      .replace(/\.ics$/, "");
    const stored = await db.select().from(schema.calendarLinks);
    expect(stored.some((row) => JSON.stringify(row).includes(token))).toBe(false);

    const answer = await open(url);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
    const text = await answer.text();
    expect(text).toMatch(/^BEGIN:VCALENDAR/);
    expect(text.match(/BEGIN:VEVENT/g)).toHaveLength(2);
    expect(text).toContain(`UID:${approved.id}@brandlift`);
    expect(text).toContain("DTSTART:20300502T090000Z");
    expect(text).toContain("Spring\\, approved");
    expect(text).toContain("SUMMARY:LinkedIn post (published)");
    expect(text).not.toContain("Still in review");
    expect(text).not.toContain("A draft");
    expect(text).not.toContain("Someone else's");

    const renewed = await linkOf(customer, "POST");
    expect(renewed).not.toBe(url);
    const gone = await open(url);
    expect(gone.status).toBe(404);
    expect(gone.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    expect((await open(renewed)).status).toBe(200);
    expect(await linkOf(customer)).toBe(renewed);
  });

  test("a disabled account's link answers 404 while it is disabled, and again once it is enabled", async () => {
    const customer = await createAccount("user");
    const url = await linkOf(customer);
    expect((await open(url)).status).toBe(200);
    await db.update(schema.users).set({ disabledAt: new Date() }).where(eq(schema.users.id, customer.id));
    const refused = await open(url);
    expect(refused.status).toBe(404);
    expect(await refused.text()).toBe("Not found.\n");
    await db.update(schema.users).set({ disabledAt: null }).where(eq(schema.users.id, customer.id));
    expect((await open(url)).status).toBe(200);
  });

  test("unknown or malformed tokens are a plain 404; staff and strangers have no link", async () => {
    for (const token of ["nothing.ics", `${"A".repeat(43)}.ics`, "A".repeat(43), "%00.ics"]) {
      const answer = await call(feed.loader, `/calendar/${token}`, { params: { token } });
      expect(answer.status).toBe(404);
      expect(await answer.text()).toBe("Not found.\n");
    }
    const staff = await createAccount("team");
    expect((await call(link.loader, "/api/calendar/link", { auth: staff })).status).toBe(403);
    expect((await call(link.loader, "/api/calendar/link")).status).toBe(401);
  });

  test("the calendar page shows the link and renews it without JavaScript", async () => {
    const customer = await createAccount("user");
    const cookie = await sessionCookieFor(customer.id);
    const before = (await callRoute(calendar.loader, new Request(`${BASE_URL}/dashboard/calendar`, { headers: { Cookie: cookie } }))).data as {
      calendarLink: string;
    };
    expect(before.calendarLink).toBe(await linkOf(customer));

    const renewed = await callRoute(
      calendar.action,
      formRequest("/dashboard/calendar?month=2030-05", { intent: "renew_link" }, { Cookie: cookie, Origin: BASE_URL }),
    );
    expect(renewed.status).toBe(302);
    expect(renewed.location).toBe("/dashboard/calendar?month=2030-05#calendar-link-heading");
    const after = await linkOf(customer);
    expect(after).not.toBe(before.calendarLink);
    expect((await open(before.calendarLink)).status).toBe(404);

    const staff = await createAccount("team");
    const staffPage = (
      await callRoute(calendar.loader, new Request(`${BASE_URL}/dashboard/calendar`, { headers: { Cookie: await sessionCookieFor(staff.id) } }))
    ).data as { calendarLink: string | null };
    expect(staffPage.calendarLink).toBeNull();
    const staffRenew = await callRoute(
      calendar.action,
      formRequest("/dashboard/calendar", { intent: "renew_link" }, { Cookie: await sessionCookieFor(staff.id), Origin: BASE_URL }),
    );
    expect(staffRenew.status).toBe(403);
  });
});
