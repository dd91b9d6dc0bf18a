import { eq, sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";

import { DELETED_NAME, OWN_DATA_MESSAGES } from "~/domain/own-data";
import { createSession, getSessionUser } from "~/models/sessions.server";
import { verifyLogin } from "~/models/users.server";
import * as accountApi from "~/routes/api+/account+/_layout";
import * as exportApi from "~/routes/api+/account+/export";
import * as deletePage from "~/routes/dashboard+/_customer+/account_.delete";
import { settleBackgroundTasks } from "~/utils/background.server";
import { db, schema } from "~/utils/db.server";
import { storage } from "~/utils/storage.server";

import { call, readJson } from "../support/dashboard-helpers";
import { createAccount, unique, type Account } from "../support/factories";
import { readOutbox } from "../support/outbox";
import { customerWithData, deleteAccount, deletionRemovesFiles, OWNER_PASSWORD } from "../support/own-data-helpers";
import { readZip } from "../support/zip";

/* "Your own data" (decision 240): the export as a streamed zip, and deleting a customer account. */

const onDisk = (key: string) =>
  storage.get(key).then(
    (stream) => (stream.destroy(), true),
    () => false,
  );

const exportOf = (auth: Account | null) => call(exportApi.loader, "/api/account/export", { auth });

type AccountJson = {
  exportedAt: string;
  profile: { _id: string; email: string; name: string; role: string };
  orders: { _id: string; amount: number; lines: unknown[] }[];
  purchases: { _id: string; status: string }[];
  subscriptions: unknown[];
  receipts: { _id: string }[];
  messages: { _id: string; message: string; messageType: string; attachment?: { fileName: string } }[];
  reports: { _id: string; title: string; fileName: string; file: string | null }[];
  posts: { _id: string; caption: string; status: string }[];
  briefs: { _id: string; purchaseId: string | null; answers: Record<string, unknown>; submittedAt: string | null }[];
  signInDevices: { kind: string; description: string; ip: string; firstSeenAt: string; lastSeenAt: string }[];
};

describe("GET /api/account/export", () => {
  test("streams a zip of account.json (profile, orders, purchases, plans, receipts, messages, posts, sign-in devices, reports) and the report files", async () => {
    const { account, order, purchase, text, report, reportBytes, post, brief } = await customerWithData();
    await db
      .insert(schema.signInDevices)
      .values({ userId: account.id, deviceKey: "device-key-never-exported", kind: "cookie", description: "Firefox on Linux", ip: "203.0.113.9" });
    const response = await exportOf(account);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/zip");
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="brandlift-data-\d{4}-\d{2}-\d{2}\.zip"$/);
    expect(response.headers.get("Cache-Control")).toContain("no-store");

    const entries = readZip(Buffer.from(await response.arrayBuffer()));
    const json = JSON.parse(entries.get("account.json")!.toString("utf8")) as AccountJson;
    expect(json.profile).toMatchObject({ _id: account.id, email: account.email, name: "Dana Owner", role: "user" });
    expect(json.orders.map((o) => o._id)).toEqual([order.id]);
    expect(json.purchases.map((p) => p._id)).toEqual([purchase.id]);
    expect(json.receipts.map((r) => r._id)).toEqual([order.id]);
    expect(json.subscriptions).toEqual([]);
    expect(json.messages.map((m) => m.message)).toEqual([text.message, "photo.png"]);
    expect(json.messages[1]).toMatchObject({ messageType: "file", attachment: { fileName: "photo.png" } });
    // The calendar as the customer sees it: the post in review, not the staff's draft.
    expect(json.posts.map((p) => [p._id, p.caption, p.status])).toEqual([[post.id, "Launch day", "in_review"]]);
    // The brief as asked and answered; a staff note on the thread is in no part of the export (staff notes are the team's own).
    expect(json.briefs).toEqual([
      expect.objectContaining({ _id: brief.id, purchaseId: purchase.id, answers: { goal: "More bookings in spring" }, submittedAt: expect.any(String) }),
    ]);
    expect(Buffer.concat([...entries.values()]).toString("utf8")).not.toContain("INTERNAL: slow payer");
    // Where the account signed in from, as the new-device e-mails named it; never the device's key.
    expect(json.signInDevices).toEqual([
      { kind: "cookie", description: "Firefox on Linux", ip: "203.0.113.9", firstSeenAt: expect.any(String), lastSeenAt: expect.any(String) },
    ]);
    expect(entries.get("account.json")!.toString("utf8")).not.toContain("device-key-never-exported");
    // The file's name is kept readable but cannot make a folder or escape the zip.
    expect(json.reports).toEqual([
      expect.objectContaining({ _id: report.id, title: "November audit", file: `reports/${report.id.slice(0, 8)}-audit_ november_2026.pdf` }),
    ]);
    expect(entries.get(json.reports[0]!.file!)).toEqual(reportBytes);
    expect([...entries.keys()].sort()).toEqual(["account.json", json.reports[0]!.file!].sort());
  });

  test("a report file missing from storage is said so in account.json; the rest still downloads", async () => {
    const { account, report } = await customerWithData();
    await storage.delete(report.storageKey);
    const response = await exportOf(account);
    expect(response.status).toBe(200);
    const entries = readZip(Buffer.from(await response.arrayBuffer()));
    const json = JSON.parse(entries.get("account.json")!.toString("utf8")) as AccountJson;
    expect(json.reports).toEqual([expect.objectContaining({ _id: report.id, file: null })]);
    expect([...entries.keys()]).toEqual(["account.json"]);
  });

  test("staff get their own profile and nothing of anyone else's; signed out is a 401", async () => {
    await customerWithData();
    const staff = await createAccount({ role: "team", name: "Sam Staff" });
    const response = await exportOf(staff);
    expect(response.status).toBe(200);
    const json = JSON.parse(
      readZip(Buffer.from(await response.arrayBuffer()))
        .get("account.json")!
        .toString("utf8"),
    ) as AccountJson;
    expect(json.profile).toMatchObject({ _id: staff.id, role: "team" });
    expect([json.orders, json.purchases, json.messages, json.reports, json.posts, json.briefs]).toEqual([[], [], [], [], [], []]);

    const anonymous = await exportOf(null);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ success: false, code: "UNAUTHORIZED" });
  });
});

