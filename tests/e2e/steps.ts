import crypto from "node:crypto";
import type { Browser, Page } from "@playwright/test";

import { passwordLinkIn } from "../fakes/email-links";
import { expect, hydrated, outboxEmails, storageStateFor, type AccountName } from "./fixtures";

/*
 * Steps several stories take the same way: a visitor buying a plan and setting the first password
 * from the e-mail (billing, delivery), staff at 1280 px in a browser of their own, and staff sending
 * a post for review (calendar, delivery).
 */

export type Plan = "STARTER PACKAGE" | "PRO PACKAGE" | "VIP TREATMENT";

/** Buys a plan on the landing page and the test checkout, sets the password from the e-mail (which signs the buyer in). */
export async function subscribe(page: Page, plan: Plan, buyer: { name: string; email: string; password: string }) {
  await page.context().setExtraHTTPHeaders({ "X-Forwarded-For": `10.201.${crypto.randomInt(255)}.${crypto.randomInt(255)}` });
  await page.goto("/");
  await page.getByRole("button", { name: `Continue with ${plan}` }).click();
  const dialog = page.getByRole("dialog", { name: `Subscribe to ${plan}` });
  await dialog.getByLabel("Name").fill(buyer.name);
  await dialog.getByLabel("Email").fill(buyer.email);
  await dialog.getByRole("button", { name: "Submit Order" }).click();
  await expect(page).toHaveURL(/\/checkout\/test\/cs_test_/, { timeout: 15_000 });
  await expect(page.getByText("Test mode", { exact: true })).toBeVisible();
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM / YY)").fill("12 / 39");
  await page.getByLabel("CVC").fill("123");
  await page.getByLabel("Name on card").fill(buyer.name);
  await page.getByRole("button", { name: /^Pay \$/ }).click();
  await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible({ timeout: 15_000 });
  // What the success page shows is the caller's to check: the buyer is still on it.
  return {
    /** From the e-mail the payment sent: the first password, which signs the buyer in (decision 145). */
    async setPassword() {
      let mail = "";
      await expect
        .poll(
          () => {
            mail = outboxEmails(buyer.email).findLast((raw) => raw.includes("/reset-password?token=")) ?? "";
            return mail ? "ok" : "";
          },
          { message: "the set-password e-mail" },
        )
        .toBe("ok");
      const url = new URL(passwordLinkIn(mail));
      await page.goto(url.pathname + url.search);
      await page.getByLabel("New Password").fill(buyer.password);
      await page.getByLabel("Confirm Password").fill(buyer.password);
      // A new account's link sets a first password: the page says so.
      await expect(page.getByRole("heading", { name: "Set Your Password" })).toBeVisible();
      await page.getByRole("button", { name: "Set Password" }).click();
      await expect(page).toHaveURL(/\/dashboard/, { timeout: 15_000 });
    },
  };
}

/** A staff member at 1280 px in a browser context of their own, on `baseURL` (another node, where one runs). */
export async function staffBrowser(browser: Browser, account: AccountName, baseURL: string | undefined, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ storageState: storageStateFor(account), viewport: { width: 1280, height: 800 }, baseURL, javaScriptEnabled });
  const page = await context.newPage();
  const open = async (url: string) => {
    await page.goto(url);
    if (javaScriptEnabled) await hydrated(page);
  };
  return { page, open, close: () => context.close() };
}

export type StaffBrowser = Awaited<ReturnType<typeof staffBrowser>>;

/** A 1 × 1 PNG: a post's image, stored where the deployment stores files (local disk, or S3). */
export const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082",
  "hex",
);

/** Drafts a post on the calendar's form (with an image if named), then sends it for review from the post's page. */
export async function draftForReview(staff: StaffBrowser, customer: string, channel: string, caption: string, image?: string) {
  await staff.open("/dashboard/calendar");
  const form = staff.page.getByRole("form", { name: "Draft a post" });
  await form.getByLabel("Customer").selectOption({ label: customer });
  await form.getByLabel("Channel").selectOption({ label: channel });
  await form.getByLabel("Caption").fill(caption);
  await form.getByRole("button", { name: "Save draft" }).click();
  await expect(staff.page).toHaveURL(/\/dashboard\/calendar\/posts\/[0-9a-f-]{36}$/, { timeout: 20_000 });
  if (image) {
    await staff.page.getByLabel("File").setInputFiles({ name: image, mimeType: "image/png", buffer: PNG });
    await staff.page.getByRole("button", { name: "Upload" }).click();
    await expect(staff.page.getByRole("img", { name: "Image of the post" })).toBeVisible();
  }
  await staff.page.getByRole("button", { name: "Send for review" }).click();
  await expect(staff.page.getByRole("button", { name: "Back to draft" })).toBeVisible();
  await expect(staff.page.getByRole("button", { name: "Send for review" })).toHaveCount(0);
}
