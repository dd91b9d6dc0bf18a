import type { Locator, Page } from "@playwright/test";

import { expect, storageStateFor, test } from "./fixtures";

/*
 * Staff run the catalogue from /dashboard/catalogue: add a service, change its price, see it on
 * the landing page, order it and pay the new price on the test checkout; the change log says who
 * changed what. Each test takes its service off sale at the end, so the storefront stays as the
 * other specs expect it.
 */

test.use({ storageState: storageStateFor("team") });
// Each test walks the editor, the landing page and a checkout: more than the default 30 s on a busy
// machine, and the editor (every service with its forms) takes a moment to render after a save.
test.describe.configure({ timeout: 120_000 });
const AFTER_SAVE = { timeout: 20_000 };

const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function addService(page: Page, name: string, price: string) {
  await page.goto("/dashboard/catalogue");
  await page.getByText("Add a service").click();
  const form = page.getByRole("form", { name: "Add a service" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Price (USD)").fill(price);
  await form.getByLabel("Description").fill("Made in the catalogue e2e.");
  await form.getByRole("button", { name: /Add service/ }).click();
  return page.getByRole("form", { name: `Edit ${name}` });
}

async function saveService(editor: Locator) {
  await editor.getByRole("button", { name: /Save service/ }).click();
}

async function takeOffSale(page: Page, name: string) {
  await page.goto("/dashboard/catalogue");
  const editor = page.getByRole("form", { name: `Edit ${name}` });
  await editor.getByLabel(/^Active/).uncheck();
  await saveService(editor);
  await expect(page.getByRole("form", { name: `Edit ${name}` }).getByLabel(/^Active/)).not.toBeChecked(AFTER_SAVE);
  await page.goto("/");
  await expect(page.getByRole("checkbox", { name: new RegExp(name) })).toHaveCount(0);
}

test("add a service, change its price, see it on the landing page, order it and pay the new price", async ({ page }) => {
  const name = `E2E Carousel Pack ${tag()}`;
  const editor = await addService(page, name, "42.00");
  await expect(editor).toBeVisible(AFTER_SAVE);

  await editor.getByLabel("Price (USD)").fill("57.25");
  await saveService(editor);
  await expect(page.getByRole("form", { name: `Edit ${name}` }).getByLabel("Price (USD)")).toHaveValue("57.25", AFTER_SAVE);
  const log = page.getByRole("table", { name: /Catalogue changes/ });
  const change = log.getByRole("row").filter({ hasText: name }).first();
  await expect(change).toContainText("Taylor Brooks", AFTER_SAVE);
  await expect(change).toContainText("$42.00");
  await expect(change).toContainText("$57.25");

  await page.goto("/");
  const box = page.getByRole("checkbox", { name: new RegExp(name) });
  await expect(box).toBeVisible();
  await expect(page.locator("#a-la-carte").getByText("$57.25")).toBeVisible();
  await box.check();
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Complete your order" });
  await expect(dialog.getByTestId("order-total")).toHaveText("$57.25");
  await dialog.getByLabel("Name").fill("Catalogue Buyer");
  await dialog.getByLabel("Email").fill(`catalogue-${tag()}@e2e-shop.test`);
  await dialog.getByRole("button", { name: "Submit Order" }).click();

  await expect(page).toHaveURL(/\/checkout\/test\/cs_test_/);

  await expect(page.getByText("Test mode", { exact: true })).toBeVisible();
  await expect(page.getByText(name).first()).toBeVisible();
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM / YY)").fill("12 / 39");
  await page.getByLabel("CVC").fill("123");
  await page.getByLabel("Name on card").fill("Catalogue Buyer");
  await page.getByRole("button", { name: "Pay $57.25" }).click();
  await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();

  await takeOffSale(page, name);
});

test("the editor works without JavaScript: a bad price gets its message, a good one is saved @no-js", async ({ page }) => {
  const name = `E2E No Script ${tag()}`;
  await page.goto("/dashboard/catalogue");
  await page.getByText("Add a service").click();
  const form = page.getByRole("form", { name: "Add a service" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Price (USD)").fill("0");
  await form.getByRole("button", { name: /Add service/ }).click();
  const again = page.getByRole("form", { name: "Add a service" });
  await expect(again.getByText("Price must be more than $0")).toBeVisible(AFTER_SAVE);

  await again.getByLabel("Name").fill(name);
  await again.getByLabel("Price (USD)").fill("19.50");
  await again.getByRole("button", { name: /Add service/ }).click();
  const editor = page.getByRole("form", { name: `Edit ${name}` });
  await expect(editor.getByLabel("Price (USD)")).toHaveValue("19.50", AFTER_SAVE);

  await page.getByText("Add a service").click();
  const duplicate = page.getByRole("form", { name: "Add a service" });
  await duplicate.getByLabel("Name").fill(name.toUpperCase());
  await duplicate.getByLabel("Price (USD)").fill("10");
  await duplicate.getByRole("button", { name: /Add service/ }).click();
  await expect(page.getByRole("form", { name: "Add a service" }).getByText("A service with this name already exists.")).toBeVisible(AFTER_SAVE);

  await page.goto("/");
  await expect(page.getByRole("checkbox", { name: new RegExp(name) })).toBeVisible();
  await takeOffSale(page, name);
});
