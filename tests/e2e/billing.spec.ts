import crypto from "node:crypto";
import type { Page, TestInfo } from "@playwright/test";

import { parseEmail } from "../fakes/email-links";
import { expect, latestEmail, storageStateFor, test } from "./fixtures";
import { subscribe, type Plan } from "./steps";

/*
 * Plans and the account page on the embedded default: buy a plan on the test checkout, set the
 * password, see the plan, cancel at period end and resume on the test billing page; staff see the
 * plan and MRR; account changes with and without JavaScript (@no-js).
 */

const withJs = (testInfo: TestInfo) => testInfo.project.name !== "no-js";
const unique = (prefix: string) => `${prefix}-${crypto.randomBytes(4).toString("hex")}@e2e-billing.test`;
const NEW_PASSWORD = "subscriber-password-1";

/** Waits for the newest e-mail to `to` that carries a link containing `fragment`. */
async function linkFrom(to: string, fragment: string) {
  let link = "";
  await expect
    .poll(
      () => {
        const raw = latestEmail(to);
        link = raw ? (parseEmail(raw).links.find((l) => l.includes(fragment)) ?? "") : "";
        return link;
      },
      { message: `an e-mail to ${to} with ${fragment}` },
    )
    .not.toBe("");
  const url = new URL(link);
  return url.pathname + url.search;
}

/** Buys a plan, sets the password from the e-mail and is signed in. */
async function subscribeAndSignIn(page: Page, plan: Plan, email: string) {
  await (await subscribe(page, plan, { name: "Pat Subscriber", email, password: NEW_PASSWORD })).setPassword();
}

// Each test buys a plan and sets a password first: more than the default 30 s.
test.describe.configure({ timeout: 90_000 });

test.describe.serial("a subscriber and the staff", () => {
  const email = unique("plan");

  test("buy a plan, set the password, see the plan, cancel at period end and resume", async ({ page }) => {
    await subscribeAndSignIn(page, "PRO PACKAGE", email);
    const plans = page.getByRole("region", { name: "Your plan" });
    const card = plans.getByRole("article", { name: "PRO PACKAGE" });
    await expect(card).toBeVisible();
    await expect(card.getByText("$159.00")).toBeVisible();
    await expect(card.getByText("Active", { exact: true })).toBeVisible();
    await expect(card.getByText(/Next renewal /)).toBeVisible();
    await expect(card.getByText("$100 off a professional photoshoot")).toBeVisible();
    await expect(page.getByText("No Purchased Services")).toHaveCount(0);

    // The plan has the same Reports and Message tabs as a purchased service.
    await card.getByRole("link", { name: /Open plan/ }).click();
    await expect(page).toHaveURL(/\/dashboard\/plans\/[0-9a-f-]{36}$/, { timeout: 15_000 });
    const tabs = page.getByRole("navigation", { name: "Plan" });
    await expect(tabs.getByRole("link", { name: "Reports" })).toBeVisible();
    await tabs.getByRole("link", { name: /Message/ }).click();
    await expect(page.getByPlaceholder("Type Message Here")).toBeVisible();

    await page.getByRole("button", { name: "Manage billing" }).first().click();
    await expect(page).toHaveURL(/\/billing\/test$/, { timeout: 15_000 });
    await expect(page.getByText("Test mode", { exact: true })).toBeVisible();
    // Money and access actions ask first, with what they do (decision 176).
    await page.getByRole("button", { name: "Switch plan" }).click();
    const switchStep = page.getByRole("alertdialog", { name: /^Switch from PRO PACKAGE to / });
    await expect(switchStep).toBeVisible();
    await expect(switchStep.getByTestId("switch-preview").getByText("Charged today")).toBeVisible();
    await expect(switchStep.getByText(/a month \(now \$159\.00\)/)).toBeVisible();
    await switchStep.getByRole("link", { name: "Stay on PRO PACKAGE" }).click();
    await expect(switchStep).toHaveCount(0);
    await page.getByRole("button", { name: "Cancel plan at period end" }).click();
    const cancelStep = page.getByRole("alertdialog", { name: "Cancel PRO PACKAGE at the end of the period?" });
    await expect(cancelStep.getByText(/Nothing is refunded/)).toBeVisible();
    await cancelStep.getByRole("button", { name: "Yes, cancel at period end" }).click();
    await expect(page.getByText("Cancels at period end")).toBeVisible();
    await expect(page.getByText(/^Ends /)).toBeVisible();
    await page.getByRole("button", { name: "Resume plan" }).click();
    await expect(page.getByRole("button", { name: "Cancel plan at period end" })).toBeVisible();
    await expect(page.getByText("Active", { exact: true })).toBeVisible();

    await page.getByRole("link", { name: "Back to your dashboard" }).click();
    await expect(page.getByRole("region", { name: "Your plan" }).getByText("Active", { exact: true })).toBeVisible();
    await page.getByRole("link", { name: "Receipts" }).click();
    await expect(page.getByRole("cell", { name: "PRO PACKAGE (monthly)" })).toBeVisible();
    await expect(page.getByRole("cell", { name: "$159.00" })).toBeVisible();
  });

  test.describe("staff", () => {
    test.use({ storageState: storageStateFor("team") });

    test("see the plan on the customer list and detail, and MRR with active subscribers", async ({ page }) => {
      await page.goto("/dashboard");
      const overview = page.getByRole("region", { name: "Overview" });
      await expect(overview.getByText("Monthly Recurring Revenue")).toBeVisible();
      await expect(overview.getByText("Active Subscribers")).toBeVisible();
      await page.goto("/dashboard/users");
      await page.getByLabel("Search users by name or e-mail").fill(email);
      await page.getByRole("button", { name: "Search" }).click();
      const row = page.getByRole("listitem").filter({ hasText: email });
      await expect(row.getByText("PRO PACKAGE")).toBeVisible();
      await row.getByRole("link", { name: /View Details/ }).click();
      const plans = page.getByRole("region", { name: "Plans" });
      await expect(plans.getByText("PRO PACKAGE · $159.00/mo")).toBeVisible();
      await expect(page.getByText("This user has not purchased any services yet.")).toHaveCount(0);
      await plans.getByRole("link", { name: /Plan reports/ }).click();
      await expect(page.getByText("No reports uploaded for this plan yet.")).toBeVisible();
      await expect(page.getByRole("link", { name: /Upload Report/ })).toBeVisible();
    });
  });
});

