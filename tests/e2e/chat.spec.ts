import type { Browser, Page } from "@playwright/test";
import { ACCOUNTS, expect, storageStateFor, test, type AccountName } from "./fixtures";

/*
 * Live support chat: the customer in their service's Message tab, a staff member in the
 * customer's Message tab, two browser contexts, messages both ways without reloading.
 */

async function openAs(browser: Browser, account: AccountName) {
  const context = await browser.newContext({ storageState: storageStateFor(account) });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(msg.text());
  });
  page.on("pageerror", (err) => errors.push(err.message));
  return { context, page, errors };
}

async function customerThread(page: Page) {
  await page.goto("/dashboard/services");
  await page.getByRole("link", { name: "View Details" }).first().click();
  await page.getByRole("link", { name: "Message" }).click();
  await expect(page).toHaveURL(/\/dashboard\/services\/[^/]+\/message$/);
}

async function staffThread(page: Page) {
  await page.goto(`/dashboard/users?search=${encodeURIComponent(ACCOUNTS.chatCustomer.email)}`);
  await page.getByRole("link", { name: "View Details" }).first().click();
  await expect(page.getByRole("heading", { name: ACCOUNTS.chatCustomer.name })).toBeVisible();
  await page.getByRole("link", { name: "Message" }).click();
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
