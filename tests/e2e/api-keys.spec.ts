import { axeAndPicture, expect, storageStateFor, test } from "./fixtures";

/*
 * API keys (decision 284) in Chromium, with and without JavaScript: from the account page to the
 * keys page, a key made with the read scope is shown once (copied with a button when JavaScript
 * runs, selected by hand without), works as a bearer on the API, is listed by its first characters
 * only, and stops working when revoked.
 */

test.use({ storageState: storageStateFor("customerB") });

test("a customer makes a read key, uses it on the API, and revokes it @no-js", async ({ page }, testInfo) => {
  const js = testInfo.project.name !== "no-js";
  const name = `Script ${testInfo.project.name} ${Date.now()}`;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/dashboard/account");
  await page.getByRole("link", { name: "Manage API keys" }).click();
  await expect(page).toHaveURL(/\/dashboard\/api-keys$/);
  await expect(page.getByRole("heading", { level: 2, name: "API keys" })).toBeVisible();
  // A customer is offered only the scopes a customer may hold.
  await expect(page.getByRole("checkbox", { name: /orders:read/ })).toHaveCount(0);
  await expect(page.getByRole("checkbox", { name: /^read/ })).toBeChecked();

  const form = page.getByRole("form", { name: "Make a key" });
  await form.getByLabel("Name").fill(name);
  await form.getByRole("button", { name: "Make key" }).click();
  const shown = page.getByTestId("new-api-key");
  await expect(shown).toHaveValue(/^blk_/);
  const key = await shown.inputValue();
  await expect(page.getByRole("button", { name: "Copy key" })).toHaveCount(js ? 1 : 0);
  if (js) await axeAndPicture(page, "api-keys-1280");

  const me = await page.request.get("/api/account", { headers: { Authorization: `Bearer ${key}` } });
  expect(me.status()).toBe(200);
  expect(((await me.json()) as { data: { user: { name: string } } }).data.user.name).toBe("Casey Lane");

  // Once the page is opened again the key itself is gone; the list shows its first 8 characters.
  await page.goto("/dashboard/api-keys");
  await expect(page.getByTestId("new-api-key")).toHaveCount(0);
  const row = page.getByTestId("api-keys").getByRole("listitem").filter({ hasText: name });
  await expect(row).toContainText(`${key.slice(0, 8)}…`);
  await expect(row).not.toContainText(key);

  await row.getByRole("button", { name: `Revoke ${name}` }).click();
  await expect(page.getByTestId("api-keys").getByRole("listitem").filter({ hasText: name })).toHaveCount(0);
  const after = await page.request.get("/api/account", { headers: { Authorization: `Bearer ${key}` } });
  expect(after.status()).toBe(401);
});