test("account: name, password and e-mail changes, and the sessions list @no-js", async ({ page }, testInfo) => {
  const email = unique(withJs(testInfo) ? "acct-js" : "acct-nojs");
  await subscribeAndSignIn(page, "STARTER PACKAGE", email);
  await page.getByRole("link", { name: "Account" }).click();
  await expect(page).toHaveURL(/\/dashboard\/account$/, { timeout: 15_000 });

  await page.getByRole("textbox", { name: "Name", exact: true }).fill("Renamed Subscriber");
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByRole("textbox", { name: "Name", exact: true })).toHaveValue("Renamed Subscriber");
  // The saved name is said on the page that follows, and the sidebar greets it.
  await expect(page.getByRole("status").filter({ hasText: "Your name was saved." })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Dashboard" }).getByText("Renamed Subscriber")).toBeVisible();

  const passwordForm = page.getByRole("form", { name: "Password" });
  await passwordForm.getByLabel("Current password").fill("not-my-password");
  await page.getByLabel("New password", { exact: true }).fill("another-password-2");
  await page.getByLabel("Confirm new password").fill("another-password-2");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Your current password is not correct.")).toBeVisible();
  await passwordForm.getByLabel("Current password").fill(NEW_PASSWORD);
  await page.getByLabel("New password", { exact: true }).fill("another-password-2");
  await page.getByLabel("Confirm new password").fill("another-password-2");
  await page.getByRole("button", { name: "Change password" }).click();
  // The form's own check clears the last refusal as it posts: wait for the answer before the next form.
  await expect(page.getByRole("status").filter({ hasText: "Your password was changed." })).toBeVisible();
  await expect(page.getByText("This device", { exact: true })).toBeVisible();
  await expect(page.getByText("Your current password is not correct.")).toHaveCount(0);

  const newEmail = unique("moved");
  await page.getByLabel("New e-mail address").fill(newEmail);
  await page.getByRole("form", { name: "E-mail address" }).getByLabel("Current password").fill("another-password-2");
  await page.getByRole("button", { name: "Send confirmation link" }).click();
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  const link = await linkFrom(newEmail, "/account/confirm-email?token=");
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "E-mail address changed" })).toBeVisible();
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "E-mail address not changed" })).toBeVisible();
  await page.goto("/dashboard/account");
  await expect(page.getByText(`Signed in as ${newEmail}`)).toBeVisible();

  // The old address undoes it (without JavaScript too: a document post from a no-store page).
  await page.goto(await linkFrom(email, "/account/undo-email?token="));
  await page.getByRole("button", { name: "Restore my e-mail address" }).click();
  await expect(page.getByRole("heading", { name: "E-mail address restored" })).toBeVisible();
  await expect(page.getByText(email, { exact: true })).toBeVisible();
  await page.goto("/dashboard/account");
  await expect(page).toHaveURL(/\/login/);
});

