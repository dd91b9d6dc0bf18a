import { chromium, type Browser, type Page } from "@playwright/test";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { db } from "~/utils/db.server";

import { catalogue, createAccount, createPurchase, type Account } from "../support/dashboard-helpers";
import { ensureBuild, startServer, type ServerProcess } from "../support/server-process";

/*
 * Every section fails on its own: the production server on this file's PostgreSQL database, one
 * table made unreadable (renamed) at a time. The page still answers 200 with the rest of it,
 * the section shows the spec's error text and a Retry; once the table is back, Retry in a real
 * browser reloads only that section's data.
 */

let server: ServerProcess;
let browser: Browser;
let customer: Account;
let staff: Account;
let purchaseId: string;

async function unreadable<T>(table: string, run: () => Promise<T>): Promise<T> {
  await db.execute(sql.raw(`alter table ${table} rename to ${table}_unreadable`));
  try {
    return await run();
  } finally {
    await db.execute(sql.raw(`alter table ${table}_unreadable rename to ${table}`));
  }
}

async function html(path: string, account?: Account) {
  const response = await fetch(`${server.url}${path}`, { headers: account ? { Cookie: account.cookie } : {}, redirect: "manual" });
  return { status: response.status, body: await response.text(), cacheControl: response.headers.get("Cache-Control") };
}

/** Hydration starts once the page has loaded and painted (decision 008): Retry is the app's only after it. */
const hydrated = (page: Page) => page.waitForSelector("html[data-hydrated]", { state: "attached" });

async function pageAs(account: Account): Promise<Page> {
  const context = await browser.newContext();
  const [name, value] = account.cookie.split("=");
  await context.addCookies([{ name: name!, value: value!, url: server.url }]);
  return context.newPage();
}

beforeAll(async () => {
  ensureBuild();
  const services = await catalogue();
  customer = await createAccount("user", { name: "Sasha Sections" });
  staff = await createAccount("team", { name: "Stevie Staff" });
  purchaseId = (await createPurchase(customer.user.id, services[0]!)).purchase.id;
  const [{ name }] = (await db.execute(sql`select current_database() as name`)) as unknown as [{ name: string }];
  const databaseUrl = Object.assign(new URL(process.env.DATABASE_URL!), { pathname: `/${name}` }).toString();
  // The same DATA_DIR: the server signs cookies with this file's session secret.
  server = await startServer({ DATA_DIR: process.env.DATA_DIR!, DATABASE_URL: databaseUrl, REDIS_URL: process.env.REDIS_URL ?? "" });
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--headless", "--no-sandbox"] });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  if (process.env.SHOW_SERVER_OUTPUT) console.log(server?.output());
  await server?.stop();
});

describe("a table that cannot be read fails only its section", () => {
  test("the landing page: 'Failed to load services' in the picker, every other section, never cached", async () => {
    const page = await unreadable("services", () => html("/"));
    expect(page.status).toBe(200);
    expect(page.body).toContain("Failed to load services");
    for (const heading of ["A-La-Carte Services", "Our Services", "Subscription options", "Why choose us?", "Get in touch"]) {
      expect(page.body).toContain(heading);
    }
    expect(page.cacheControl).toContain("no-store");
    // Back to normal right away: the failure was not cached.
    const healthy = await html("/");
    expect(healthy.body).not.toContain("Failed to load services");
    expect(healthy.body).toContain('name="services"');
  });

  test("a customer's Reports tab: 'Failed to load reports', the sidebar stays (the counts are the overview's alone)", async () => {
    // Remix answers 500 when a route's loader failed, with that route's boundary in a full page.
    const page = await unreadable("reports", () => html("/dashboard/reports", customer));
    expect(page.body).toContain("Failed to load reports");
    expect(page.body).toContain('aria-label="Dashboard"');
    expect(page.body).toContain("Logout");
    expect(page.body).not.toContain("Total Services Booked");
  });

  test("a customer's Services tab and a service: the spec's texts with Retry", async () => {
    const list = await unreadable("purchases", () => html("/dashboard/services", customer));
    expect(list.body).toContain("Error Loading Services");
    expect(list.body).toContain("Failed to load purchased services");
    expect(list.body).toContain("Retry");
    expect(list.body).toContain('aria-label="Dashboard"');
    // The overview reads purchases too: it fails in its own place.
    expect(list.body).toContain("Failed to load the overview");

    const detail = await unreadable("services", () => html(`/dashboard/services/${purchaseId}`, customer));
    expect(detail.body).toContain("Failed to load services");
    expect(detail.body).toContain('aria-label="Dashboard"');
  });

  test("staff opening a customer: 'Failed to load user purchases' under the customer's name", async () => {
    const page = await unreadable("purchases", () => html(`/dashboard/users/${customer.user.id}`, staff));
    expect(page.body).toContain("Failed to load user purchases");
    expect(page.body).toContain("Sasha Sections");
    expect(page.body).toContain('aria-label="Dashboard"');
  });
});

describe("Retry reloads only that section", () => {
  test("the picker's Retry loads the page's data again (one request), and the boxes come back", async () => {
    const page = await browser.newPage();
    // A query string: past the landing page's cache. The catalogue itself is kept 5 s per node,
    // so the failure shows once the earlier tests' healthy read has expired.
    await unreadable("services", () =>
      expect
        .poll(async () => (await page.goto(`${server.url}/?fresh`), page.locator("#a-la-carte").getByText("Failed to load services").isVisible()), {
          timeout: 8_000,
          interval: 500,
        })
        .toBe(true),
    );
    await hydrated(page);
    const requests: string[] = [];
    // Data requests only: Remix may also ask for its route manifest (lazy route discovery).
    page.on("request", (request) => {
      if (!request.url().includes("/__manifest")) requests.push(new URL(request.url()).pathname);
    });
    // The picker's own Retry (Our Services reads the catalogue too, and fails beside it).
    await page.locator("#a-la-carte").getByRole("button", { name: "Retry" }).click();
    await expect.poll(() => page.getByRole("checkbox").count()).toBeGreaterThan(0);
    // The landing page's own loader, as the page reads it (single fetch: one `.data` request).
    expect(requests).toEqual(["/_root.data"]);
    await page.close();
  });

  test("the Reports tab's Retry loads only the reports route's data", async () => {
    const page = await pageAs(customer);
    await unreadable("reports", () => page.goto(`${server.url}/dashboard/reports`));
    await expect.poll(() => page.getByText("Failed to load reports").isVisible()).toBe(true);
    await hydrated(page);
    const requests: string[] = [];
    page.on("request", (request) => {
      if (!request.url().includes("/__manifest")) requests.push(request.url());
    });
    await page.getByRole("button", { name: "Retry" }).click();
    await expect.poll(() => page.getByRole("heading", { name: "No Reports Available" }).isVisible()).toBe(true);
    expect(requests).toHaveLength(1);
    expect(decodeURIComponent(requests[0]!)).toContain("/dashboard/reports.data?_routes=routes/dashboard+/_customer+/reports");
    await page.context().close();
  });

  test("staff's Retry on a customer's purchases brings the purchases back", async () => {
    const page = await pageAs(staff);
    await unreadable("purchases", () => page.goto(`${server.url}/dashboard/users/${customer.user.id}`));
    await expect.poll(() => page.getByText("Failed to load user purchases").isVisible()).toBe(true);
    await page.locator("[data-section-error]", { hasText: "Failed to load user purchases" }).getByRole("button", { name: "Retry" }).click();
    await expect.poll(() => page.getByRole("link", { name: /Upload Report/ }).count()).toBe(1);
    await page.context().close();
  });
});
