import { and, eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";

import { encodeCursor } from "~/domain/notifications";
import { action as settingsAction, loader as settingsLoader } from "~/routes/api+/account+/notifications";
import { loader as listLoader } from "~/routes/api+/notifications+/_layout";
import { action as readAction } from "~/routes/api+/notifications+/read";
import { loader as layoutLoader } from "~/routes/dashboard+/_layout";
import { action as pageAction, loader as pageLoader } from "~/routes/dashboard+/notifications";
import { action as unsubscribeAction, loader as unsubscribeLoader } from "~/routes/unsubscribe.$token";
import { db, schema } from "~/utils/db.server";
import { sendEmail } from "~/utils/email.server";
import { unsubscribeToken } from "~/utils/unsubscribe-links.server";

import { callRoute } from "../../tests/support/call-route";
import { bearerFor, createAccount, createTestUser, sessionCookieFor } from "../../tests/support/factories";
import { readOutbox } from "../../tests/support/outbox";
import { formRequest, jsonRequest } from "../../tests/support/requests";
import { notifyCustomerOfReply } from "./chat.server";
import {
  listNotifications,
  markNotificationsRead,
  notificationSettingsOf,
  notify,
  sendDueDigests,
  unreadCount,
  updateNotificationSettings,
} from "./notifications.server";

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function emailsTo(userId: string) {
  return db.select().from(schema.emails).where(eq(schema.emails.userId, userId));
}

describe("notify", () => {
  test("stores one per recipient (repeats once, disabled accounts left out), counts the unread and lists newest first", async () => {
    const [ada, bea] = await Promise.all([createTestUser({ name: "Ada" }), createTestUser({ name: "Bea" })]);
    const gone = await createAccount({ disabledAt: new Date() });
    const sent = await notify([ada.id, ada.id, bea.id, gone.user.id], { kind: "order", title: "New order #1", url: "/dashboard/orders" });
    expect(sent.ids).toHaveLength(2);
    await notify([ada.id], { kind: "report_ready", title: "Your May report", body: "It is ready to download.", url: "/dashboard/reports" });

    expect(await unreadCount(ada.id)).toBe(2);
    expect(await unreadCount(gone.user.id)).toBe(0);
    const list = await listNotifications(ada.id);
    expect(list.map((item) => item.title)).toEqual(["Your May report", "New order #1"]);
    expect(list[0]).toMatchObject({ kind: "report_ready", body: "It is ready to download.", url: "/dashboard/reports", readAt: null });
  });

  test("pages 50 at a time by the cursor, and marks one, then all, read", async () => {
    const user = await createTestUser();
    for (let i = 1; i <= 55; i++) {
      // Each in a millisecond of its own (their time's precision): two in one are listed in id order, not the order they came.
      const at = Date.now();
      while (Date.now() === at);
      await notify([user.id], { kind: "order", title: `Order ${i}`, url: "/dashboard/orders" });
    }
    const first = await listNotifications(user.id);
    expect(first).toHaveLength(50);
    expect(first[0]!.title).toBe("Order 55");
    const last = first.at(-1)!;
    const second = await listNotifications(user.id, { before: { createdAt: new Date(last.createdAt), id: last._id } });
    expect(second.map((item) => item.title)).toEqual(["Order 5", "Order 4", "Order 3", "Order 2", "Order 1"]);

    // The same through the API, with its cursor.
    const page = await callRoute(
      listLoader,
      jsonRequest(`/api/notifications?before=${encodeCursor(last.createdAt, last._id)}`, undefined, bearer(await bearerFor(user.id)), "GET"),
    );
    expect(page.status).toBe(200);
    const body = await page.response.json();
    expect(body.data.notifications).toHaveLength(5);
    expect(body.data.unread).toBe(55);

    expect(await markNotificationsRead(user.id, { ids: [first[0]!._id] })).toBe(54);
    expect((await listNotifications(user.id, { unread: true }))[0]!.title).toBe("Order 54");
    expect(await markNotificationsRead(user.id, { all: true })).toBe(0);
  });

  test("marking read touches only your own notifications", async () => {
    const [mine, theirs] = await Promise.all([createAccount(), createTestUser()]);
    const { ids } = await notify([theirs.id], { kind: "billing", title: "Payment failed", url: "/dashboard/receipts" });
    const answer = await callRoute(readAction, jsonRequest("/api/notifications/read", { ids }, bearer(mine.token)));
    expect(answer.status).toBe(200);
    expect(await unreadCount(theirs.id)).toBe(1);
  });

  test("an instant choice e-mails at once; daily waits for the digest; off sends nothing", async () => {
    const [instant, daily, off] = await Promise.all([createTestUser(), createTestUser(), createTestUser()]);
    await updateNotificationSettings(daily.id, { email: { report_ready: "daily" } });
    await updateNotificationSettings(off.id, { email: { report_ready: "off" } });
    await notify([instant.id, daily.id, off.id], { kind: "report_ready", title: "Your report is ready", url: "/dashboard/reports" });
    expect(readOutbox(instant.email).map((email) => email.subject)).toEqual(["Your report is ready"]);
    expect(await emailsTo(daily.id)).toHaveLength(0);
    expect(await emailsTo(off.id)).toHaveLength(0);
    expect(await unreadCount(off.id)).toBe(1);
  });

  test("a chat reply's own e-mail goes only to a member whose choice for messages is instant", async () => {
    const [instant, daily] = await Promise.all([createTestUser(), createTestUser()]);
    await updateNotificationSettings(daily.id, { email: { message: "daily" } });
    expect(await notifyCustomerOfReply(instant.id, "Sam Staff")).toBe(true);
    expect(await notifyCustomerOfReply(daily.id, "Sam Staff")).toBe(false);
    expect(readOutbox(instant.email).map((email) => email.subject)).toEqual(["You have a new message from BrandLift"]);
    expect(readOutbox(daily.email)).toEqual([]);
  });

  test("inside a transaction that rolls back, nothing is stored and nothing is sent", async () => {
    const user = await createTestUser();
    await expect(
      db.transaction(async (tx) => {
        await notify([user.id], { kind: "order", title: "Rolled back", url: "/dashboard/orders" }, tx);
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await unreadCount(user.id)).toBe(0);
    expect(await emailsTo(user.id)).toHaveLength(0);
  });
});

describe("the notifications page", () => {
  test("shows 20 at a time with a link to older ones, and marks one and then all read with plain forms", async () => {
    const user = await createTestUser();
    for (let i = 1; i <= 25; i++) {
      // Each in a millisecond of its own (their time's precision): two in one are shown in id order, not the order they came.
      const at = Date.now();
      while (Date.now() === at);
      await notify([user.id], { kind: "order", title: `Order ${i}`, url: "/dashboard/orders" });
    }
    const cookie = await sessionCookieFor(user.id);
    const first = await callRoute(pageLoader, new Request("http://localhost/dashboard/notifications", { headers: { Cookie: cookie } }));
    expect(first.data.notifications).toHaveLength(20);
    expect(first.data.unread).toBe(25);
    const older = await callRoute(
      pageLoader,
      new Request(`http://localhost/dashboard/notifications?before=${first.data.next}`, { headers: { Cookie: cookie } }),
    );
    expect(older.data.notifications.map((item: { title: string }) => item.title)).toEqual(["Order 5", "Order 4", "Order 3", "Order 2", "Order 1"]);
    expect(older.data.next).toBeNull();

    const one = await callRoute(pageAction, formRequest("/dashboard/notifications", { id: first.data.notifications[0]._id }, { Cookie: cookie }));
    expect(one.location).toBe("/dashboard/notifications");
    expect(await unreadCount(user.id)).toBe(24);
    await callRoute(pageAction, formRequest("/dashboard/notifications", { all: "1" }, { Cookie: cookie }));
    expect(await unreadCount(user.id)).toBe(0);
  });

  test("every dashboard page's layout carries the bell's unread count", async () => {
    const user = await createTestUser();
    await notify([user.id], { kind: "billing", title: "Payment failed", url: "/dashboard/receipts" });
    await notify([user.id], { kind: "report_ready", title: "New report", url: "/dashboard/reports" });
    const layout = await callRoute(layoutLoader, new Request("http://localhost/dashboard/services", { headers: { Cookie: await sessionCookieFor(user.id) } }));
    expect(layout.data.notifications).toBe(2);
  });
});

describe("e-mail choices", () => {
  test("defaults until chosen; the API changes only the kinds given; bad input is a 400 in plain words", async () => {
    const account = await createAccount();
    const read = await callRoute(settingsLoader, jsonRequest("/api/account/notifications", undefined, bearer(account.token), "GET"));
    expect((await read.response.json()).data).toMatchObject({ email: { post_review: "instant", order: "daily" }, timeZone: "UTC" });

    const put = (body: unknown) => callRoute(settingsAction, jsonRequest("/api/account/notifications", body, bearer(account.token), "PUT"));
    const changed = await put({ email: { post_review: "daily" }, timeZone: "America/New_York" });
    expect(changed.status).toBe(200);
    const after = (await changed.response.json()).data;
    expect(after.email).toMatchObject({ post_review: "daily", message: "instant" });
    expect(after.timeZone).toBe("America/New_York");

    const weekly = await put({ email: { post_review: "weekly" } });
    expect(weekly.status).toBe(400);
    expect((await weekly.response.json()).message).toContain('"instant", "daily" or "off"');
    const unknown = await put({ email: { newsletter: "off" } });
    expect(unknown.status).toBe(400);
    expect((await unknown.response.json()).message).toContain("Unknown kind of notification");
    const zone = await put({ email: {}, timeZone: "Mars/Olympus_Mons" });
    expect(zone.status).toBe(400);
    expect((await zone.response.json()).message).toContain("time zone");
    expect((await notificationSettingsOf(account.user.id)).email.post_review).toBe("daily");
  });
});

describe("the morning digest", () => {
  test("goes at 08:00 in the person's zone, once a day, and never carries an item twice", async () => {
    const user = await createTestUser({ name: "Pat" });
    await updateNotificationSettings(user.id, { email: { order: "daily" }, timeZone: "Asia/Tokyo" });
    await notify([user.id], { kind: "order", title: "Order A", url: "/dashboard/orders" });
    // The digest lists the newest first by when each was made, to the millisecond: B comes later.
    await new Promise((resolve) => setTimeout(resolve, 2));
    await notify([user.id], { kind: "order", title: "Order B", url: "/dashboard/orders" });

    // 07:59 in Tokyo (22:59 UTC the day before): not yet.
    await sendDueDigests(new Date("2030-03-01T22:59:00Z"));
    expect(await emailsTo(user.id)).toHaveLength(0);
    // 08:00 in Tokyo: one digest of both.
    await sendDueDigests(new Date("2030-03-01T23:00:00Z"));
    const first = await emailsTo(user.id);
    expect(first).toHaveLength(1);
    expect(first[0]!.message.paragraphs).toEqual(["Order B", "Order A"]);

    // A run beside it, and a later one the same morning: nothing again.
    await Promise.all([sendDueDigests(new Date("2030-03-01T23:00:00Z")), sendDueDigests(new Date("2030-03-01T23:15:00Z"))]);
    expect(await emailsTo(user.id)).toHaveLength(1);

    // A new item waits for the next morning, alone.
    await notify([user.id], { kind: "order", title: "Order C", url: "/dashboard/orders" });
    await sendDueDigests(new Date("2030-03-02T03:00:00Z"));
    expect(await emailsTo(user.id)).toHaveLength(1);
    await sendDueDigests(new Date("2030-03-02T23:05:00Z"));
    const after = await emailsTo(user.id);
    expect(after).toHaveLength(2);
    const second = after.find((row) => row.id !== first[0]!.id)!;
    expect(second.message.paragraphs).toEqual(["Order C"]);
    const left = await db
      .select()
      .from(schema.notifications)
      .where(and(eq(schema.notifications.userId, user.id), eq(schema.notifications.email, "daily")));
    expect(left.every((row) => row.digestedAt !== null)).toBe(true);
  });
});

describe("unsubscribe and security e-mails", () => {
  test("a non-security e-mail carries the one-click headers; a security one does not", async () => {
    const user = await createTestUser();
    await sendEmail({ to: user.email, category: "order", subject: "A new order", heading: "A new order", paragraphs: ["Hello."] }, { userId: user.id });
    await sendEmail(
      { to: user.email, category: "security", subject: "Your password changed", heading: "Password changed", paragraphs: ["Hello."] },
      { userId: user.id },
    );
    const [order, security] = readOutbox(user.email);
    expect(order!.raw).toMatch(new RegExp(`List-Unsubscribe:\\s+<http[^>]+/unsubscribe/${user.id}\\.order\\.`));
    expect(order!.raw).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    expect(security!.subject).toBe("Your password changed");
    expect(security!.raw).not.toContain("List-Unsubscribe");
  });

  test("one POST of the link turns that kind off without signing in; a changed link is refused; security e-mails still go", async () => {
    const user = await createTestUser();
    const token = unsubscribeToken(user.id, "order");
    const page = await callRoute(unsubscribeLoader, `/unsubscribe/${token}`, { params: { token } });
    expect(page.status).toBe(200);
    expect((await notificationSettingsOf(user.id)).email.order).toBe("daily");

    const forged = `${token.slice(0, -2)}xx`;
    expect(
      (await callRoute(unsubscribeAction, formRequest(`/unsubscribe/${forged}`, { "List-Unsubscribe": "One-Click" }), { params: { token: forged } })).status,
    ).toBe(404);
    const otherKind = token.replace(".order.", ".billing.");
    expect((await callRoute(unsubscribeAction, formRequest(`/unsubscribe/${otherKind}`, {}), { params: { token: otherKind } })).status).toBe(404);

    // A mail program's one-click POST: no cookie, no Origin.
    const oneClick = new Request(`http://localhost/unsubscribe/${token}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect((await callRoute(unsubscribeAction, oneClick, { params: { token } })).status).toBe(200);
    expect((await notificationSettingsOf(user.id)).email.order).toBe("off");

    // An order e-mail is now not sent; a security e-mail always is.
    await sendEmail({ to: user.email, category: "order", subject: "Another order", heading: "Another order", paragraphs: ["Hi."] }, { userId: user.id });
    await sendEmail({ to: user.email, category: "security", subject: "New sign-in", heading: "New sign-in", paragraphs: ["Hi."] }, { userId: user.id });
    expect(readOutbox(user.email).map((email) => email.subject)).toEqual(["New sign-in"]);
    const [skipped] = await db
      .select()
      .from(schema.emails)
      .where(and(eq(schema.emails.userId, user.id), eq(schema.emails.subject, "Another order")));
    expect(skipped!.lastError).toContain("turned these e-mails off");
  });
});
