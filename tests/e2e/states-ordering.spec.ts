import { ACCOUNTS, expect, storageStateFor, test } from "./fixtures";

/*
 * Ordering around the happy path (decision 084): a network failure keeps the modal and the
 * selection, a signed-in customer finds their details filled in, and every order path and
 * modal works without JavaScript (tests tagged @no-js run in both projects).
 */

const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}@e2e-states.test`;

test("a network failure while ordering shows 'Network error. Please try again.' and keeps the modal and the selection", async ({ page, consoleErrors }) => {
  await page.goto("/");
  await page.getByRole("checkbox", { name: /Social Media Audit/ }).check();
  await page.getByRole("checkbox", { name: /Profile Makeover/ }).check();
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Complete your order" });
  await dialog.getByLabel("Name").fill("Nora Network");
  await dialog.getByLabel("Email").fill(unique("offline"));
  // The order request never reaches the server.
  await page.route(/\.data(\?|$)/, (route) => (route.request().method() === "POST" ? route.abort("internetdisconnected") : route.continue()));
  await dialog.getByRole("button", { name: "Submit Order" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Network error. Please try again.");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText("Social Media Audit")).toBeVisible();
  await expect(dialog.getByText("Profile Makeover")).toBeVisible();
  await expect(dialog.getByLabel("Name")).toHaveValue("Nora Network");
  await expect(page.getByRole("checkbox", { name: /Social Media Audit/ })).toBeChecked();
  // Chromium logs the request it could not send; that is the point of this test, not an error of the page.
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((e) => !e.includes("ERR_INTERNET_DISCONNECTED")));
  expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe("/");
  await expect(page.getByRole("heading", { name: "Something went wrong" })).toHaveCount(0);

  // The connection is back: the same modal goes on to the checkout.
  await page.unroute(/\.data(\?|$)/);
  await dialog.getByRole("button", { name: "Submit Order" }).click();
  await expect(page).toHaveURL(/\/checkout\/test\//);
  await expect(page.getByText("Test mode", { exact: true })).toBeVisible();
  await expect(page.getByText("Social Media Audit")).toBeVisible();
});

test.describe("a signed-in customer", () => {
  test.use({ storageState: storageStateFor("customer") });

  test("finds name and e-mail filled in in the order modal", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("checkbox", { name: /Social Media Audit/ }).check();
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Complete your order" });
    await expect(dialog.getByLabel("Name")).toHaveValue(ACCOUNTS.customer.name);
    await expect(dialog.getByLabel("Email")).toHaveValue(ACCOUNTS.customer.email);
    await expect(dialog.getByRole("button", { name: "Submit Order" })).toBeEnabled();
  });
});

test("Our Services: a price opens the packages, Order Now orders one, Close closes @no-js", async ({ page, javaScriptEnabled }) => {
  await page.goto("/");
  await page.getByRole("button", { name: /Content Creation Kit: \$38\.99/ }).click();
  const detail = page.getByRole("dialog", { name: "Content Creation Kit" });
  await expect(detail).toBeVisible();
  await expect(detail.getByText("$79.99")).toBeVisible({ visible: javaScriptEnabled ? false : true });
  await detail
    .getByRole("link", { name: "Close" })
    .or(detail.getByRole("button", { name: "Close" }))
    .click();
  await expect(detail).toBeHidden();

  await page.getByRole("button", { name: /Content Creation Kit: \$38\.99/ }).click();
  if (javaScriptEnabled) await detail.getByRole("tab", { name: "Growth" }).click();
  await detail.getByRole("button", { name: /Order Now.*Growth/ }).click();
  const order = page.getByRole("dialog", { name: "Complete your order" });
  await expect(order.getByText("Content Creation Kit (Growth)")).toBeVisible();
  await expect(order.getByTestId("order-total")).toHaveText("$79.99");
  await order.getByLabel("Name").fill("Pia Package");
  await order.getByLabel("Email").fill(unique("package"));
  await order.getByRole("button", { name: "Submit Order" }).click();
  await expect(page).toHaveURL(/\/checkout\/test\//);
  await expect(page.getByText("Test mode", { exact: true })).toBeVisible();
  await expect(page.getByText("Content Creation Kit (Growth)")).toBeVisible();
});

test("a package order that fails validation stays in its own modal @no-js", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("button", { name: /Social Media Audit: \$/ }).click();
  await page
    .getByRole("dialog", { name: "Social Media Audit" })
    .getByRole("button", { name: /Order Now.*Starter/ })
    .click();
  const order = page.getByRole("dialog", { name: "Complete your order" });
  await expect(order.getByText("Social Media Audit (Starter)")).toBeVisible();
  await order.getByLabel("Name").fill("Ivy Invalid");
  await order.getByLabel("Email").fill("not-an-email");
  // Past the browser's own check, so the server's answer is what shows.
  await order.evaluate((el) => el.querySelector("form")?.setAttribute("novalidate", ""));
  await order.getByRole("button", { name: "Submit Order" }).click();
  await expect(page.getByRole("dialog", { name: "Complete your order" }).getByText("Invalid email address")).toBeVisible();
  await expect(page.getByRole("dialog", { name: "Complete your order" }).getByText("Social Media Audit (Starter)")).toBeVisible();
});

test("every landing modal closes with its X @no-js", async ({ page, javaScriptEnabled }) => {
  await page.goto("/");
  await page.getByRole("button", { name: "Continue with PRO PACKAGE" }).click();
  const plan = page.getByRole("dialog", { name: "Subscribe to PRO PACKAGE" });
  await expect(plan).toBeVisible();
  const close = javaScriptEnabled ? plan.getByRole("button", { name: "Close" }) : plan.getByRole("link", { name: "Close" });
  await close.click();
  await expect(plan).toBeHidden();
  await expect(page.getByRole("heading", { name: "Subscription options" })).toBeVisible();
});

test("keyboard only: tick a service, Continue, fill the modal and submit, without a mouse", async ({ page }) => {
  await page.goto("/");
  const box = page.getByRole("checkbox", { name: /Paid Ads Setup/ });
  await box.focus();
  await page.keyboard.press("Space");
  await expect(box).toBeChecked();
  const continueButton = page.getByRole("button", { name: "Continue", exact: true });
  // Tab forward from the picker to its Continue button.
  for (let i = 0; i < 15 && !(await continueButton.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(continueButton).toBeFocused();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Complete your order" });
  // The modal takes the focus to its first field.
  await expect(dialog.getByLabel("Name")).toBeFocused();
  await page.keyboard.type("Kim Keys");
  await page.keyboard.press("Tab");
  await expect(dialog.getByLabel("Email")).toBeFocused();
  await page.keyboard.type(unique("keyboard"));
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Submit Order" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/checkout\/test\//);
  await expect(page.getByText("Test mode", { exact: true })).toBeVisible();
  // Escape closes a modal too (checked on a fresh page).
  await page.goto("/");
  await page.getByRole("checkbox", { name: /Paid Ads Setup/ }).check();
  await continueButton.click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
});
