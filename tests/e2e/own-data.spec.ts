import crypto from "node:crypto";
import fs from "node:fs";
import type { Page, TestInfo } from "@playwright/test";

import { readZip } from "../support/zip";
import { ACCOUNTS, expect, PASSWORD, signIn, test, type AccountName } from "./fixtures";
import { subscribe } from "./steps";

/*
 * "Your own data" (decision 240) with and without JavaScript (@no-js): the account page's download
 * saves a zip holding account.json, and deleting the account (password and tick box on its own
 * page) signs the browser out for good. Each project deletes its own account (tests/e2e/fixtures.ts).
 */

const accountOf = (testInfo: TestInfo): AccountName => (testInfo.project.name === "no-js" ? "ownDataNoJs" : "ownData");
const withJs = (testInfo: TestInfo) => testInfo.project.name !== "no-js";

async function screens(page: Page, testInfo: TestInfo, name: string) {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath(`${name}-390.png`), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: testInfo.outputPath(`${name}-1280.png`), fullPage: true });
}

test("download your data as a zip with account.json, then delete the account, which ends the session @no-js", async ({ page }, testInfo) => {
  // Two full page flows, a download and two argon2 checks: more than the default on a busy machine.
  test.slow();
  const account = ACCOUNTS[accountOf(testInfo)];
  await signIn(page, accountOf(testInfo));
  await page.goto("/dashboard/account");
  const panel = page.locator("div", { has: page.getByRole("heading", { name: "Your data", level: 3 }) }).last();
  await expect(panel).toBeVisible();
  await panel.scrollIntoViewIfNeeded();
  await screens(page, testInfo, "own-data-panel");

  const downloading = page.waitForEvent("download");
  await panel.getByRole("link", { name: "Download your data" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^brandlift-data-\d{4}-\d{2}-\d{2}\.zip$/);
  const entries = readZip(fs.readFileSync(await download.path()));
  const json = JSON.parse(entries.get("account.json")!.toString("utf8")) as { profile: { email: string; name: string } };
  expect(json.profile).toMatchObject({ email: account.email, name: account.name });

  await panel.getByRole("link", { name: "Delete your account…" }).click();
  await expect(page).toHaveURL(/\/dashboard\/account\/delete$/);
  await expect(page.getByRole("heading", { name: "Delete your account", level: 2 })).toBeVisible();
  await screens(page, testInfo, "own-data-delete");

  await page.getByLabel("Your password").fill("not-my-password");
  await page.getByRole("checkbox", { name: /I understand/ }).check();
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.getByText("Your current password is not correct.")).toBeVisible();
  await screens(page, testInfo, "own-data-delete-error");

  await page.getByLabel("Your password").fill(PASSWORD);
  await page.getByRole("checkbox", { name: /I understand/ }).check();
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL(/\/$/);
  if (withJs(testInfo)) await expect(page.getByText("Your account was deleted.")).toBeVisible();

  // The session is over: the dashboard asks to sign in, and the old password no longer works.
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdashboard/);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/login/);
});

test("deleting the account while a plan runs: the page offers to end it now, prorated, and the same form ends it and deletes the account @no-js", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const email = `delete-plan-${withJs(testInfo) ? "js" : "nojs"}-${crypto.randomBytes(4).toString("hex")}@e2e.test`;
  const password = "delete-with-plan-1";
  await (await subscribe(page, "STARTER PACKAGE", { name: "Dara Deleter", email, password })).setPassword();
  await page.goto("/dashboard/account/delete");
  const running = page.getByRole("region", { name: "Your plan is still running" });
  await expect(running).toContainText("STARTER PACKAGE, renews on");
  await expect(running).toContainText(/prorates the unused part of this period, about \$\d+\.\d{2}/);
  await expect(running.getByRole("link", { name: "Open the plan" })).toHaveAttribute("href", /^\/dashboard\/plans\/[0-9a-f-]{36}$/);
  await screens(page, testInfo, "delete-with-plan");

  await page.getByLabel("Your password").fill(password);
  await page.getByRole("checkbox", { name: "End my plan now, prorated as described above." }).check();
  await page.getByRole("checkbox", { name: /I understand/ }).check();
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("status").filter({ hasText: "Your account was deleted." })).toBeVisible();
});
