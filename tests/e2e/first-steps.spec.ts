import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Page, TestInfo } from "@playwright/test";

import { parseEmail, type ParsedEmail } from "../fakes/email-links";
import { ACCOUNTS, E2E_DATA_DIR, expect, storageStateFor, test } from "./fixtures";

/*
 * A customer's first steps and their way out of a dead end, with and without JavaScript (@no-js):
 * the first purchase (decision 145) → the receipt without a sign-in → the first password → signed
 * in and greeted "Welcome", with no "password changed" alarm; a failed renewal (decision 146) → the
 * plan card's "Update payment method" → the test billing page's card step (a declined card, then
 * a good one) → active again; and "Retry payment" with the card on file.
 */

const withJs = (testInfo: TestInfo) => testInfo.project.name !== "no-js";
const unique = (prefix: string) => `${prefix}-${crypto.randomBytes(4).toString("hex")}@e2e-first-steps.test`;

/** Every e-mail sent to `to` so far, oldest first. */
function emailsTo(to: string): ParsedEmail[] {
  const outbox = path.join(E2E_DATA_DIR, "outbox");
  if (!fs.existsSync(outbox)) return [];
  return fs
    .readdirSync(outbox)
    .filter((f) => f.includes(to.replace(/[^a-z0-9@._-]/gi, "_")))
    .sort()
    .map((f) => parseEmail(fs.readFileSync(path.join(outbox, f), "utf8")));
}

/** The path and query of the link in the e-mail to `to` with `subject` that contains `fragment`. */
async function linkIn(to: string, subject: string, fragment: string): Promise<string> {
  let link = "";
  await expect
    .poll(
      () =>
        (link =
          emailsTo(to)
            .find((m) => m.subject === subject)
            ?.links.find((l) => l.includes(fragment)) ?? ""),
      {
        message: `"${subject}" to ${to} with a ${fragment} link`,
      },
    )
    .not.toBe("");
  const url = new URL(link);
  return url.pathname + url.search;
}

/** Ticks a service and gets to the test checkout: through the modal with JavaScript, the inline form without. */
async function orderService(page: Page, testInfo: TestInfo, name: string, email: string) {
  await page.context().setExtraHTTPHeaders({ "X-Forwarded-For": `10.202.${crypto.randomInt(255)}.${crypto.randomInt(255)}` });
  await page.goto("/");
  await page.getByRole("checkbox", { name: /Monthly Analytics Report/ }).check();
  if (withJs(testInfo)) {
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Complete your order" });
    await dialog.getByLabel("Name").fill(name);
    await dialog.getByLabel("Email").fill(email);
    await dialog.getByRole("button", { name: "Submit Order" }).click();
  } else {
    const form = page.locator("#a-la-carte-form");
    await form.getByLabel("Name").fill(name);
    await form.getByLabel("Email").fill(email);
    await form.getByRole("button", { name: "Continue" }).click();
  }
  await expect(page).toHaveURL(/\/checkout\/test\/cs_test_/, { timeout: 15_000 });
  await expect(page.getByText("Test mode", { exact: true })).toBeVisible();
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM / YY)").fill("12 / 39");
  await page.getByLabel("CVC").fill("123");
  await page.getByLabel("Name on card").fill(name);
  await page.getByRole("button", { name: /^Pay \$/ }).click();
  await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
}

test.describe.configure({ timeout: 90_000 });

