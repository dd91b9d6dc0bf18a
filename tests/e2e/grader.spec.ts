import type { Page } from "@playwright/test";

import { expect, latestEmail, test } from "./fixtures";

/** The social media grader: answer, see the report card, order the recommended services, pay. */

const unique = () => `grader-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}@e2e-grade.test`;

async function payWithTestCard(page: Page) {
  await expect(page).toHaveURL(/\/checkout\/test\/cs_test_/);
  await expect(page.getByText("Test mode", { exact: true })).toBeVisible();
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM / YY)").fill("12 / 39");
  await page.getByLabel("CVC").fill("123");
  await page.getByLabel("Name on card").fill("Grace Grader");
  await page.getByRole("button", { name: /^Pay \$/ }).click();
  await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
}

test("grade a page, read the report card, order the recommended services and pay @no-js", async ({ page, javaScriptEnabled, request }) => {
  const email = unique();
  await page.goto("/");
  await page.getByRole("link", { name: "Grade my page free" }).click();
  await expect(page).toHaveURL(/\/grade$/);
  // The address changes before a client navigation's page is drawn: wait for the grader itself
  // (the landing page has a service whose name holds "Followers").
  await expect(page.getByRole("heading", { name: "What would you grade your social media page?" })).toBeVisible();
  await page.getByLabel("Followers", { exact: true }).fill("2000");
  await page.getByLabel("Posts per week").fill("2");
  await page.getByLabel("Average likes per post").fill("60");
  await page.getByLabel("Average comments per post").fill("6");
  if (javaScriptEnabled) await expect(page.getByText("Your score so far: 43/100 (D)")).toBeVisible();
  await page.getByLabel("E-mail (optional)").fill(email);
  await page.getByLabel("Name (optional)").fill("Grace Grader");
  await page.getByRole("button", { name: "Get my grade" }).click();

  await expect(page).toHaveURL(/\/grade\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: "D: 43/100" })).toBeVisible();
  await expect(page.getByRole("img", { name: /Scores by area: Engagement 57/ })).toBeVisible();
  await expect(page.getByText("Write a bio that says who you help").first()).toBeVisible();
  const og = await page.locator('meta[property="og:image"]').getAttribute("content");
  const image = await request.get(new URL(og!).pathname);
  expect(image.headers()["content-type"]).toBe("image/png");
  expect(latestEmail(email)).toContain("Your social media grade: D (43/100)");

  await page.getByRole("link", { name: "Order these 3 services" }).click();
  const dialog = page.getByRole("dialog", { name: "Order the recommended services" });
  await expect(dialog.getByText("Profile Makeover")).toBeVisible();
  // What was just typed into the grader is already there.
  await expect(dialog.getByLabel("Name")).toHaveValue("Grace Grader");
  await expect(dialog.getByLabel("Email")).toHaveValue(email);
  // A recommendation can be left out: unticked, it is not ordered.
  const boxes = dialog.getByRole("checkbox");
  await expect(boxes).toHaveCount(3);
  const dropped = (await boxes.nth(0).getAttribute("value"))!;
  const droppedName = (await dialog
    .locator("label")
    .filter({ has: page.locator(`input[value="${dropped}"]`) })
    .textContent())!
    .replace(/\$.*$/, "")
    .trim();
  await boxes.nth(0).uncheck();
  await dialog.getByRole("button", { name: "Submit Order" }).click();
  await expect(page).toHaveURL(/\/checkout\/test\/cs_test_/);
  await expect(page.getByRole("definition").filter({ hasText: "$" })).toHaveCount(3);
  await expect(page.getByText(droppedName, { exact: true })).toHaveCount(0);
  await payWithTestCard(page);
});