describe("DELETE /api/account", () => {
  test("anonymises the name and e-mail, ends every session and token, removes messages and files, keeps the order for the books", async () => {
    const scenario = await customerWithData();
    const { account, order, purchase } = scenario;
    const lead = await db
      .insert(schema.leads)
      .values({ gradeId: await gradeId(), email: account.email.toLowerCase(), name: "Dana" })
      .returning();
    const otherBearer = (await createSession(account.id, "bearer")).token;
    const message = { to: account.email, subject: "Your order", heading: "Thanks", paragraphs: ["Hi"] };
    await db.insert(schema.emails).values([
      { recipient: account.email, subject: "sent to them", message, userId: account.id, state: "sent" },
      { recipient: account.email.toUpperCase(), subject: "still waiting", message, state: "retrying" },
    ]);

    await deletionRemovesFiles(scenario, onDisk);

    const [user] = await db.select().from(schema.users).where(eq(schema.users.id, account.id));
    expect(user).toMatchObject({ name: DELETED_NAME, email: `deleted-${account.id}@deleted.invalid`, passwordHash: null });
    expect(user!.disabledAt).toBeInstanceOf(Date);
    expect(await getSessionUser(account.bearer, "bearer")).toBeNull();
    expect(await getSessionUser(otherBearer, "bearer")).toBeNull();
    expect(await db.select().from(schema.sessions).where(eq(schema.sessions.userId, account.id))).toEqual([]);
    expect(await verifyLogin(account.email, OWNER_PASSWORD)).toBeNull();

    // The books: the order and its purchase stay, with the money, without the person.
    const [kept] = await db.select().from(schema.orders).where(eq(schema.orders.id, order.id));
    expect(kept).toMatchObject({ userId: account.id, totalCents: order.totalCents, status: "paid", name: DELETED_NAME, email: user!.email });
    expect(await db.select().from(schema.purchases).where(eq(schema.purchases.id, purchase.id))).toHaveLength(1);

    expect(await db.select().from(schema.chatMessages).where(eq(schema.chatMessages.customerId, account.id))).toEqual([]);
    expect(await db.select().from(schema.briefs).where(eq(schema.briefs.userId, account.id))).toEqual([]);
    expect(await db.select().from(schema.leads).where(eq(schema.leads.id, lead[0]!.id))).toEqual([]);
    expect(await db.select().from(schema.users).where(eq(schema.users.email, account.email))).toEqual([]);

    await settleBackgroundTasks();
    expect(readOutbox(account.email).map((mail) => mail.subject)).toContain("Your BrandLift account was deleted");
    // What was written to them before is gone; only the goodbye is on record.
    const left = await db
      .select({ subject: schema.emails.subject })
      .from(schema.emails)
      .where(sql`lower(${schema.emails.recipient}) = ${account.email.toLowerCase()}`);
    expect(left.map((row) => row.subject)).toEqual(["Your BrandLift account was deleted"]);
  });

  test("a wrong password is a 400 in the password change's words, and nothing changes", async () => {
    const { account, report } = await customerWithData();
    const response = await deleteAccount(account, "not-my-password");
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "WRONG_PASSWORD", message: "Your current password is not correct." });
    expect(await getSessionUser(account.bearer, "bearer")).not.toBeNull();
    expect(await onDisk(report.storageKey)).toBe(true);

    const missing = await deleteAccount(account, "");
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ code: "INVALID_INPUT", message: OWN_DATA_MESSAGES.passwordRequired });
    const hostile = await deleteAccount(account, "a\u0000b");
    expect(hostile.status).toBe(400);
  });

  test("refused with 409 while a plan is active, unless asked to end it first; staff get a 403; signed out a 401", async () => {
    const { account } = await customerWithData();
    await db
      .insert(schema.subscriptions)
      .values({ userId: account.id, planId: "pro", status: "active", priceCents: 15900, stripeSubscriptionId: `sub_${unique()}` });
    const refused = await deleteAccount(account, OWNER_PASSWORD);
    expect(refused.status).toBe(409);
    expect(await readJson(refused)).toMatchObject({ code: "SUBSCRIPTION_ACTIVE", message: OWN_DATA_MESSAGES.activePlan });
    expect(await getSessionUser(account.bearer, "bearer")).not.toBeNull();
    // Asked to end it first: the plan ends now, then the account goes.
    const ended = await call(accountApi.action, "/api/account", {
      auth: account,
      method: "DELETE",
      body: JSON.stringify({ password: OWNER_PASSWORD, endPlans: true }),
      headers: { "Content-Type": "application/json" },
    });
    expect(ended.status).toBe(200);
    expect((await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.userId, account.id)))[0]!.status).toBe("canceled");

    const staff = await createAccount({ role: "team", password: OWNER_PASSWORD });
    expect((await deleteAccount(staff, OWNER_PASSWORD)).status).toBe(403);
    expect((await deleteAccount(null as never, OWNER_PASSWORD)).status).toBe(401);
  });
});