test("first purchase: the receipt opens without a sign-in; the first password signs the buyer in with 'Welcome', and no alarm @no-js", async ({
  page,
}, testInfo) => {
  const email = unique("first");
  await orderService(page, testInfo, "Fern Firstbuy", email);

  // The confirmation's receipt link works before the buyer has a password.
  await page.goto(await linkIn(email, "Your BrandLift order is confirmed", "/receipts/order/"));
  await expect(page.getByRole("heading", { name: "Receipt", level: 1 })).toBeVisible();
  await expect(page.getByText(`Billed to Fern Firstbuy <${email}>`)).toBeVisible();
  await expect(page.getByRole("row", { name: /Monthly Analytics Report/ })).toBeVisible();

  // The set-password e-mail: a first password, said so, and then straight into the dashboard.
  const setLink = await linkIn(email, (await waitForSetPasswordSubject(email))!, "/reset-password?token=");
  await page.goto(setLink);
  await expect(page.getByRole("heading", { name: "Set Your Password" })).toBeVisible();
  await page.getByLabel("New Password").fill("first-password-1");
  await page.getByLabel("Confirm Password").fill("first-password-1");
  await page.getByRole("button", { name: "Set Password" }).click();
  await expect(page).toHaveURL(/\/dashboard/, { timeout: 15_000 });
  await expect(page.getByRole("heading", { level: 1, name: "Welcome, Fern" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Welcome to BrandLift, Fern! Your password is set." })).toBeVisible();
  await expect(page.getByText("Monthly Analytics Report").first()).toBeVisible();

  // The next visit is a returning one; and no "your password was changed" alarm went out.
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Welcome back, Fern" })).toBeVisible();
  expect(emailsTo(email).map((m) => m.subject)).not.toContain("Your BrandLift password was changed");
  // Signed in for real: the receipts page (which needs a session) lists the order.
  await page.goto("/dashboard/receipts");
  await expect(page.getByRole("table", { name: "Your payments" }).getByRole("cell", { name: "Services order" })).toBeVisible();
});

/** The subject of the e-mail to `to` that carries the set-password link. */
async function waitForSetPasswordSubject(to: string) {
  let subject: string | undefined;
  await expect
    .poll(() => (subject = emailsTo(to).find((m) => m.links.some((l) => l.includes("/reset-password?token=")))?.subject), {
      message: `the set-password e-mail to ${to}`,
    })
    .toBeTruthy();
  return subject;
}

test.describe("a past-due plan", () => {
  // A seeded PRO subscriber. Each test starts by failing a renewal and ends with the plan active,
  // so the runs with and without JavaScript (one after the other) can share the account.
  test.use({ storageState: storageStateFor("pastDue") });

  async function failRenewal(page: Page) {
    await page.goto("/billing/test");
    await page.getByRole("button", { name: "Fail the renewal payment (simulate)" }).click();
    // The failure is told as one, with or without JavaScript: an error notice, never a green tick.
    await expect(page.locator('[role="status"][data-flash="error"]').filter({ hasText: "The renewal payment failed" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Payment method" })).toBeVisible();
    await expect(page.locator('[data-flash="success"]')).toHaveCount(0);
  }

  test("update the payment method from the plan card: a declined card fails again, a good one makes the plan active @no-js", async ({ page }) => {
    await failRenewal(page);

    // The e-mail's link and the dashboard both lead to the step.
    const billingLink = await linkIn(ACCOUNTS.pastDue.email, "Payment failed for your PRO PACKAGE plan", "/dashboard/billing");
    await page.goto("/dashboard");
    const card = page.getByRole("region", { name: "Your plan" }).getByRole("article", { name: "PRO PACKAGE" });
    await expect(card.getByText("Past due")).toBeVisible();
    await expect(card.getByRole("alert")).toContainText("The last payment did not go through");
    await card.getByRole("button", { name: "Update payment method" }).click();
    await expect(page).toHaveURL(/\/billing\/test#payment-[0-9a-f-]{36}$/, { timeout: 15_000 });
    const step = page.getByRole("region", { name: "Payment method" });
    await expect(step).toBeVisible();

    await step.getByLabel("New card number").fill("4000 0000 0000 0002");
    await step.getByRole("button", { name: "Update card and pay" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Your card was declined, so the payment failed." })).toBeVisible();
    await expect(page.getByRole("region", { name: "Payment method" })).toBeVisible();

    await page.getByRole("region", { name: "Payment method" }).getByLabel("New card number").fill("4242 4242 4242 4242");
    await page.getByRole("region", { name: "Payment method" }).getByRole("button", { name: "Update card and pay" }).click();
    await expect(page.locator('[role="status"][data-flash="success"]').filter({ hasText: "Payment received: your plan is active again." })).toBeVisible();
    await expect(page.getByRole("region", { name: "Payment method" })).toHaveCount(0);
    await expect(page.getByText("Active", { exact: true })).toBeVisible();

    // The failed-payment e-mail's link opens the same billing page.
    await page.goto(billingLink);
    await expect(page).toHaveURL(/\/billing\/test$/);
    await page.goto("/dashboard");
    await expect(page.getByRole("region", { name: "Your plan" }).getByText("Active", { exact: true })).toBeVisible();
  });

  test("retry the payment with the card on file from the plan's page @no-js", async ({ page }) => {
    await failRenewal(page);
    await page.goto("/dashboard");
    const card = page.getByRole("region", { name: "Your plan" }).getByRole("article", { name: "PRO PACKAGE" });
    await card.getByRole("link", { name: /Open plan/ }).click();
    await expect(page).toHaveURL(/\/dashboard\/plans\/[0-9a-f-]{36}$/, { timeout: 15_000 });
    const planCard = page.getByRole("article", { name: "PRO PACKAGE" });
    await expect(planCard.getByText("Past due")).toBeVisible();
    await planCard.getByRole("button", { name: "Retry payment" }).click();
    await expect(page).toHaveURL(/\/dashboard\/plans\/[0-9a-f-]{36}$/);
    await expect(page.locator('[role="status"][data-flash="success"]').filter({ hasText: "Payment received: your plan is active again." })).toBeVisible();
    await expect(page.getByRole("article", { name: "PRO PACKAGE" }).getByText("Active", { exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: "Retry payment" })).toHaveCount(0);
  });
});
