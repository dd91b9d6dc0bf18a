import type { Browser, Page } from "@playwright/test";

import { ACCOUNTS, E2E_PORT, expect, latestEmail, storageStateFor, test } from "./fixtures";

/**
 * Running the agency as staff: a customer's paid order is refunded by half and revenue drops by
 * exactly that; a colleague is invited, sets a password and signs in; disabling them ends the
 * session of the dashboard they have open.
 */

test.use({ storageState: storageStateFor("opsStaff") });

const dollars = (text: string) => Math.round(Number(text.replace(/[^0-9.]/g, "")) * 100);

/** A paid order of one service through the API and the built-in test checkout. */
async function paidOrder(page: Page, email: string) {
  const services = (await (await page.request.get("/api/services")).json()) as { data: { _id: string; price: number }[] };
  const service = services.data[0];
  const started = await page.request.post("/api/services/purchase", {
    data: { name: "Robin Refund", email, services: [{ serviceId: service._id, pricingType: "one_time", quantity: 1 }] },
    headers: { "X-Forwarded-For": "10.201.0.1" },
  });
  const { data } = (await started.json()) as { data: { checkoutUrl: string } };
  await page.goto(data.checkoutUrl);
  await hydrated(page);
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM / YY)").fill("12 / 39");
  await page.getByLabel("CVC").fill("123");
  await page.getByLabel("Name on card").fill("Robin Refund");
  await page.getByRole("button", { name: /^Pay \$/ }).click();
  await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
  return service.price;
}

/** Typing into a server-rendered form before React has hydrated it makes React start over (#418). */
async function hydrated(page: Page) {
  await page.waitForLoadState("networkidle");
}

async function totalRevenue(page: Page) {
  const overview = page.getByRole("region", { name: "Overview" });
  return dollars(
    (await overview
      .getByText(/^\$[\d,]+\.\d\d$/)
      .first()
      .textContent()) ?? "",
  );
}

test("refund half of an order from its page: revenue and this month's bar drop by that amount", async ({ page }, testInfo) => {
  const email = `refund-${Date.now()}@e2e.test`;
  const price = await paidOrder(page, email);

  // The overview and its chart live on the Overview page (decision 155).
  await page.goto("/dashboard");
  const before = await totalRevenue(page);
  const chart = page.getByTestId("revenue-chart");
  await expect(chart).toBeVisible();
  const month = new Date().toISOString().slice(0, 7);
  const barBefore = Number((await chart.locator(`rect[data-month="${month}"]`).getAttribute("data-revenue-cents")) ?? "0");

  await page.goto("/dashboard/orders");
  await expect(page.getByRole("heading", { name: "Orders and payments" })).toBeVisible();
  await hydrated(page);

  await page.getByRole("searchbox", { name: "Search by e-mail or name" }).fill(email);
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page.getByText("1 order", { exact: true })).toBeVisible();
  await page.getByRole("link", { name: "View order of Robin Refund" }).click();
  await expect(page.getByRole("heading", { name: "Order of Robin Refund" })).toBeVisible();
  // The order's e-mails list it (and its history says it was sent).
  await expect(page.getByText("Your BrandLift order is confirmed", { exact: true })).toBeVisible();

  const half = Math.round((price * 100) / 2);
  await page.getByLabel(/Amount to refund/).fill((half / 100).toFixed(2));
  await page.getByLabel(/Reason/).fill("Half the audit was delivered late");
  await page.getByRole("button", { name: "Review refund" }).click();
  // Nothing is refunded before the confirmation step says how much (decision 176).
  const step = page.getByRole("alertdialog", { name: `Refund $${(half / 100).toFixed(2)}?` });
  await expect(step).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("refund-confirm.png"), fullPage: true });
  await expect(page.getByTestId("order-refunded")).toHaveText("$0.00");
  await step.getByRole("button", { name: `Refund $${(half / 100).toFixed(2)}` }).click();
  await expect(page.getByText("Partially refunded").first()).toBeVisible();
  await expect(page.getByTestId("order-refunded")).toHaveText(`$${(half / 100).toFixed(2)}`);
  await expect(page.getByText(/A refund of \$[\d.]+ is on its way/)).toBeVisible();
  // The order's history: placed and paid by the buyer, the refund and its status by the staff member, the e-mails.
  const history = page.getByRole("list", { name: "Order history" });
  const refundEntry = history.getByTestId("timeline-entry").filter({ hasText: `Refunded: $${(half / 100).toFixed(2)}` });
  await expect(refundEntry.getByText("Reason: Half the audit was delivered late")).toBeVisible();
  await expect(refundEntry.getByText(/by Olive Ops/)).toBeVisible();
  await expect(history.getByText("Status: Partially refunded")).toBeVisible();
  await expect(history.getByText("Order placed")).toBeVisible();
  await expect(history.getByText(/E-mail sent: A refund of/)).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath("order-refunded-390.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: testInfo.outputPath("order-refunded.png"), fullPage: true });

  await page.goto("/dashboard");
  expect(await totalRevenue(page)).toBe(before - half);
  const barAfter = Number((await chart.locator(`rect[data-month="${month}"]`).getAttribute("data-revenue-cents")) ?? "0");
  expect(barAfter).toBe(barBefore - half);
  expect(latestEmail(email)).toContain("refund");
});

