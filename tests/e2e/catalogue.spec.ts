import type { Page } from "@playwright/test";

import { expect, storageStateFor, test } from "./fixtures";

/*
 * Staff run the catalogue from /dashboard/catalogue (decision 190): a table of services and one of
 * plans, a page per service and per plan. Add a service, change its price, see it on the landing
 * page, order it and pay the new price on the test checkout; the change log says who changed
 * what; up and down reorder the table. Each test takes its service off sale at the end, so the
 * storefront stays as the other specs expect it.
 */

test.use({ storageState: storageStateFor("team") });
// Each test walks the editor, the landing page and a checkout: more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 120_000 });
const AFTER_SAVE = { timeout: 20_000 };

const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const servicesTable = (page: Page) => page.getByRole("table", { name: /^Services/ });

/** Fills the new-service page and saves; the service's own page opens. */
async function addService(page: Page, name: string, price: string) {
  await page.goto("/dashboard/catalogue");
  await page.getByRole("link", { name: "Add a service" }).click();
  await expect(page.getByRole("heading", { name: "Add a service" })).toBeVisible();
  const form = page.getByRole("form", { name: "Add a service" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Price (USD)").fill(price);
  await form.getByLabel("Description").fill("Made in the catalogue e2e.");
  await form.getByRole("button", { name: /Add service/ }).click();
  await expect(page.getByRole("heading", { name, level: 2 })).toBeVisible(AFTER_SAVE);
  return page.getByRole("form", { name: `Edit ${name}` });
}

async function takeOffSale(page: Page, name: string) {
  await page.goto("/dashboard/catalogue");
  await servicesTable(page).getByRole("link", { name, exact: true }).click();
  const editor = page.getByRole("form", { name: `Edit ${name}` });
  await editor.getByLabel(/^Active/).uncheck();
  await editor.getByRole("button", { name: /Save service/ }).click();
  // The box was unticked by hand, so only the header's badge says the save has landed.
  await expect(page.getByText("Inactive", { exact: true })).toBeVisible(AFTER_SAVE);
  await expect(page.getByRole("form", { name: `Edit ${name}` }).getByLabel(/^Active/)).not.toBeChecked();
  await page.goto("/");
  await expect(page.getByRole("checkbox", { name: new RegExp(name) })).toHaveCount(0);
}

const rowNames = async (page: Page) => servicesTable(page).getByRole("rowheader").allTextContents();

test("with 12 services and 3 plans the catalogue fits in three screens at 1280 × 800, heading and first action above the fold", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/dashboard/catalogue");
  await expect(page.getByRole("heading", { name: "Catalogue", level: 2 })).toBeInViewport();
  await expect(page.getByRole("link", { name: "Add a service" })).toBeInViewport();
  // A full change log: moves (each logs two services) until the page shows its latest eight.
  const firstRow = servicesTable(page).getByRole("rowheader").first();
  for (let i = 0; i < 4; i++) {
    const first = (await firstRow.textContent())!;
    await servicesTable(page)
      .getByRole("button", { name: `Move ${first} down` })
      .click();
    await expect(firstRow).not.toHaveText(first, AFTER_SAVE);
  }
  await expect(page.getByRole("table", { name: /Catalogue changes/ }).getByRole("row")).toHaveCount(9);
  const rows = servicesTable(page).getByRole("row");
  const services = (await rows.count()) - 1;
  expect(services).toBeGreaterThanOrEqual(12);
  await expect(page.getByRole("table", { name: "Monthly plans" }).getByRole("row")).toHaveCount(4);
  // Services this run added beyond the seeded twelve are taken out at the measured row height.
  const rowHeight = (await rows.nth(1).boundingBox())!.height;
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  expect(height - (services - 12) * rowHeight).toBeLessThanOrEqual(3 * 800);
});

test("add a service, change its price, see it on the landing page, order it and pay the new price", async ({ page }) => {
  const name = `E2E Carousel Pack ${tag()}`;
  const editor = await addService(page, name, "42.00");
  await expect(page.getByText(`${name} was added.`)).toBeVisible();

  await editor.getByLabel("Price (USD)").fill("57.25");
  await editor.getByRole("button", { name: /Save service/ }).click();
  await expect(page.getByRole("form", { name: `Edit ${name}` }).getByLabel("Price (USD)")).toHaveValue("57.25", AFTER_SAVE);
  const history = page.getByRole("table", { name: /Catalogue changes/ });
  const change = history.getByRole("row").filter({ hasText: "$57.25" }).first();
  await expect(change).toContainText("Taylor Brooks", AFTER_SAVE);
  await expect(change).toContainText("$42.00");

  await page.getByRole("link", { name: "Catalogue" }).first().click();
  const row = servicesTable(page).getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("$57.25");
  await expect(row).toContainText("Active");
  await expect(row).toContainText("by Taylor Brooks");

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

test("a plan's page saves its price and features; a bad field gets its message @no-js", async ({ page }) => {
  await page.goto("/dashboard/catalogue");
  await page.getByRole("table", { name: "Monthly plans" }).getByRole("link", { name: "PRO PACKAGE" }).click();
  await expect(page.getByRole("heading", { name: "PRO PACKAGE", level: 2 })).toBeVisible();
  const form = page.getByRole("form", { name: "Edit PRO PACKAGE" });
  const price = await form.getByLabel("Price per month (USD)").inputValue();
  await form.getByLabel("Price per month (USD)").fill("ten");
  await form.getByRole("button", { name: /Save plan/ }).click();
  await expect(page.getByRole("form", { name: "Edit PRO PACKAGE" }).getByText("Enter a price in dollars, e.g. 28.99")).toBeVisible(AFTER_SAVE);

  // Saved at the same price: the plan's own change log gains a row naming who saved it.
  const history = page.getByRole("table", { name: /Catalogue changes/ }).getByRole("row");
  const logged = await history.count();
  const again = page.getByRole("form", { name: "Edit PRO PACKAGE" });
  await again.getByLabel("Price per month (USD)").fill(price);
  await again.getByRole("button", { name: /Save plan/ }).click();
  await expect(history).toHaveCount(Math.max(logged, 1) + 1, AFTER_SAVE);
  await expect(history.nth(1)).toContainText("Taylor Brooks");
  await expect(page.getByRole("form", { name: "Edit PRO PACKAGE" }).getByLabel("Price per month (USD)")).toHaveValue(price);
});

test("without JavaScript: a bad price gets its message, a taken name too, a good service is saved and moves up and down @no-js", async ({ page }) => {
  const name = `E2E No Script ${tag()}`;
  await page.goto("/dashboard/catalogue/services/new");
  const form = page.getByRole("form", { name: "Add a service" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Price (USD)").fill("0");
  await form.getByRole("button", { name: /Add service/ }).click();
  const again = page.getByRole("form", { name: "Add a service" });
  await expect(again.getByText("Price must be more than $0")).toBeVisible(AFTER_SAVE);

  await again.getByLabel("Name").fill(name);
  await again.getByLabel("Price (USD)").fill("19.50");
  await again.getByRole("button", { name: /Add service/ }).click();
  await expect(page.getByRole("form", { name: `Edit ${name}` }).getByLabel("Price (USD)")).toHaveValue("19.50", AFTER_SAVE);

  await page.goto("/dashboard/catalogue/services/new");
  const duplicate = page.getByRole("form", { name: "Add a service" });
  await duplicate.getByLabel("Name").fill(name.toUpperCase());
  await duplicate.getByLabel("Price (USD)").fill("10");
  await duplicate.getByRole("button", { name: /Add service/ }).click();
  await expect(page.getByRole("form", { name: "Add a service" }).getByText("A service with this name already exists.")).toBeVisible(AFTER_SAVE);

  // The new service is last: up trades places with the one above it, down brings it back.
  await page.goto("/dashboard/catalogue");
  const before = await rowNames(page);
  expect(before.at(-1)).toBe(name);
  await expect(servicesTable(page).getByRole("button", { name: `Move ${name} down` })).toBeDisabled();
  await servicesTable(page)
    .getByRole("button", { name: `Move ${name} up` })
    .click();
  await expect(servicesTable(page).getByRole("rowheader")).toHaveText([...before.slice(0, -2), name, before.at(-2)!], AFTER_SAVE);
  await servicesTable(page)
    .getByRole("button", { name: `Move ${name} down` })
    .click();
  await expect(servicesTable(page).getByRole("rowheader")).toHaveText(before, AFTER_SAVE);

  await page.goto("/");
  await expect(page.getByRole("checkbox", { name: new RegExp(name) })).toBeVisible();
  await takeOffSale(page, name);
});
