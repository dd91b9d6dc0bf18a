import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import * as servicesTab from "~/routes/dashboard+/_customer+/services._index";
import * as serviceReports from "~/routes/dashboard+/_customer+/services.$purchaseId._index";
import * as staffOverview from "~/routes/dashboard+/_index";
import * as usersTab from "~/routes/dashboard+/_staff+/users+/_index";
import * as userReports from "~/routes/dashboard+/_staff+/users+/$userId._index";
import { db, schema } from "~/utils/db.server";
import { env } from "~/utils/env.server";

import { call, catalogue, createAccount, createPurchase, readJson, type Account } from "../support/dashboard-helpers";
import { filesUnder, reportCount, samples, uploadForm } from "../support/reports-cases";

/** The dashboard's pages as the browser meets them: loaders' data and the staff's form actions. */

let services: Awaited<ReturnType<typeof catalogue>>;
let staff: Account;
let dana: Account;
let eli: Account;
let danaPurchase: string;
let refunded: string;

beforeAll(async () => {
  services = await catalogue();
  staff = await createAccount("team");
  dana = await createAccount("user", { name: "Dana Pages", email: "dana.pages@dash.test" });
  eli = await createAccount("user", { name: "Eli Pages" });
  danaPurchase = (await createPurchase(dana.user.id, services[3])).purchase.id;
  refunded = (await createPurchase(dana.user.id, services[4], { status: "refunded" })).purchase.id;
  await createPurchase(eli.user.id, services[5]);
});

const page = (account: Account) => ({ cookie: account.cookie });

describe("dashboard pages", () => {
  it("the counts: staff's on the Overview page, a customer's on their overview (the Services tab)", async () => {
    // Each overview part is a section of its own: { ok: true, data } or the section's failure.
    const team = await readJson<{ counts: { ok: boolean; data: Record<string, unknown> } }>(
      await call(staffOverview.loader, "/dashboard", { auth: page(staff) }),
    );
    expect(team.counts.ok).toBe(true);
    expect(team.counts.data).toMatchObject({
      role: "team",
      totalRevenueCents: expect.any(Number),
      servicesBooked: expect.any(Number),
      totalActiveUsers: expect.any(Number),
    });
    const mine = await readJson<{ counts: { ok: boolean; data: Record<string, unknown> } }>(
      await call(servicesTab.loader, "/dashboard/services", { auth: page(dana) }),
    );
    expect(mine.counts).toEqual({ ok: true, data: { role: "user", totalServicesBooked: 1, completed: 0, inProgress: 1 } });
  });

  it("a customer's Services tab lists only their purchases; a purchase's Reports tab only theirs", async () => {
    const { purchases } = await readJson<{ purchases: { ok: true; data: { id: string }[] } }>(
      await call(servicesTab.loader, "/dashboard/services", { auth: page(dana) }),
    );
    expect(purchases.data.map((p) => p.id).sort()).toEqual([danaPurchase, refunded].sort());
    const foreign = await call(serviceReports.loader, `/dashboard/services/${danaPurchase}`, { auth: page(eli), params: { purchaseId: danaPurchase } });
    expect(foreign.status).toBe(404);
  });

  it("the Users tab searches and pages", async () => {
    const body = await readJson<{ users: { email: string }[]; total: number; pages: number; page: number }>(
      await call(usersTab.loader, "/dashboard/users?search=dana.pages&page=1", { auth: page(staff) }),
    );
    expect(body).toMatchObject({ total: 1, pages: 1, page: 1, users: [{ email: "dana.pages@dash.test" }] });
    const beyond = await readJson<{ users: unknown[]; page: number }>(await call(usersTab.loader, "/dashboard/users?page=999999999999", { auth: page(staff) }));
    expect(beyond.users).toEqual([]);
  });
});

describe("the staff's actions on a customer's page", () => {
  const path = (query = "") => `/dashboard/users/${dana.user.id}?index${query}`;
  const params = () => ({ userId: dana.user.id });

  it("marks a purchase completed and back, with a toast, and refuses other states", async () => {
    const post = (purchaseId: string, status: string) =>
      call(userReports.action, path(), {
        auth: page(staff),
        method: "POST",
        params: params(),
        body: new URLSearchParams({ intent: "status", purchaseId, status }),
      });
    const done = await post(danaPurchase, "completed");
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe(`/dashboard/users/${dana.user.id}`);
    expect(done.headers.get("Set-Cookie")).toContain("__toast");
    const [row] = await db.select().from(schema.purchases).where(eq(schema.purchases.id, danaPurchase));
    expect(row.status).toBe("completed");
    expect((await post(danaPurchase, "in_progress")).status).toBe(302);
    const conflict = await post(refunded, "completed");
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toMatchObject({ result: { error: { "": ["Only paid purchases can be marked in progress or completed."] } } });
    expect((await post(danaPurchase, "refunded")).status).toBe(400);
  });

  it("the no-JavaScript upload: errors come back to the modal, success redirects; nothing left behind on failure", async () => {
    const before = { rows: await reportCount(), files: filesUnder(env.storageDir).length };
    const refused = await call(userReports.action, path(`&upload=${danaPurchase}`), {
      auth: page(staff),
      method: "POST",
      params: params(),
      body: uploadForm({ file: { name: "x.pdf", bytes: samples.pdf() }, title: "  ", userId: dana.user.id, purchaseId: danaPurchase }),
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ uploadError: "Please enter a report title" });
    expect({ rows: await reportCount(), files: filesUnder(env.storageDir).length }).toEqual(before);

    const ok = await call(userReports.action, path(`&upload=${danaPurchase}`), {
      auth: page(staff),
      method: "POST",
      params: params(),
      body: uploadForm({ file: { name: "x.pdf", bytes: samples.pdf() }, title: "Week one", userId: dana.user.id, purchaseId: danaPurchase }),
    });
    expect(ok.status).toBe(302);
    expect(await reportCount()).toBe(before.rows + 1);

    // A purchase of someone else through Dana's page is not found.
    const [eliPurchase] = await db.select().from(schema.purchases).where(eq(schema.purchases.userId, eli.user.id));
    const wrong = await call(userReports.action, path(`&upload=${eliPurchase.id}`), {
      auth: page(staff),
      method: "POST",
      params: params(),
      body: uploadForm({ file: { name: "x.pdf", bytes: samples.pdf() }, title: "Nope", userId: eli.user.id }),
    });
    expect(wrong.status).toBe(404);
  });
});
