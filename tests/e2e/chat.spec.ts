import type { Browser, Page } from "@playwright/test";

import { ACCOUNTS, expect, hydrated, ignoredConsoleError, storageStateFor, test, type AccountName } from "./fixtures";

/*
 * Live support chat: the customer in their service's Message tab, a staff member in the
 * customer's Message tab, two browser contexts, messages both ways without reloading.
 */

async function openAs(browser: Browser, account: AccountName) {
  const context = await browser.newContext({ storageState: storageStateFor(account) });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error" && !ignoredConsoleError(msg.text())) errors.push(msg.text());
  });
  page.on("pageerror", (err) => void (ignoredConsoleError(err.message) || errors.push(err.message)));
  return { context, page, errors };
}

async function customerThread(page: Page) {
  await page.goto("/dashboard/services");
  await page.getByRole("link", { name: "View Details" }).first().click();
  await page.getByRole("link", { name: /^Message(?!s)/ }).click();
  await expect(page).toHaveURL(/\/dashboard\/services\/[^/]+\/message$/);
}

async function staffThread(page: Page) {
  await page.goto(`/dashboard/users?search=${encodeURIComponent(ACCOUNTS.chatCustomer.email)}`);
  await page.getByRole("link", { name: "View Details" }).first().click();
  await expect(page.getByRole("heading", { name: ACCOUNTS.chatCustomer.name, exact: true })).toBeVisible();
  await page.getByRole("link", { name: /^Message(?!s)/ }).click();
  await expect(page).toHaveURL(/\/dashboard\/users\/[^/]+\/message$/);
}

function chat(page: Page) {
  const panel = page.getByRole("region", { name: "Support chat" });
  return {
    panel,
    input: panel.getByPlaceholder("Type Message Here"),
    send: panel.getByRole("button", { name: "Send message" }),
    messages: panel.getByTestId("chat-message"),
  };
}

test("a customer and a staff member chat live in two browsers", async ({ browser }) => {
  const customer = await openAs(browser, "chatCustomer");
  const staff = await openAs(browser, "staff2");
  try {
    await customerThread(customer.page);
    await staffThread(staff.page);
    const atCustomer = chat(customer.page);
    const atStaff = chat(staff.page);
    await expect(atCustomer.panel.getByText("Connected")).toBeVisible();
    await expect(atStaff.panel.getByText("Connected")).toBeVisible();
    await expect(atCustomer.input).toBeEnabled();
    await expect(atCustomer.send).toBeDisabled(); // nothing typed yet
    // Staff see that this customer is online right now.
    await expect(atStaff.panel.getByTestId("online-badge")).toHaveText("Online");

    // The customer writes (Enter sends); markup in a message stays text.
    const question = `When is my calendar ready? <b>soon</b> ${Date.now()}`;
    await atCustomer.input.fill(question);
    await atCustomer.input.press("Enter");
    await expect(atCustomer.input).toHaveValue("");
    await expect(atCustomer.messages.filter({ hasText: question })).toContainText("You");

    const received = atStaff.messages.filter({ hasText: question });
    await expect(received).toBeVisible();
    await expect(received).toContainText(ACCOUNTS.chatCustomer.name);
    await expect(received).toContainText("About:");
    await expect(received.locator("b")).toHaveCount(0);

    // Staff answer with the button; the customer sees it without reloading, with who and when.
    const answer = `Hi Charlie, it will be ready on Friday. ${Date.now()}`;
    await atStaff.input.fill(answer);
    await atStaff.send.click();
    const reply = atCustomer.messages.filter({ hasText: answer });
    await expect(reply).toBeVisible();
    await expect(reply).toContainText(ACCOUNTS.staff2.name);
    await expect(reply.locator("time")).toHaveAttribute("datetime", /^\d{4}-\d\d-\d\dT/);

    // Both are stored: a reload shows the whole conversation in order.
    await customer.page.reload();
    await expect(chat(customer.page).messages.filter({ hasText: answer })).toBeVisible();
    const texts = await chat(customer.page).messages.allInnerTexts();
    const q = texts.findIndex((t) => t.includes(question));
    const a = texts.findIndex((t) => t.includes(answer));
    expect(q).toBeGreaterThanOrEqual(0);
    expect(a).toBeGreaterThan(q);

    expect(customer.errors, "customer console errors").toEqual([]);
    expect(staff.errors, "staff console errors").toEqual([]);
  } finally {
    await customer.context.close();
    await staff.context.close();
  }
});