// A switch in the middle of a period is charged at once, and named as the switch it is, for the new plan.
test.describe.serial("a plan switch's payment", () => {
  const email = unique("switch");
  const SWITCH = "Switch to PRO PACKAGE, prorated";

  test("is named as a switch to the new plan on the subscriber's receipts", async ({ page }) => {
    await subscribeAndSignIn(page, "STARTER PACKAGE", email);
    await page.goto("/billing/test");
    await page.getByLabel("Switch to").selectOption("pro");
    await page.getByRole("button", { name: "Switch plan" }).click();
    await page
      .getByRole("alertdialog", { name: /^Switch from STARTER PACKAGE to PRO PACKAGE/ })
      .getByRole("button", { name: /^Switch and pay \$/ })
      .click();
    await expect(page.getByRole("article", { name: "PRO PACKAGE" })).toBeVisible();
    await page.goto("/dashboard/receipts");
    await expect(page.getByRole("cell", { name: SWITCH })).toBeVisible();
    await expect(page.getByRole("cell", { name: "STARTER PACKAGE (monthly)" })).toBeVisible();
  });

  test.describe("staff", () => {
    test.use({ storageState: storageStateFor("team") });

    test("see the same words in the orders list, on the order's page and in the CSV", async ({ page }) => {
      await page.goto(`/dashboard/orders?search=${encodeURIComponent(email)}`);
      await expect(page.getByRole("cell", { name: SWITCH })).toBeVisible();
      await page.getByRole("row").filter({ hasText: SWITCH }).getByRole("link", { name: /View/ }).click();
      await expect(page.getByRole("heading", { name: "Order of Pat Subscriber" })).toBeVisible();
      await expect(page.getByText(SWITCH)).toBeVisible();
      await expect(page.getByText("Plan switch, prorated")).toBeVisible();
      const csv = await (await page.request.get(`/dashboard/orders/export.csv?search=${encodeURIComponent(email)}`)).text();
      expect(csv).toContain(`"${SWITCH}"`);
      expect(csv).not.toContain("(renewal)");
    });
  });
});

test.describe("the test billing page asks first", () => {
  test.use({ storageState: storageStateFor("subscriber") });

  test("a switch shows its proration and price, cancelling asks, both with and without JavaScript @no-js", async ({ page }, testInfo) => {
    await page.goto("/billing/test");
    await expect(page.getByRole("heading", { name: "Manage billing" })).toBeVisible();
    if (withJs(testInfo)) await page.waitForLoadState("networkidle");
    // $159 → $589 (decision 177).
    await page.getByLabel("Switch to").selectOption("vip");
    await page.getByRole("button", { name: "Switch plan" }).click();
    const switchStep = page.getByRole("alertdialog", { name: /^Switch from PRO PACKAGE to / });
    await expect(switchStep.getByTestId("switch-preview").getByText("Charged today")).toBeVisible();
    await expect(switchStep.getByRole("button", { name: /^Switch and pay \$/ })).toBeVisible();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: testInfo.outputPath("switch-preview-390.png"), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: testInfo.outputPath("switch-preview-1280.png"), fullPage: true });
    await switchStep.getByRole("link", { name: "Stay on PRO PACKAGE" }).click();
    await expect(switchStep).toHaveCount(0);

    await page.getByRole("button", { name: "Cancel plan at period end" }).click();
    const cancelStep = page.getByRole("alertdialog", { name: "Cancel PRO PACKAGE at the end of the period?" });
    await cancelStep.getByRole("button", { name: "Yes, cancel at period end" }).click();
    await expect(page.getByText("Cancels at period end")).toBeVisible();
    await page.getByRole("button", { name: "Resume plan" }).click();
    await expect(page.getByRole("button", { name: "Cancel plan at period end" })).toBeVisible();
  });
});
