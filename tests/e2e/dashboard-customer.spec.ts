import fs from "node:fs";
import { createRequire } from "node:module";
import { decode } from "turbo-stream";

import { ACCOUNTS, expect, storageStateFor, test } from "./fixtures";

/**
 * The server's real single-fetch answer with one route's loader turned into a thrown error,
 * encoded by Remix's own encoder: what the browser gets when that loader fails on the server.
 */
async function withLoaderError(body: Buffer, routeId: string) {
  const decoded = await decode(new Response(new Uint8Array(body)).body!);
  await decoded.done;
  const results = { ...(decoded.value as Record<string, unknown>), [routeId]: { error: new Error("Unexpected Server Error") } };
  const singleFetch = createRequire(import.meta.url)("@remix-run/server-runtime/dist/single-fetch.js") as {
    encodeViaTurboStream(data: unknown, signal: AbortSignal, timeout: undefined, mode: string): ReadableStream<Uint8Array>;
  };
  return Buffer.from(await new Response(singleFetch.encodeViaTurboStream(results, new AbortController().signal, undefined, "production")).arrayBuffer());
}

/** Deliberate 4xx/5xx answers are logged by the browser; those, and only those, are expected. */
function allowConsole(errors: string[], pattern: RegExp) {
  const rest = errors.filter((e) => !pattern.test(e));
  errors.length = 0;
  errors.push(...rest);
}

/** The customer's dashboard: Services, a service's Reports and Message tabs, Reports, and their states. */

