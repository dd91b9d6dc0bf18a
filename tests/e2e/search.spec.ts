import { ACCOUNTS, expect, storageStateFor, test } from "./fixtures";

/*
 * The staff search (decision 191): /dashboard/search as a plain GET form (without JavaScript too),
 * and Ctrl+K / ⌘K anywhere in the dashboard as a palette: type, ↑/↓ through the hits, Enter opens.
 */

test.use({ storageState: storageStateFor("team") });

test("the search page finds a customer and their order; each hit is a link @no-js", async ({ page }) => {
  await page.goto("/dashboard/orders");
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Search" }).click();
  await expect(page.getByRole("heading", { name: "Search", level: 2 })).toBeVisible();
  const box = page.getByRole("searchbox", { name: "Search customers, orders, conversations and services" });
  await box.fill("n");
  await page.getByRole("search").getByRole("button", { name: "Search" }).click();
  await expect(page.getByText("Type at least 2 characters.")).toBeVisible();

  await page.getByRole("searchbox", { name: "Search customers, orders, conversations and services" }).fill("casey lane");
  await page.getByRole("search").getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/\/dashboard\/search\?q=casey\+lane$/);
  const customers = page.getByRole("region", { name: /^Customers/ });
  await expect(customers.getByRole("link", { name: new RegExp(ACCOUNTS.customerB.name) })).toBeVisible();
  await expect(page.getByRole("region", { name: /^Orders/ }).getByRole("link", { name: /^BL-[0-9A-F]{8} · Casey Lane/ })).toBeVisible();

  await customers.getByRole("link", { name: new RegExp(ACCOUNTS.customerB.name) }).click();
  await expect(page).toHaveURL(/\/dashboard\/users\/[0-9a-f-]{36}/);

  await page.goto("/dashboard/search?q=zz-nothing-here");
  await expect(page.getByText("Nothing matches “zz-nothing-here”.")).toBeVisible();
});

test("Ctrl+K opens the palette anywhere; arrows move, Enter opens the marked hit, Escape closes", async ({ page }) => {
  await page.goto("/dashboard/orders");
  await expect(page.getByRole("heading", { name: "Orders and payments" })).toBeVisible();
  await page.keyboard.press("Control+k");
  const dialog = page.getByRole("dialog", { name: "Search" });
  await expect(dialog).toBeVisible();
  const combobox = dialog.getByRole("combobox", { name: "Search customers, orders, conversations and services" });
  await expect(combobox).toBeFocused();

  await combobox.fill("indy inbox");
  const options = dialog.getByRole("option");
  await expect(options.first()).toContainText(ACCOUNTS.inboxCustomer.name);
  await expect(dialog.getByRole("group", { name: "Conversations" }).getByRole("option")).toHaveCount(1);
  await expect(options.first()).toHaveAttribute("aria-selected", "true");
  await combobox.press("ArrowDown");
  const conversation = dialog.getByRole("group", { name: "Conversations" }).getByRole("option");
  await expect(conversation).toHaveAttribute("aria-selected", "true");
  await expect(combobox).toHaveAttribute("aria-activedescendant", (await conversation.getAttribute("id"))!);
  await combobox.press("ArrowUp");
  await expect(options.first()).toHaveAttribute("aria-selected", "true");
  await combobox.press("ArrowDown");
  await combobox.press("Enter");
  await expect(page).toHaveURL(/\/dashboard\/inbox\/[0-9a-f-]{36}$/);
  await expect(dialog).toBeHidden();

  await page.keyboard.press("Meta+k");
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  // Enter with nothing marked (no hits yet) opens the full search page.
  await page.keyboard.press("Control+k");
  await dialog.getByRole("combobox").fill("zz-nothing-here");
  await expect(dialog.getByText("Nothing matches “zz-nothing-here”.")).toBeVisible();
  await dialog.getByRole("combobox").press("Enter");
  await expect(page).toHaveURL(/\/dashboard\/search\?q=zz-nothing-here$/);
});
