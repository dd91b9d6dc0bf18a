import { expect, test } from "./fixtures";

test("an unknown page shows the site's 404 page @no-js", async ({ page }) => {
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