test.describe("customer with purchases", () => {
  test.use({ storageState: storageStateFor("customer") });

  test("services list, detail with tabs that have their own URLs, and back", async ({ page }, testInfo) => {
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/dashboard\/services$/);
    const overview = page.getByRole("region", { name: "Overview" });
    await expect(overview.getByText("Total Services Booked")).toBeVisible();
    await expect(overview.getByText("Completed")).toBeVisible();
    await expect(overview.getByText("In Progress")).toBeVisible();
    const nav = page.getByRole("navigation", { name: "Dashboard" });
    await expect(nav.getByRole("link", { name: "Services" })).toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("link", { name: "Reports" })).toBeVisible();
    await expect(nav.getByRole("button", { name: "Logout" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Users" })).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "Social Media Audit" }).first()).toBeVisible();
    await expect(page.getByText("$28.99").first()).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("services.png"), fullPage: true });

    // Newest first: the seeded purchase (with its report) is the last of its name (the JavaScript run may buy another).
    await page.getByRole("link", { name: "View Details of Social Media Audit" }).last().click();
    await expect(page).toHaveURL(/\/dashboard\/services\/[0-9a-f-]{36}$/);
    const detailUrl = page.url();
    await expect(page.getByRole("heading", { level: 2, name: "Social Media Audit" })).toBeVisible();
    await expect(page.getByText("We grade every public detail of your profiles")).toBeVisible();
    await expect(page.getByText("Purchase date")).toBeVisible();
    await expect(page.getByText("Quantity")).toBeVisible();
    const tabs = page.getByRole("navigation", { name: "Service" });
    await expect(tabs.getByRole("link", { name: "Reports" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("heading", { name: "Audit findings and 90-day plan" })).toBeVisible();
    // The same size reads the same everywhere: here as on the Reports grid and in chat (decision 171).
    await expect(page.getByText("406 Bytes")).toBeVisible();
    await expect(page.getByRole("link", { name: "Download Audit findings and 90-day plan" })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("service-detail.png"), fullPage: true });

    await tabs.getByRole("link", { name: "Message" }).click();
    await expect(page).toHaveURL(`${detailUrl}/message`);
    await expect(tabs.getByRole("link", { name: "Message" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByPlaceholder("Type Message Here")).toBeVisible();

    // A reload lands on the same tab; Back returns to the Reports tab.
    await page.reload();
    await expect(page.getByPlaceholder("Type Message Here")).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL(detailUrl);
    // The tab's form sends about this service, with or without JavaScript, and the thread shows it.
    await page.goForward();
    const said = `About the audit ${Date.now()}`;
    await page.getByPlaceholder("Type Message Here").fill(said);
    await page.getByRole("button", { name: "Send message" }).click();
    await expect(page.getByRole("log", { name: "Conversation" }).getByText(said)).toBeVisible();
    await expect(page).toHaveURL(`${detailUrl}/message`);
    await page.getByRole("link", { name: "Back to services" }).click();
    await expect(page).toHaveURL(/\/dashboard\/services$/);
  });

  test("a service without reports says so", async ({ page }) => {
    await page.goto("/dashboard/services");
    await page.getByRole("link", { name: "View Details of Brand Identity Kit" }).click();
    await expect(page.getByText("No reports available for this service yet.")).toBeVisible();
  });

  test("reports grid and download through a signed link", async ({ page }, testInfo) => {
    await page.goto("/dashboard/reports");
    const card = page.getByRole("listitem").filter({ hasText: "Audit findings and 90-day plan" });
    await expect(card.getByText("Social Media Audit")).toBeVisible();
    await expect(card.getByText("406 Bytes")).toBeVisible();
    await expect(card.getByText("PDF")).toBeAttached();
    await page.screenshot({ path: testInfo.outputPath("reports.png"), fullPage: true });
    const downloading = page.waitForEvent("download");
    await card.getByRole("link", { name: /Download/ }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe("social-media-audit.pdf");
    expect(download.url()).toMatch(/\/files\/reports\/[0-9a-f-]{36}\?expires=\d+&sig=/);
    expect(
      fs
        .readFileSync((await download.path())!)
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
    await expect(page.getByText("Report downloaded successfully!")).toBeVisible();
  });

  test("download without JavaScript @no-js", async ({ page }) => {
    await page.goto("/dashboard/reports");
    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download Audit findings and 90-day plan" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe("social-media-audit.pdf");
    expect(
      fs
        .readFileSync((await download.path())!)
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
  });

  test("a failed list shows 'Error Loading Services' and Retry loads it", async ({ page, consoleErrors }, testInfo) => {
    await page.goto("/dashboard/reports");
    await page.route(/\/dashboard\/services\.data/, async (route) => {
      const real = await route.fetch();
      await route.fulfill({
        status: 500,
        headers: real.headers(),
        body: await withLoaderError(await real.body(), "routes/dashboard+/_customer+/services._index"),
      });
    });
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Services" }).click();
    await expect(page.getByRole("heading", { name: "Error Loading Services" })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("services-error.png"), fullPage: true });
    await page.unroute(/\/dashboard\/services\.data/);
    await page.getByRole("button", { name: "Retry" }).click();
    await expect(page.getByRole("heading", { name: "Social Media Audit" })).toBeVisible();
    allowConsole(consoleErrors, /status of 500/);
  });

  test("staff pages and another customer's purchase are refused", async ({ page, consoleErrors }) => {
    const users = await page.goto("/dashboard/users");
    expect(users?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
    const foreign = await page.goto("/dashboard/services/00000000-0000-4000-8000-000000000000");
    expect(foreign?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
    await page.getByRole("link", { name: "Back to services" }).first().click();
    await expect(page).toHaveURL(/\/dashboard\/services$/);
    allowConsole(consoleErrors, /status of 40[34]/);
  });
});

test.describe("customer without purchases", () => {
  test.use({ storageState: storageStateFor("emptyCustomer") });

  test("empty states: no services, no reports, zero counts", async ({ page }, testInfo) => {
    await page.goto("/dashboard/services");
    await expect(page.getByRole("heading", { name: `Welcome back, ${ACCOUNTS.emptyCustomer.name.split(" ")[0]}` })).toBeVisible();
    await expect(page.getByRole("heading", { name: "No Purchased Services" })).toBeVisible();
    const overview = page.getByRole("region", { name: "Overview" });
    await expect(overview.locator("dd")).toHaveText(["0", "0", "0"]);
    await page.screenshot({ path: testInfo.outputPath("empty-services.png"), fullPage: true });
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Reports" }).click();
    await expect(page.getByRole("heading", { name: "No Reports Available" })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("empty-reports.png"), fullPage: true });
  });

  test("a confirmation is on the page that follows, stays past two seconds, and goes when dismissed or on the next page @no-js", async ({ page }, testInfo) => {
    await page.goto("/dashboard/account");
    // Saving the same name: a confirmation without changing the account other specs read.
    await page.getByRole("button", { name: "Save name" }).click();
    const notice = page.getByRole("status").filter({ hasText: "Your name was saved." });
    await expect(notice).toBeVisible();
    // A toast would be gone by now.
    await page.waitForTimeout(2_500);
    await expect(notice).toBeVisible();
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 844 });
      await page.screenshot({ path: testInfo.outputPath(`confirmation-${width}.png`) });
    }
    await notice.getByRole("link", { name: "Dismiss" }).click();
    await expect(page).toHaveURL(/\/dashboard\/account$/);
    await expect(notice).toHaveCount(0);

    // Read once: the next page does not say it again.
    await page.getByRole("button", { name: "Save name" }).click();
    await expect(notice).toBeVisible();
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Reports" }).click();
    await expect(page.getByRole("heading", { name: "No Reports Available" })).toBeVisible();
    await expect(notice).toHaveCount(0);
  });
});

test.describe("a subscriber's pages", () => {
  test.use({ storageState: storageStateFor("subscriber") });

  test("the counts and the plan card are on the overview only; every other page starts with its own content", async ({ page }, testInfo) => {
    await page.goto("/dashboard/services");
    await expect(page.getByRole("region", { name: "Overview" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Your plan" })).toBeVisible();
    const pages = [
      ["/dashboard/calendar", "Content calendar"],
      ["/dashboard/reports", "Your Reports"],
      ["/dashboard/receipts", "Receipts"],
    ] as const;
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 844 });
      for (const [path, title] of pages) {
        await page.goto(path);
        const heading = page.getByRole("heading", { level: 2, name: title, exact: true });
        await expect(heading).toBeVisible();
        // Within the first screen, under the sidebar's bar on a phone: no welcome, counts or plan above it.
        expect((await heading.boundingBox())!.y, `${path} at ${width} px`).toBeLessThan(width === 390 ? 260 : 160);
        await expect(page.getByRole("region", { name: "Overview" })).toHaveCount(0);
        await expect(page.getByRole("region", { name: "Your plan" })).toHaveCount(0);
        await expect(page.getByRole("heading", { name: /^Welcome/ })).toHaveCount(0);
        if (path === "/dashboard/calendar") await page.screenshot({ path: testInfo.outputPath(`calendar-${width}.png`) });
      }
    }
  });
});
