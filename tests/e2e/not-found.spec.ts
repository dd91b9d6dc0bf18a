import { expect, storageStateFor, test } from "./fixtures";

test("an unknown page shows the site's 404 page", async ({ page }) => {
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to Home Page" })).toHaveAttribute("href", "/");
});

test("an unknown API path answers the JSON 404 shape", async ({ request }) => {
  const response = await request.get("/api/does-not-exist");
  expect(response.status()).toBe(404);
  expect(await response.json()).toMatchObject({ success: false, status: "error", code: "NOT_FOUND" });
});

test.describe("signed in", () => {
  test.use({ storageState: storageStateFor("customer") });

  test("the 404 page's header offers the dashboard, not Login", async ({ page }) => {
    const response = await page.goto("/no-such-page");
    expect(response?.status()).toBe(404);
    const header = page.getByRole("banner");
    await expect(header.getByRole("link", { name: "Dashboard" })).toHaveAttribute("href", "/dashboard");
    await expect(header.getByRole("link", { name: "Login" })).toHaveCount(0);
  });
});