describe("/dashboard/account/delete (a plain form)", () => {
  const post = (cookie: string, fields: Record<string, string>) =>
    call(deletePage.action, "/dashboard/account/delete", {
      auth: { cookie },
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });

  test("asks for the tick box and the password, then deletes, clears the cookie and goes home with a message", async () => {
    const { account } = await customerWithData();
    const unticked = await post(account.cookie, { password: OWNER_PASSWORD });
    expect(unticked.status).toBe(400);
    expect(await unticked.json()).toMatchObject({ result: { status: "error", error: { confirm: [OWN_DATA_MESSAGES.confirmRequired] } } });
    const wrong = await post(account.cookie, { password: "nope-nope-nope", confirm: "yes" });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ result: { status: "error", error: { password: ["Your current password is not correct."] } } });

    const done = await post(account.cookie, { password: OWNER_PASSWORD, confirm: "yes" });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/");
    expect(done.headers.getSetCookie().some((cookie) => /^__session=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/i.test(cookie))).toBe(true);
    expect(await getSessionUser(account.bearer, "bearer")).toBeNull();
    const again = await call(deletePage.loader, "/dashboard/account/delete", { auth: { cookie: account.cookie } });
    expect(again.status).toBe(302);
    expect(again.headers.get("Location")).toMatch(/^\/login\?/);
  });

  test("while a plan runs: the page shows it with its unused part; the deletion asks to end it now, and then ends it and deletes the account", async () => {
    const { account } = await customerWithData();
    const periodEnd = new Date(Date.now() + 15 * 86_400_000);
    const [plan] = await db
      .insert(schema.subscriptions)
      .values({ userId: account.id, planId: "pro", status: "active", priceCents: 15900, currentPeriodEnd: periodEnd, stripeSubscriptionId: `sub_${unique()}` })
      .returning();
    const page = await readJson<{ plans: { id: string; name: string; periodEnd: string; unusedCents: number }[] }>(
      await call(deletePage.loader, "/dashboard/account/delete", { auth: { cookie: account.cookie } }),
    );
    expect(page.plans).toHaveLength(1);
    expect(page.plans[0]).toMatchObject({ id: plan!.id, periodEnd: periodEnd.toISOString() });
    // About half of a month is left: about half of $159.
    expect(page.plans[0]!.unusedCents).toBeGreaterThan(7000);
    expect(page.plans[0]!.unusedCents).toBeLessThan(8700);

    const kept = await post(account.cookie, { password: OWNER_PASSWORD, confirm: "yes" });
    expect(kept.status).toBe(409);
    expect(await kept.json()).toMatchObject({ result: { status: "error", error: { endPlans: [OWN_DATA_MESSAGES.activePlan] } } });
    expect((await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.id, plan!.id)))[0]!.status).toBe("active");

    const done = await post(account.cookie, { password: OWNER_PASSWORD, confirm: "yes", endPlans: "yes" });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/");
    expect((await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.id, plan!.id)))[0]).toMatchObject({
      status: "canceled",
      cancelAtPeriodEnd: false,
    });
    expect(await getSessionUser(account.bearer, "bearer")).toBeNull();
  });

  test("a wrong password ends no plan", async () => {
    const { account } = await customerWithData();
    const [plan] = await db
      .insert(schema.subscriptions)
      .values({ userId: account.id, planId: "pro", status: "active", priceCents: 15900, stripeSubscriptionId: `sub_${unique()}` })
      .returning();
    const wrong = await post(account.cookie, { password: "nope-nope-nope", confirm: "yes", endPlans: "yes" });
    expect(wrong.status).toBe(400);
    expect((await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.id, plan!.id)))[0]!.status).toBe("active");
  });

  test("staff are sent back to their account page", async () => {
    const staff = await createAccount({ role: "team" });
    const response = await call(deletePage.loader, "/dashboard/account/delete", { auth: { cookie: staff.cookie } });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard/account");
  });
});

async function gradeId() {
  const [grade] = await db
    .insert(schema.grades)
    .values({ answers: {}, overall: "B", score: 70, areas: [], recommendations: [] } as never)
    .returning({ id: schema.grades.id });
  return grade!.id;
}
