import type { Page, WebSocket } from "@playwright/test";

import { ACCOUNTS, expect, PASSWORD, storageStateFor, test } from "./fixtures";

/*
 * The dashboard and the auth pages around the happy path (decisions 080–084): the chat's connection ends
 * with the chat, the chat without JavaScript (its thread and a plain form), keyboard-only chat, the upload form
 * without JavaScript, the spec's messages where the spec puts them. @no-js runs in both projects.
 */

async function openServiceMessage(page: Page) {
  await page.goto("/dashboard/services");
  await page
    .getByRole("link", { name: /View Details/ })
    .first()
    .click();
  await page
    .getByRole("navigation", { name: "Service" })
    .getByRole("link", { name: /^Message/ })
    .click();
  await expect(page).toHaveURL(/\/dashboard\/services\/[^/]+\/message$/);
}

test.describe("a customer's chat", () => {
  test.use({ storageState: storageStateFor("statesCustomer") });

  test("the connection opens with the chat and closes when the chat is closed (another tab)", async ({ page }) => {
    const sockets: WebSocket[] = [];
    page.on("websocket", (ws) => {
      if (ws.url().includes("/socket.io/")) sockets.push(ws);
    });
    await page.goto("/dashboard/services");
    // No chat on screen: no connection.
    await expect(page.getByRole("heading", { name: "Purchased Services" })).toBeVisible();
    expect(sockets).toHaveLength(0);

    await openServiceMessage(page);
    const panel = page.getByRole("region", { name: "Support chat" });
    await expect(panel.getByPlaceholder("Type Message Here")).toBeEnabled();
    await expect.poll(() => sockets.filter((ws) => !ws.isClosed()).length).toBe(1);

    await page.getByRole("navigation", { name: "Service" }).getByRole("link", { name: "Reports" }).click();
    await expect(panel).toHaveCount(0);
    await expect.poll(() => sockets.filter((ws) => !ws.isClosed()).length).toBe(0);
  });

  test("keyboard only: Tab to the message field, type, Enter sends", async ({ page }) => {
    await openServiceMessage(page);
    const panel = page.getByRole("region", { name: "Support chat" });
    const input = panel.getByPlaceholder("Type Message Here");
    await expect(input).toBeEnabled();
    // From the conversation log (focusable, so it scrolls by keyboard) Tab reaches the field.
    await panel.getByRole("log", { name: "Conversation" }).focus();
    for (let i = 0; i < 5 && !(await input.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
    await expect(input).toBeFocused();
    const text = `Sent by keyboard ${Date.now()}`;
    await page.keyboard.type(text);
    await page.keyboard.press("Enter");
    await expect(panel.getByTestId("chat-message").filter({ hasText: text })).toBeVisible();
    await expect(input).toHaveValue("");
  });
});

test.describe("a customer's chat without JavaScript", () => {
  test.use({ storageState: storageStateFor("statesCustomer"), javaScriptEnabled: false });

  test("a service's Message tab is the thread and a plain form, with no spinner and no note that it needs JavaScript", async ({ page }) => {
    await openServiceMessage(page);
    await expect(page.getByRole("form", { name: "Write a message" })).toBeVisible();
    await expect(page.getByText(/needs JavaScript/)).toHaveCount(0);
    await expect(page.getByText(/Connecting|Loading messages|Reconnecting/)).toHaveCount(0);
    await expect(page.getByRole("status")).toHaveCount(0);
  });
});

test.describe("the empty Services tab", () => {
  test.use({ storageState: storageStateFor("emptyCustomer") });

  test("'Browse services' goes to the a-la-carte picker on the landing page", async ({ page }) => {
    await page.goto("/dashboard/services");
    await expect(page.getByRole("heading", { name: "No Purchased Services" })).toBeVisible();
    const link = page.getByRole("link", { name: "Browse services" });
    const href = await link.getAttribute("href");
    expect(href).toBe("/#a-la-carte");
    await link.click();
    await expect(page).toHaveURL(/\/#a-la-carte$/);
    await expect(page.locator("#a-la-carte")).toBeInViewport();
  });
});

test.describe("staff's upload form", () => {
  test.use({ storageState: storageStateFor("statesStaff") });

  test("an empty submit shows both errors, and the X closes it @no-js", async ({ page, javaScriptEnabled }) => {
    await page.goto(`/dashboard/users?search=${encodeURIComponent(ACCOUNTS.statesCustomer.email)}`);
    await page
      .getByRole("link", { name: /View Details/ })
      .first()
      .click();
    await page
      .getByRole("link", { name: /Upload Report/ })
      .first()
      .click();
    const dialog = page.getByRole("dialog", { name: "Upload Report" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Upload" }).click();
    await expect(dialog.getByText("Please enter a report title")).toBeVisible();
    await expect(dialog.getByText("Please select a file to upload")).toBeVisible();

    const close = javaScriptEnabled ? dialog.getByRole("button", { name: "Close" }) : dialog.getByRole("link", { name: "Close" });
    await close.click();
    await expect(page.getByRole("dialog", { name: "Upload Report" })).toHaveCount(0);
    expect(new URL(page.url()).searchParams.get("upload")).toBeNull();
  });
});

test.describe("signing in", () => {
  test("a failed sign-in shows the error inline and as a toast", async ({ page }) => {
    await page.context().setExtraHTTPHeaders({ "X-Forwarded-For": "10.201.0.7" });
    await page.goto("/login");
    await page.getByLabel("Email").fill(ACCOUNTS.statesCustomer.email);
    await page.getByLabel("Password", { exact: true }).fill(`${PASSWORD}-wrong`);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.locator("form").getByText("Invalid email or password.")).toBeVisible();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Invalid email or password." })).toBeVisible();
  });

  test("with no network the form says 'Login failed. Please check your credentials!' and stays", async ({ page, consoleErrors }) => {
    await page.goto("/login");
    await page.getByLabel("Email").fill(ACCOUNTS.statesCustomer.email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.route("**/login.data**", (route) => (route.request().method() === "POST" ? route.abort("internetdisconnected") : route.continue()));
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.locator("form").getByText("Login failed. Please check your credentials!")).toBeVisible();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Login failed. Please check your credentials!" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Welcome Back" })).toBeVisible();
    // Chromium logs the request it could not send; that is what this test does on purpose.
    consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((e) => !e.includes("ERR_INTERNET_DISCONNECTED")));
  });
});

test("the forgot-password limit says to wait about an hour @no-js", async ({ page }) => {
  const email = `limit-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}@e2e-states.test`;
  // An address of its own: the per-address limit (20 an hour) must not be what answers.
  await page.context().setExtraHTTPHeaders({ "X-Forwarded-For": `10.202.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` });
  await page.goto("/forgot-password");
  for (let i = 0; i < 5; i++) {
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: /Reset Password|Resend/ }).click();
    await expect(page.getByRole("heading", { name: "Check Your Email" })).toBeVisible();
    await page.goto("/forgot-password");
  }
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Reset Password" }).click();
  await expect(page.getByText("Too many attempts. Please try again in about an hour.").first()).toBeVisible();
});
