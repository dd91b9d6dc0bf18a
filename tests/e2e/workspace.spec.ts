import { ACCOUNTS, expect, PASSWORD, storageStateFor, test } from "./fixtures";

/*
 * The staff workspace (issue 23): the overview only on the Overview page, each tool's heading at
 * the top of the screen, "My work" (overdue first, its forms without JavaScript), and the landing
 * on "My work" after signing in with assigned work.
 */

test.describe("layout", () => {
  test.use({ storageState: storageStateFor("team"), viewport: { width: 1280, height: 800 } });

  test("the Overview has the cards and the chart; every tool starts with its own heading above the fold @no-js", async ({ page }) => {
    await page.goto("/dashboard");
    await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Overview" }).getByText("Total Revenue")).toBeVisible();
    await expect(page.getByRole("heading", { name: /^Revenue, last 12 months/ })).toBeVisible();
    const nav = page.getByRole("navigation", { name: "Dashboard" });
    await expect(nav.getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");

    const tools: [string, string | RegExp][] = [
      ["/dashboard/inbox", "Inbox"],
      ["/dashboard/orders", "Orders and payments"],
      ["/dashboard/catalogue", "Catalogue"],
      ["/dashboard/team", "Team"],
      ["/dashboard/leads", "Leads"],
      ["/dashboard/users", "Users"],
      ["/dashboard/work", "My work"],
    ];
    for (const [path, name] of tools) {
      await page.goto(path);
      const heading = page.getByRole("heading", { name, exact: true }).first();
      await expect(heading, path).toBeVisible();
      await expect(page.getByRole("region", { name: "Overview" }), path).toHaveCount(0);
      const box = await heading.boundingBox();
      expect(box!.y, `${path}: heading at the top`).toBeLessThan(200);
    }
  });
});

test.describe("my work", () => {
  test.use({ storageState: storageStateFor("workStaff") });

  test("overdue first, filters, and a due date saved from its form @no-js", async ({ page }) => {
    await page.goto("/dashboard/work");
    await expect(page.getByRole("heading", { name: "My work" })).toBeVisible();
    const items = page.getByTestId("work-item");
    await expect(items).toHaveCount(2);
    await expect(items.first()).toContainText("Overdue");
    await expect(items.first().getByRole("link", { name: ACCOUNTS.workCustomer.name })).toBeVisible();

    await page.getByRole("link", { name: "Overdue", exact: true }).click();
    await expect(page).toHaveURL(/due=overdue/);
    await expect(items).toHaveCount(1);
    await page.getByRole("link", { name: "All", exact: true }).click();
    await expect(items).toHaveCount(2);

    const second = items.nth(1);
    const service = (await second.locator("p").first().textContent())!.trim();
    await second.getByLabel(`Due date of ${service}`).fill("2099-12-31");
    await second.getByRole("button", { name: `Save due date of ${service}` }).click();
    await expect(items.nth(1)).toContainText("Dec 31, 2099");
    await expect(items.first()).toContainText("Overdue");
  });
});

test("staff with assigned work land on My work after signing in @no-js", async ({ page }) => {
  await page.context().setExtraHTTPHeaders({ "X-Forwarded-For": "10.203.0.7" });
  await page.goto("/login");
  await page.getByLabel("Email").fill(ACCOUNTS.workStaff.email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/dashboard\/work$/);
  await expect(page.getByRole("heading", { name: "My work" })).toBeVisible();
});
