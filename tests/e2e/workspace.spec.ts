import type { Page } from "@playwright/test";

import { ACCOUNTS, axeAndPicture, expect, PASSWORD, storageStateFor, test } from "./fixtures";

/*
 * The staff workspace (decision 155): the overview only on the Overview page, each tool's heading at
 * the top of the screen, "My work" (overdue first, its forms without JavaScript), and the landing
 * on "My work" after signing in with assigned work.
 */

test.describe("layout", () => {
  test.use({ storageState: storageStateFor("team"), viewport: { width: 1280, height: 800 } });

  test("the Overview has the cards and the chart; every tool starts with its own heading above the fold", async ({ page }) => {
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

/** Wren Work's thread in the inbox (seeded: two messages with a note between them). */
async function openWrenThread(page: Page) {
  await page.goto(`/dashboard/inbox?search=${encodeURIComponent(ACCOUNTS.workCustomer.email)}`);
  await page.getByTestId("thread-row").filter({ hasText: ACCOUNTS.workCustomer.name }).getByRole("link").click();
  await expect(page).toHaveURL(/\/dashboard\/inbox\/[0-9a-f-]{36}/);
}

/**
 * The open thread as the keyboard tests start it: open and unassigned, whatever an earlier attempt
 * left (through the API, as the signed-in staff member), then the page read afresh.
 */
async function startOpenAndUnassigned(page: Page) {
  const url = new URL(page.url());
  const customerId = url.pathname.split("/").at(-1)!;
  const reset = await page.request.patch(`/api/chat/threads/${customerId}`, { data: { status: "open", assigneeId: null }, headers: { Origin: url.origin } });
  expect(reset.status()).toBe(200);
  await page.reload();
  await expect(page.getByTestId("thread-status")).toHaveText("Open");
  await expect(page.getByTestId("thread-assignee")).toHaveText("Unassigned");
}

test.describe("the inbox as a workspace", () => {
  test.use({ storageState: storageStateFor("workStaff"), viewport: { width: 1280, height: 800 } });

  test("at 1280×800: threads, the conversation with its composer and the customer in one screen; the note between the messages", async ({ page }) => {
    await openWrenThread(page);
    const panel = page.getByRole("region", { name: "Support chat" });
    await expect(panel.getByText("Connected")).toBeVisible();
    const composer = panel.getByPlaceholder("Type Message Here");
    await expect(composer).toBeInViewport();
    const box = (await composer.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(800);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    // The three panes side by side.
    const list = (await page.getByRole("region", { name: "Conversation list" }).boundingBox())!;
    const customer = page.getByRole("complementary", { name: "Customer" });
    const side = (await customer.boundingBox())!;
    const chat = (await panel.boundingBox())!;
    // The inbox's heading, filters, search and links take one row.
    expect(list.y).toBeLessThan(130);
    expect(list.x + list.width).toBeLessThanOrEqual(chat.x);
    expect(chat.x + chat.width).toBeLessThanOrEqual(side.x);

    // The note sits between the two messages, in its own style.
    const log = panel.getByRole("log", { name: "Conversation" });
    const items = log.locator("ol > li");
    await expect(items.nth(0)).toContainText("When will the logo be ready?");
    await expect(items.nth(1)).toContainText("Internal note");
    await expect(items.nth(1)).toContainText("Seeded note: prefers calls in the morning.");
    await expect(items.nth(2)).toContainText("Friday at the latest.");

    // The customer: plan and billing, purchases with status, orders and total paid, grader, notes.
    await expect(customer.getByRole("heading", { name: "Plan and billing" })).toBeVisible();
    await expect(customer.getByTestId("customer-purchase")).toHaveCount(2);
    await expect(customer.getByTestId("customer-purchase").first()).toContainText("In progress");
    await expect(customer.getByTestId("total-paid")).toHaveText(/^\$[\d,]+\.\d\d$/);
    await expect(customer.getByTestId("customer-grade")).toContainText("B · 72/100");
    await expect(customer.getByRole("region", { name: "Internal notes" })).toContainText("Seeded note");
    await axeAndPicture(page, "workspace-inbox-thread-1280", { fullPage: false });
  });
});

test.describe("the inbox from the keyboard", () => {
  test.use({ storageState: storageStateFor("workStaff"), viewport: { width: 1280, height: 800 } });
  // Each test starts from an open, unassigned thread. A form's key pressed while the page is busy
  // waits for it (docs/decisions/248-inbox-keys-wait-for-idle.md): no retry is needed.

  test("j/k move through the threads, Enter opens, r replies, a assigns to me, e closes and reopens, / searches, ? lists the keys", async ({ page }) => {
    await page.goto("/dashboard/inbox");
    const links = page.getByTestId("thread-row").getByRole("link");
    expect(await links.count()).toBeGreaterThanOrEqual(2);
    await page.keyboard.press("j");
    await expect(links.nth(0)).toBeFocused();
    await page.keyboard.press("j");
    await expect(links.nth(1)).toBeFocused();
    await page.keyboard.press("k");
    await expect(links.nth(0)).toBeFocused();

    await page.goto(`/dashboard/inbox?search=${encodeURIComponent(ACCOUNTS.workCustomer.email)}`);
    await page.keyboard.press("j");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/dashboard\/inbox\/[0-9a-f-]{36}/);
    await expect(page.getByRole("heading", { name: ACCOUNTS.workCustomer.name, level: 3 })).toBeVisible();
    await startOpenAndUnassigned(page);

    const panel = page.getByRole("region", { name: "Support chat" });
    await expect(panel.getByText("Connected")).toBeVisible();
    const composer = panel.getByPlaceholder("Type Message Here");
    await page.keyboard.press("r");
    await expect(composer).toBeFocused();
    // Typed in the message box, the keys are text.
    await page.keyboard.type("are we ok?");
    await expect(composer).toHaveValue("are we ok?");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await composer.fill("");
    await composer.blur();

    // Each key presses the page's own button (disabled while its form is sending).
    await page.keyboard.press("a");
    await expect(page.getByTestId("thread-assignee")).toHaveText(`Assigned to ${ACCOUNTS.workStaff.name}`);
    await expect(page.getByRole("button", { name: "Close conversation" })).toBeEnabled();
    await page.keyboard.press("e");
    await expect(page.getByTestId("thread-status")).toHaveText("Closed");
    await expect(page.getByRole("button", { name: "Reopen conversation" })).toBeEnabled();
    await page.keyboard.press("e");
    await expect(page.getByTestId("thread-status")).toHaveText("Open");

    await page.keyboard.press("/");
    await expect(page.getByLabel("Search conversations by name, e-mail or text")).toBeFocused();
    await page.getByLabel("Search conversations by name, e-mail or text").blur();
    await page.keyboard.press("?");
    const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(help).toBeVisible();
    for (const what of ["Next conversation", "Previous conversation", "Reply", "Close or reopen the conversation", "Assign the conversation to me", "Search"]) {
      await expect(help.getByText(what, { exact: true })).toBeVisible();
    }
    await page.keyboard.press("Escape");
    await expect(help).toHaveCount(0);

    // Back as it was: unassigned.
    await page.getByLabel("Assignee").selectOption({ label: "Unassigned" });
    await page.getByRole("button", { name: "Assign", exact: true }).click();
    await expect(page.getByTestId("thread-assignee")).toHaveText("Unassigned");
  });

  test("a key pressed while the previous form's page is still loading waits for it, then its form goes through", async ({ page, consoleErrors }) => {
    await openWrenThread(page);
    await startOpenAndUnassigned(page);
    await expect(page.getByRole("region", { name: "Support chat" }).getByText("Connected")).toBeVisible();
    // Page data is slow to come (not the forms): the next key lands while "Assign to me" is still loading.
    await page.route(/\.data(\?|$)/, async (route) => {
      if (route.request().method() === "GET") await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.fallback();
    });
    // What went out and came back, in order: a form's POST, a page-data GET's answer. The answer is
    // counted when it arrives: once Remix has read it, it may abort the request, and Playwright then
    // reports that GET as failed (ERR_ABORTED) instead of finished.
    const wire: string[] = [];
    const pageData = (url: string) => /\.data(\?|$)/.test(url);
    page.on("request", (request) => void (request.method() === "POST" && pageData(request.url()) && wire.push("POST")));
    page.on("response", (response) => void (response.request().method() === "GET" && pageData(response.url()) && wire.push("GET answered")));
    await page.keyboard.press("a");
    // The assignment shows live (its socket event) before its page data arrives.
    await expect(page.getByTestId("thread-assignee")).toHaveText(`Assigned to ${ACCOUNTS.workStaff.name}`);
    await page.keyboard.press("e");
    await expect(page.getByTestId("thread-status")).toHaveText("Closed");
    // The close waited for the assignment's page data, then went: never dropped, never crossing it.
    expect(wire.slice(0, 3)).toEqual(["POST", "GET answered", "POST"]);
    await page.unroute(/\.data(\?|$)/);
    expect(consoleErrors).toEqual([]);
    // An interrupted load's leftovers (a rejection with the abort) are no page error; any other rejection still is.
    await page.evaluate(() => void Promise.reject(new DOMException("signal is aborted without reason", "AbortError")));
    await page.evaluate(() => void Promise.reject(new Error("a real failure")));
    await expect.poll(() => consoleErrors.length).toBe(1);
    expect(consoleErrors[0]).toContain("a real failure");
    consoleErrors.length = 0;
    // Back as it was.
    await page.getByRole("button", { name: "Reopen conversation" }).click();
    await expect(page.getByTestId("thread-status")).toHaveText("Open");
    await page.getByLabel("Assignee").selectOption({ label: "Unassigned" });
    await page.getByRole("button", { name: "Assign", exact: true }).click();
    await expect(page.getByTestId("thread-assignee")).toHaveText("Unassigned");
  });

  test("a saved reply goes into the message box; at 1024 px the three panes still share the screen", async ({ page }) => {
    await page.setViewportSize({ width: 1024, height: 768 });
    await openWrenThread(page);
    const panel = page.getByRole("region", { name: "Support chat" });
    await expect(panel.getByText("Connected")).toBeVisible();
    await panel.getByLabel("Saved reply").selectOption({ label: "Thanks for waiting" });
    const composer = panel.getByPlaceholder("Type Message Here");
    await expect(composer).toHaveValue("Thank you for your patience!");
    await expect(composer).toBeFocused();
    await expect(composer).toBeInViewport();
    await expect(page.getByRole("region", { name: "Conversation list" })).toBeInViewport();
    await expect(page.getByRole("complementary", { name: "Customer" })).toBeInViewport();
    // The sidebar is a rail of icons here (its links keep their names), so the conversation keeps room to read.
    await expect(page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Inbox" })).toBeVisible();
    expect((await panel.boundingBox())?.width).toBeGreaterThanOrEqual(420);
    await axeAndPicture(page, "workspace-inbox-thread-1024", { fullPage: false });
  });
});

test.describe("the inbox on a phone", () => {
  test.use({ storageState: storageStateFor("workStaff"), viewport: { width: 390, height: 844 } });

  test("list → thread → customer, a note from its form, close and reopen @no-js", async ({ page }) => {
    await page.goto(`/dashboard/inbox?search=${encodeURIComponent(ACCOUNTS.workCustomer.email)}`);
    await expect(page.getByRole("heading", { name: "Inbox" })).toBeVisible();
    await expect(page.getByText("Select a conversation to read and answer it.")).toBeHidden();

    await page.getByTestId("thread-row").filter({ hasText: ACCOUNTS.workCustomer.name }).getByRole("link").click();
    await expect(page.getByRole("heading", { name: ACCOUNTS.workCustomer.name, level: 3 })).toBeVisible();
    await expect(page.getByRole("region", { name: "Conversation list" })).toBeHidden();
    await expect(page.getByRole("complementary", { name: "Customer" })).toBeHidden();
    await page.getByRole("button", { name: "Close conversation" }).click();
    await expect(page.getByTestId("thread-status")).toHaveText("Closed");
    await page.getByRole("button", { name: "Reopen conversation" }).click();
    await expect(page.getByTestId("thread-status")).toHaveText("Open");

    await page.getByRole("link", { name: "Customer details" }).click();
    const customer = page.getByRole("complementary", { name: "Customer" });
    await expect(customer).toBeVisible();
    await expect(page.getByRole("region", { name: "Support chat" })).toBeHidden();
    await expect(customer.getByTestId("customer-purchase")).toHaveCount(2);
    const note = `Phone note ${Date.now()}`;
    await customer.getByLabel("Add a note").fill(note);
    await customer.getByRole("button", { name: "Add note" }).click();
    await expect(customer.getByRole("region", { name: "Internal notes" }).getByText(note)).toBeVisible();

    await page.getByRole("link", { name: "Back to the conversation" }).click();
    await expect(page.getByRole("region", { name: "Support chat" })).toBeVisible();
    await page.getByRole("link", { name: "All conversations" }).click();
    await expect(page.getByRole("region", { name: "Conversation list" })).toBeVisible();
  });
});

test.describe("the customer page", () => {
  test.use({ storageState: storageStateFor("workStaff") });

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    test(`everything about one customer at ${viewport.width} px, a note from its form @no-js`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await openWrenThread(page);
      // The customer pane (phones show it on its own with ?pane=customer) links to the page.
      const url = new URL(page.url());
      url.searchParams.set("pane", "customer");
      await page.goto(url.toString());
      await page.getByRole("link", { name: "Open the customer page" }).click();
      // One page per customer (decision 280): the user detail, with everything else beside its tabs.
      await expect(page).toHaveURL(/\/dashboard\/users\/[0-9a-f-]{36}$/);
      await expect(page.getByRole("heading", { name: ACCOUNTS.workCustomer.name, level: 2 })).toBeVisible();
      // The e-mail under the name (the client's members list names it too).
      await expect(page.getByRole("link", { name: ACCOUNTS.workCustomer.email })).toBeVisible();
      for (const section of ["Reports", "Orders and receipts", "Grader", "Internal notes"]) {
        await expect(page.getByRole("region", { name: section, exact: true })).toBeVisible();
      }
      await expect(page.getByRole("region", { name: "Reports", exact: true }).locator('li[aria-labelledby^="purchase-"]')).toHaveCount(2);
      await expect(page.getByTestId("customer-grade")).toContainText("B · 72/100");
      const note = `Customer page note ${viewport.width} ${Date.now()}`;
      await page.getByLabel("Add a note").fill(note);
      await page.getByRole("button", { name: "Add note" }).click();
      await expect(page.getByRole("region", { name: "Internal notes" }).getByText(note)).toBeVisible();
      await expect(page).toHaveURL(/\/dashboard\/users\/[0-9a-f-]{36}$/);
      await page
        .getByRole("navigation", { name: "Customer" })
        .getByRole("link", { name: /^Message/ })
        .click();
      await expect(page.getByRole("region", { name: "Support chat" })).toBeVisible();
    });
  }
});

test.describe("axe and pictures", () => {
  test.use({ storageState: storageStateFor("workStaff") });

  test("the inbox's panes on a phone and the customer page at 390 and 1280 px: no axe violation, nothing sideways", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/dashboard/inbox?search=${encodeURIComponent(ACCOUNTS.workCustomer.email)}`);
    await axeAndPicture(page, "workspace-inbox-list-390", { fullPage: false });
    await openWrenThread(page);
    await expect(page.getByRole("region", { name: "Support chat" }).getByText("Connected")).toBeVisible();
    await axeAndPicture(page, "workspace-inbox-thread-390", { fullPage: false });
    await page.getByRole("link", { name: "Customer details" }).click();
    await expect(page.getByRole("complementary", { name: "Customer" })).toBeVisible();
    await axeAndPicture(page, "workspace-inbox-customer-390", { fullPage: false });
    await page.getByRole("link", { name: "Open the customer page" }).click();
    await page
      .getByRole("navigation", { name: "Customer" })
      .getByRole("link", { name: /^Message/ })
      .click();
    await expect(page.getByRole("region", { name: "Support chat" }).getByText("Connected")).toBeVisible();
    await axeAndPicture(page, "workspace-customer-page-390", { fullPage: false });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.reload();
    await expect(page.getByRole("region", { name: "Support chat" }).getByText("Connected")).toBeVisible();
    await axeAndPicture(page, "workspace-customer-page-1280", { fullPage: false });
  });
});

test.describe("saved replies", () => {
  test.use({ storageState: storageStateFor("workStaff"), viewport: { width: 1280, height: 800 } });

  test("added on their page (a field error first), listed, deleted; linked from the inbox @no-js", async ({ page }) => {
    await page.goto("/dashboard/inbox");
    await page.getByRole("link", { name: "Saved replies" }).click();
    await expect(page.getByRole("heading", { name: "Saved replies", level: 2 })).toBeVisible();
    await expect(page.getByTestId("saved-reply").filter({ hasText: "Thanks for waiting" })).toBeVisible();

    const title = `Opening hours ${Date.now()}`;
    await page.getByLabel("Title", { exact: true }).fill(" ");
    await page.getByLabel("Reply", { exact: true }).fill("We answer from 9 to 5.");
    await page.getByRole("button", { name: "Save reply" }).click();
    await expect(page.getByText("Please give the reply a title.")).toBeVisible();
    await page.getByLabel("Title", { exact: true }).fill(title);
    await page.getByLabel("Reply", { exact: true }).fill("We answer from 9 to 5.");
    await page.getByRole("button", { name: "Save reply" }).click();
    const row = page.getByTestId("saved-reply").filter({ hasText: title });
    await expect(row).toContainText("We answer from 9 to 5.");
    await row.getByRole("button", { name: `Delete “${title}”` }).click();
    await expect(row).toHaveCount(0);
  });

  test("the page has no axe violation at 390 and 1280 px", async ({ page }) => {
    await page.goto("/dashboard/saved-replies");
    await axeAndPicture(page, "workspace-saved-replies-1280", { fullPage: false });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await axeAndPicture(page, "workspace-saved-replies-390", { fullPage: false });
  });
});