async function colleaguePage(browser: Browser) {
  // A browser of their own: without `storageState` the context would carry the staff's sign-in, and a
  // sign-in ends the session its browser had (no fixation), signing the staff member out.
  const context = await browser.newContext({
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    storageState: { cookies: [], origins: [] },
    extraHTTPHeaders: { "X-Forwarded-For": "10.201.0.2" },
  });
  return context.newPage();
}

test("invite a colleague who sets a password and signs in; disabling them ends their open dashboard's session", async ({ page, browser }) => {
  const email = `colleague-${Date.now()}@e2e.test`;
  await page.goto("/dashboard/team");
  await expect(page.getByRole("heading", { name: "Team", exact: true })).toBeVisible();
  await hydrated(page);
  await page.getByLabel("Name").fill("Morgan Colleague");
  await page.getByLabel("E-mail").fill(email);
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByText(`Invitation sent to ${email}.`)).toBeVisible();
  const member = page.getByTestId("team-member").filter({ hasText: email });
  await expect(member.getByText("Invited")).toBeVisible();
  // A lost or expired invitation is sent again from the list; the newest link is the one that works.
  await member.getByRole("button", { name: "Resend invitation to Morgan Colleague" }).click();
  await expect(page.getByText(`A new invitation is on its way to ${email}.`)).toBeVisible();

  const mail = latestEmail(email) ?? "";
  const link = /http:\/\/[^\s"<>]+\/reset-password\?token=[\w-]+/.exec(mail.replace(/=\r?\n/g, "").replace(/=3D/g, "="))?.[0];
  expect(link, "the invitation carries a set-password link").toBeTruthy();

  const colleague = await colleaguePage(browser);
  await colleague.goto(new URL(link!).pathname + new URL(link!).search);
  await hydrated(colleague);
  // Staff wording, not a customer's "your new account".
  await expect(colleague.getByRole("heading", { name: "Join the BrandLift Team" })).toBeVisible();
  await colleague.getByLabel("New Password", { exact: true }).fill("colleague-password-1");
  await colleague.getByLabel("Confirm Password", { exact: true }).fill("colleague-password-1");
  await colleague.getByRole("button", { name: /Set Password|Reset Password/ }).click();
  // A first password signs the new colleague in (decision 145).
  await expect(colleague).toHaveURL(/\/dashboard/);
  await colleague.goto("/dashboard/orders");
  await expect(colleague.getByRole("heading", { name: "Orders and payments" })).toBeVisible();

  await page.reload();
  await expect(member.getByText("Active")).toBeVisible();
  await member.getByRole("button", { name: "Disable… Morgan Colleague" }).click();
  // Access actions ask first and say who loses what (decision 176).
  const step = page.getByRole("alertdialog", { name: "Disable Morgan Colleague?" });
  await expect(step.getByText(/signed out everywhere at once/)).toBeVisible();
  await expect(member.getByText("Active")).toBeVisible();
  await step.getByRole("button", { name: "Disable Morgan Colleague" }).click();
  await expect(page.getByText("Morgan Colleague is disabled and signed out everywhere.")).toBeVisible();
  await expect(member.getByText("Disabled")).toBeVisible();

  // The colleague's open dashboard: its next step finds the session gone.
  await colleague.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Team" }).click();
  await expect(colleague).toHaveURL(/\/login/);
  // The address changes before the page is drawn, and the Team page has an e-mail field too.
  await expect(colleague.getByText("Sign in to your account")).toBeVisible();
  await colleague.getByLabel("Email").fill(email);
  await colleague.getByLabel("Password", { exact: true }).fill("colleague-password-1");
  await colleague.getByRole("button", { name: "Sign In" }).click();
  await expect(colleague).toHaveURL(/\/login/);
  await colleague.context().close();
  expect(ACCOUNTS.opsStaff.role).toBe("team");
});

test("a filter that matches no order says so and offers to clear it @no-js", async ({ page }) => {
  await page.goto("/dashboard/orders?search=no-order-is-called-this");
  await expect(page.getByRole("heading", { name: "No orders match these filters" })).toBeVisible();
  await expect(page.getByText("0 orders")).toBeVisible();
  await page.getByRole("link", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/dashboard\/orders$/);
  await expect(page.getByRole("heading", { name: "No orders match these filters" })).toHaveCount(0);
});
