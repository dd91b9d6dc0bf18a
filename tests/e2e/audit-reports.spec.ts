import path from "node:path";
import type { Page } from "@playwright/test";

import { ACCOUNTS, expect, storageStateFor, test } from "./fixtures";

/*
 * Report versions and the audit log (issues 24.3 and 25.6), with and without JavaScript: staff
 * upload a report, replace it with a note, see both versions, delete it after confirming, and find
 * each step in the audit log, filtered by action. Screenshots at 390 and 1280 px.
 */

const SCREENS_DIR = path.resolve("test-results/screens");
const PDF = Buffer.from("%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n");
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082",
  "hex",
);
const casey = ACCOUNTS.customerB;

test.use({ storageState: storageStateFor("team") });

async function openCasey(page: Page) {
  await page.goto(`/dashboard/users?search=casey`);
  await page.getByRole("link", { name: `View Details of ${casey.name}` }).click();
  await expect(page.getByRole("heading", { level: 2, name: casey.name })).toBeVisible();
}

async function shoot(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: path.join(SCREENS_DIR, `${name}-${width}.png`), fullPage: true });
  }
}

test("replace a report with a note, delete it after confirming, and find both in the audit log @no-js", async ({ page, javaScriptEnabled }, testInfo) => {
  const title = `Versioned report (${testInfo.project.name})`;
  await openCasey(page);
  const calendar = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "30-Day Content Calendar" }) });
  await calendar.getByRole("link", { name: /Upload Report/ }).click();
  const dialog = page.getByRole("dialog", { name: "Upload Report" });
  await dialog.getByLabel("Report title").fill(title);
  await dialog.getByLabel("File", { exact: true }).setInputFiles({ name: "first.pdf", mimeType: "application/pdf", buffer: PDF });
  await dialog.getByRole("button", { name: "Upload" }).click();
  await expect(dialog).toBeHidden();

  await calendar.getByRole("link", { name: `Versions of ${title}` }).click();
  await expect(page.getByRole("heading", { name: title })).toBeVisible();
  await expect(page.getByTestId("report-version")).toHaveCount(1);
  await page.getByLabel("New file").setInputFiles({ name: "second.png", mimeType: "image/png", buffer: PNG });
  await page.getByLabel("Note (optional)").fill("Sharper chart on page 2");
  await page.getByRole("button", { name: "Upload new version" }).click();
  const versions = page.getByTestId("report-version");
  await expect(versions).toHaveCount(2);
  await expect(versions.first()).toContainText("Version 2");
  await expect(versions.first()).toContainText("second.png");
  await expect(versions.first()).toContainText("Note: Sharper chart on page 2");
  await expect(versions.nth(1)).toContainText("first.pdf");
  if (javaScriptEnabled) await shoot(page, "report-versions");

  await page.getByRole("button", { name: "Delete…" }).click();
  const confirm = page.getByTestId("confirm-step");
  await expect(confirm).toContainText(`${casey.name} stops seeing it at once`);
  if (javaScriptEnabled) await shoot(page, "report-delete-confirm");
  await confirm.getByRole("button", { name: "Delete the report" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/users/[0-9a-f-]{36}$`));
  await expect(calendar.getByRole("heading", { name: title })).toHaveCount(0);
  const deleted = page.getByRole("region", { name: "Deleted reports" });
  await expect(deleted.getByRole("link", { name: title })).toBeVisible();

  await page.goto("/dashboard/audit");
  await expect(page.getByRole("heading", { name: "Audit log" })).toBeVisible();
  await page.getByLabel("Action").selectOption("report.replace");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/action=report\.replace/);
  const entry = page.getByTestId("audit-entry").filter({ hasText: title });
  await expect(entry.first()).toContainText("Replaced a report");
  await expect(entry.first()).toContainText("Sharper chart on page 2");
  await expect(entry.first()).toContainText(ACCOUNTS.team.name);
  await expect(page.getByRole("link", { name: "Export CSV" })).toHaveAttribute("href", /\/dashboard\/audit\/export\.csv\?action=report\.replace/);
  await page.goto("/dashboard/audit?action=report.delete");
  await expect(page.getByTestId("audit-entry").filter({ hasText: title }).first()).toContainText("Deleted a report");
  if (javaScriptEnabled) {
    await page.goto("/dashboard/audit");
    await shoot(page, "audit-log");
  }
});

test("a customer cannot open the audit log or an earlier version @no-js", async ({ browser }) => {
  const context = await browser.newContext({ storageState: storageStateFor("customer") });
  const page = await context.newPage();
  const response = await page.goto("/dashboard/audit");
  expect(response?.status()).toBe(403);
  await context.close();
});