test("losing the connection shows 'Reconnecting…' and disables sending until it is back", async ({ browser }) => {
  const customer = await openAs(browser, "chatCustomer");
  try {
    await customerThread(customer.page);
    const atCustomer = chat(customer.page);
    await expect(atCustomer.panel.getByText("Connected")).toBeVisible();

    await customer.context.setOffline(true);
    await expect(atCustomer.panel.getByText("Reconnecting…")).toBeVisible({ timeout: 15_000 });
    await expect(atCustomer.input).toBeDisabled();

    await customer.context.setOffline(false);
    await expect(atCustomer.panel.getByText("Connected")).toBeVisible({ timeout: 15_000 });
    await expect(atCustomer.input).toBeEnabled();
  } finally {
    await customer.context.close();
  }
});

test("staff see a customer's unread messages until they open the thread; the customer sees the reply's badge on Message", async ({ browser }) => {
  const customer = await openAs(browser, "chatCustomer");
  const staff = await openAs(browser, "staff2");
  try {
    // The customer writes, then moves to the Reports tab (the thread is no longer on screen).
    await customerThread(customer.page);
    const atCustomer = chat(customer.page);
    await expect(atCustomer.input).toBeEnabled();
    const question = `Is there any news? ${Date.now()}`;
    await atCustomer.input.fill(question);
    await atCustomer.input.press("Enter");
    await expect(atCustomer.messages.filter({ hasText: question })).toBeVisible();
    const serviceTabs = customer.page.getByRole("navigation", { name: "Service" });
    await serviceTabs.getByRole("link", { name: "Reports" }).click();
    await expect(serviceTabs.getByRole("link", { name: "Reports" })).toHaveAttribute("aria-current", "page");

    // Staff: the customer's row counts it; the customer closed the chat, and with it the connection
    // (the spec), so they no longer show as online. The sidebar's Users has a total.
    await staff.page.goto(`/dashboard/users?search=${encodeURIComponent(ACCOUNTS.chatCustomer.email)}`);
    const row = staff.page.getByRole("listitem").filter({ hasText: ACCOUNTS.chatCustomer.name });
    await expect(row.getByTestId("unread-count")).toHaveText("1 unread messages");
    await expect(row.getByTestId("online-badge")).toHaveCount(0);
    const sidebarUsers = staff.page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Users" });
    await expect(sidebarUsers.getByTestId("unread-count")).toBeVisible();

    // The user's page counts it on the Message tab; opening the thread reads it.
    await row.getByRole("link", { name: "View Details" }).click();
    const userTabs = staff.page.getByRole("navigation", { name: "Customer" });
    await expect(userTabs.getByRole("link", { name: "Message" }).getByTestId("unread-count")).toHaveText("1 unread");
    await userTabs.getByRole("link", { name: "Message" }).click();
    const atStaff = chat(staff.page);
    await expect(atStaff.messages.filter({ hasText: question })).toBeVisible();
    await expect(userTabs.getByTestId("unread-count")).toHaveCount(0);
    const threadUrl = staff.page.url();

    // Read on the server too: a fresh Users page no longer counts this customer.
    await staff.page.goto(`/dashboard/users?search=${encodeURIComponent(ACCOUNTS.chatCustomer.email)}`);
    await expect(row).toBeVisible();
    await expect(row.getByTestId("unread-count")).toHaveCount(0);

    // A staff reply reaches the customer live as a badge on Message and next to Services.
    await staff.page.goto(threadUrl);
    // Enter sends only once the composer is hydrated (the server's HTML has the box already enabled).
    await hydrated(staff.page);
    await expect(atStaff.input).toBeEnabled();
    const answer = `Yes, the first draft is ready. ${Date.now()}`;
    await atStaff.input.fill(answer);
    await atStaff.input.press("Enter");
    await expect(atStaff.messages.filter({ hasText: answer })).toBeVisible();
    // The customer's chat is closed (no connection): the reply's badge shows on their next page.
    await customer.page.reload();
    await expect(serviceTabs.getByRole("link", { name: "Message" }).getByTestId("unread-count")).toHaveText("1 unread");
    const sidebarServices = customer.page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Services" });
    await expect(sidebarServices.getByTestId("unread-count")).toHaveText("1 unread");

    // Opening Message reads it: both badges go, and stay gone after a reload.
    await serviceTabs.getByRole("link", { name: "Message" }).click();
    await expect(atCustomer.messages.filter({ hasText: answer })).toBeVisible();
    await expect(serviceTabs.getByTestId("unread-count")).toHaveCount(0);
    await expect(sidebarServices.getByTestId("unread-count")).toHaveCount(0);
    await customer.page.reload();
    await expect(atCustomer.messages.filter({ hasText: answer })).toBeVisible();
    await expect(customer.page.getByTestId("unread-count")).toHaveCount(0);

    expect(customer.errors, "customer console errors").toEqual([]);
    expect(staff.errors, "staff console errors").toEqual([]);
  } finally {
    await customer.context.close();
    await staff.context.close();
  }
});
