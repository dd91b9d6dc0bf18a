import type { TestInfo } from "@playwright/test";

import { expect, hydrated, storageStateFor, test } from "./fixtures";

/*
 * Subscriptions for staff (decision 175) with and without JavaScript (@no-js): the list finds a
 * plan by its customer, its page shows the sign-up and the renewal, each opens its order; the
 * renewal is in the Orders list; cancelling asks first (decision 176) and resuming undoes it, so
 * both projects start from the same active plan (tests/e2e/seed.ts: Pia Plan's VIP plan).
 */

test.use({ storageState: storageStateFor("opsStaff") });

const withJs = (testInfo: TestInfo) => testInfo.project.name !== "no-js";

test("find a plan, see its payments, cancel at period end after confirming, then resume @no-js", async ({ page }, testInfo) => {
  await page.goto("/dashboard/subscriptions");
  await expect(page.getByRole("heading", { name: "Subscriptions", level: 2 })).toBeVisible();
  if (withJs(testInfo)) await hydrated(page);
  await page.getByRole("searchbox", { name: "Search by customer name or e-mail" }).fill("Pia Plan");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("1 subscription", { exact: true })).toBeVisible();
  const row = page.getByRole("list", { name: "Subscriptions" }).getByRole("listitem");
  await expect(row.getByText("VIP TREATMENT · $589.00/mo")).toBeVisible();
  await expect(row.getByText(/\$1,178\.00 paid/)).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath("subscriptions-390.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: testInfo.outputPath("subscriptions-1280.png"), fullPage: true });
  await row.getByRole("link", { name: "View the plan of Pia Plan" }).click();

  await expect(page.getByRole("heading", { name: "VIP TREATMENT", level: 2 })).toBeVisible();
  const payments = page.getByRole("list", { name: "Payments" });
  await expect(payments.getByTestId("plan-payment")).toHaveCount(2);
  await expect(payments.getByTestId("plan-payment").first().getByText("Sign-up", { exact: true })).toBeVisible();
  await expect(payments.getByTestId("plan-payment").last().getByText("Renewal", { exact: true })).toBeVisible();
  if (withJs(testInfo)) await hydrated(page);

  await page.getByRole("button", { name: "Cancel at period end…" }).click();
  const step = page.getByRole("alertdialog", { name: "Cancel VIP TREATMENT at the end of the period?" });
  await expect(step.getByText(/keeps the plan until/)).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath("subscription-confirm-390.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: testInfo.outputPath("subscription-confirm-1280.png"), fullPage: true });
  await step.getByRole("button", { name: "Cancel at period end" }).click();
  // The toast needs JavaScript; the plan's badge says it either way.
  if (withJs(testInfo)) await expect(page.getByText("The plan will end at the end of its period.")).toBeVisible();
  await expect(page.getByRole("article", { name: "VIP TREATMENT" }).getByText("Cancels at period end")).toBeVisible();

  await page.getByRole("button", { name: "Resume the plan" }).click();
  await page.getByRole("alertdialog", { name: "Keep VIP TREATMENT running?" }).getByRole("button", { name: "Resume the plan" }).click();
  if (withJs(testInfo)) await expect(page.getByText("The plan will renew as usual.")).toBeVisible();
  await expect(page.getByRole("article", { name: "VIP TREATMENT" }).getByText("Active", { exact: true })).toBeVisible();

  // The renewal is an order: it opens from the plan and is in the Orders list.
  await payments.getByRole("link", { name: /the renewal of/ }).click();
  await expect(page.getByRole("heading", { name: "Order of Pia Plan" })).toBeVisible();
  await expect(page.getByText("Plan renewal")).toBeVisible();
  await page.goto("/dashboard/orders?search=pia-plan%40e2e.test");
  await expect(page.getByText("2 orders", { exact: true })).toBeVisible();
  await expect(page.getByRole("cell", { name: "VIP TREATMENT (monthly renewal)" })).toBeVisible();
});
