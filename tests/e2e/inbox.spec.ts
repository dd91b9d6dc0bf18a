import type { Browser } from "@playwright/test";

import { ACCOUNTS, expect, hydrated, ignoredConsoleError, latestEmail, storageStateFor, test, type AccountName } from "./fixtures";

/*
 * The support inbox (decisions 095–097), two browser contexts: the customer on Messages (no purchase
 * needed), staff on the inbox. Typing, an image, unread at the top, "Seen", assign and close; and a
 * visitor's contact-form message answered from the inbox by e-mail.
 */

const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082",
  "hex",
);

async function openAs(browser: Browser, account: AccountName, javaScriptEnabled = true) {
  const context = await browser.newContext({ storageState: storageStateFor(account), javaScriptEnabled });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error" && !ignoredConsoleError(msg.text())) errors.push(msg.text());
  });
  page.on("pageerror", (err) => void (ignoredConsoleError(err.message) || errors.push(err.message)));
  return { context, page, errors };
}

test("the customer types, sends an image; staff see it on top with one unread, open it (Seen), assign and close it", async ({ browser }) => {
  const customer = await openAs(browser, "inboxCustomer");
  const staff = await openAs(browser, "inboxStaff");
  try {
    // A customer with no purchase has Messages in the sidebar.
    await customer.page.goto("/dashboard");
    await customer.page
      .getByRole("navigation", { name: "Dashboard" })
      .getByRole("link", { name: /^Messages/ })
      .click();
    await expect(customer.page).toHaveURL(/\/dashboard\/messages$/);
    const panel = customer.page.getByRole("region", { name: "Support chat" });
    await expect(panel.getByText("Connected")).toBeVisible();
    await expect(panel.getByText("Hi Indy! How can we help?")).toBeVisible();

    await staff.page.goto("/dashboard");
    await staff.page
      .getByRole("navigation", { name: "Dashboard" })
      .getByRole("link", { name: /^Inbox/ })
      .click();
    await expect(staff.page).toHaveURL(/\/dashboard\/inbox$/);
    const row = staff.page.getByTestId("thread-row").filter({ hasText: ACCOUNTS.inboxCustomer.name });
    await expect(row).toBeVisible();
    await expect(row.getByTestId("unread-count")).toHaveCount(0);
    // The sidebar's live total: the page's figure, then (decision 323) kept by the counts per thread.
    const sidebarTotal = staff.page
      .getByRole("navigation", { name: "Dashboard" })
      .getByRole("link", { name: /^Inbox/ })
      .getByTestId("unread-count");
    await hydrated(staff.page);
    const shownTotal = async () => ((await sidebarTotal.count()) === 0 ? 0 : Number.parseInt(await sidebarTotal.innerText(), 10));
    const before = await shownTotal();

    // Typing shows in the staff's list (the staff socket may still be connecting: type again until it does).
    const input = panel.getByPlaceholder("Type Message Here");
    await expect(async () => {
      await input.fill("");
      await input.pressSequentially("Here is", { delay: 20 });
      await expect(row.getByTestId("thread-typing")).toHaveText("typing…", { timeout: 2500 });
    }).toPass({ timeout: 20_000 });
    await input.fill("");

    // An image: previewed, sent on Send as a file message, shown as a thumbnail on both sides.
    await customer.page.getByLabel("Attach a file").setInputFiles({ name: "screenshot.png", mimeType: "image/png", buffer: PNG });
    await expect(panel.getByTestId("attachment-preview")).toContainText("screenshot.png");
    await panel.getByRole("button", { name: "Send file" }).click();
    await expect(panel.getByTestId("attachment-thumbnail")).toBeVisible();

    const first = staff.page.getByTestId("thread-row").first();
    await expect(first).toContainText(ACCOUNTS.inboxCustomer.name);
    await expect(first).toContainText("screenshot.png");
    await expect(first.getByTestId("unread-count")).toHaveText("1 unread");
    await expect(sidebarTotal).toHaveText(`${before + 1} unread`);
    // A second message in the thread the total already counts adds one more.
    await input.fill("And one more thing");
    await input.press("Enter");
    await expect(first.getByTestId("unread-count")).toHaveText("2 unread");
    await expect(sidebarTotal).toHaveText(`${before + 2} unread`);

    await first.getByRole("link").click();
    await expect(staff.page).toHaveURL(/\/dashboard\/inbox\/[0-9a-f-]{36}$/);
    const staffPanel = staff.page.getByRole("region", { name: "Support chat" });
    await expect(staffPanel.getByTestId("attachment-thumbnail")).toBeVisible();
    await expect(staffPanel.getByTestId("attachment-thumbnail")).toHaveJSProperty("complete", true);
    await expect(row.getByTestId("unread-count")).toHaveCount(0);
    // Read: all of the thread's count leaves the total.
    await expect.poll(shownTotal).toBe(before);
    // The customer sees that staff have read it.
    await expect(panel.getByTestId("seen")).toHaveText("Seen");
    // …and still after a reload (the receipt is stored).
    await customer.page.reload();
    await expect(panel.getByTestId("seen")).toHaveText("Seen");

    await staff.page.getByRole("button", { name: "Assign to me" }).click();
    await expect(staff.page.getByTestId("thread-assignee")).toHaveText(`Assigned to ${ACCOUNTS.inboxStaff.name}`);
    await staff.page.getByRole("button", { name: "Close conversation" }).click();
    await expect(staff.page.getByTestId("thread-status")).toHaveText("Closed");
    await expect(first).toContainText("Closed");
    await expect(staff.page.getByRole("button", { name: "Reopen conversation" })).toBeVisible();

    expect(customer.errors).toEqual([]);
    expect(staff.errors).toEqual([]);
  } finally {
    await customer.context.close();
    await staff.context.close();
  }
});

test("a contact-form message shows up in the inbox, and the reply goes out by e-mail", async ({ page, browser }) => {
  const email = `visitor-${Date.now()}@inbox.e2e.test`;
  await page.goto("/#contact");
  const form = page.getByRole("form", { name: "Send us a message" });
  await form.getByLabel("First name").fill("Val");
  await form.getByLabel(/E-mail/).fill(email);
  await form.getByLabel("Message").fill("Do you also design logos?");
  await form.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Thank you!" })).toBeVisible();

  const staff = await openAs(browser, "inboxStaff");
  try {
    await staff.page.goto(`/dashboard/inbox?search=${encodeURIComponent(email)}`);
    const row = staff.page.getByTestId("thread-row").filter({ hasText: email });
    await expect(row).toContainText("Visitor");
    await expect(row).toContainText("Do you also design logos?");
    await row.getByRole("link").click();
    await expect(staff.page.getByText("Do you also design logos?").last()).toBeVisible();
    // The row's link may load the page in full (clicked before the list hydrated): type once it has.
    await hydrated(staff.page);
    const reply = `Yes, we do. A quote follows. ${Date.now()}`;
    await staff.page.getByLabel("Reply by e-mail").fill(reply);
    await staff.page.getByRole("button", { name: "Send reply" }).click();
    await expect(staff.page.getByRole("region", { name: "Visitor conversation" }).getByText(reply)).toBeVisible();
    await expect.poll(() => latestEmail(email)).toContain("Yes, we do. A quote follows.");
    expect(staff.errors).toEqual([]);
  } finally {
    await staff.context.close();
  }
});

test("a message with a file from Messages, a saved reply filled in for the customer, each side's thread shown again, with or without JavaScript @no-js", async ({
  browser,
}, testInfo) => {
  const javaScriptEnabled = testInfo.project.use.javaScriptEnabled !== false;
  const customer = await openAs(browser, "inboxCustomer", javaScriptEnabled);
  const staff = await openAs(browser, "inboxStaff", javaScriptEnabled);
  try {
    await customer.page.goto("/dashboard/messages");
    const panel = customer.page.getByRole("region", { name: "Support chat" });
    // The thread is on the page (the seeded welcome), with or without a connection.
    await expect(panel.getByText("Hi Indy! How can we help?")).toBeVisible();
    await expect(javaScriptEnabled ? panel.getByText("Connected") : panel.getByLabel("Attach a file")).toBeVisible();

    const caption = `Our brand guide ${Date.now()}`;
    await panel.getByLabel("Attach a file").setInputFiles({ name: "guide.png", mimeType: "image/png", buffer: PNG });
    await panel.locator("textarea[name=message]").fill(caption);
    await panel.getByRole("button", { name: /^Send (message|file)$/ }).click();
    const sent = panel.getByTestId("chat-message").filter({ hasText: caption });
    await expect(sent).toHaveCount(1);
    await expect(sent.getByTestId("attachment-thumbnail")).toBeVisible();

    // A saved reply whose {first_name} is filled in for this customer, inserted from the inbox's message box.
    const title = `Got it ${Date.now()}`;
    await staff.page.goto("/dashboard/saved-replies");
    await staff.page.getByLabel("Title", { exact: true }).fill(title);
    await staff.page.getByLabel("Reply", { exact: true }).fill("Thanks {first_name}, we have your file.");
    await staff.page.getByRole("button", { name: "Save reply" }).click();
    await expect(staff.page.getByTestId("saved-reply").filter({ hasText: title })).toBeVisible();

    await staff.page.goto(`/dashboard/inbox?search=${encodeURIComponent(ACCOUNTS.inboxCustomer.email)}`);
    await staff.page.getByTestId("thread-row").filter({ hasText: ACCOUNTS.inboxCustomer.name }).getByRole("link").click();
    const staffPanel = staff.page.getByRole("region", { name: "Support chat" });
    const received = staffPanel.getByTestId("chat-message").filter({ hasText: caption });
    await expect(received).toHaveCount(1);
    await expect(received.getByTestId("attachment-thumbnail")).toBeVisible();
    await expect(javaScriptEnabled ? staffPanel.getByText("Connected") : staffPanel.getByLabel("Attach a file")).toBeVisible();

    await staffPanel.getByLabel("Saved reply").selectOption({ label: title });
    // Without JavaScript the choice is a GET form: the page comes back with the reply in the box.
    if (!javaScriptEnabled) await staffPanel.getByRole("button", { name: "Insert" }).click();
    const box = staffPanel.locator("textarea[name=message]");
    await expect(box).toHaveValue("Thanks Indy, we have your file.");
    const reply = `Thanks Indy, we have your file. ${Date.now()}`;
    await box.fill(reply);
    await staffPanel.getByRole("button", { name: "Send message" }).click();
    await expect(staffPanel.getByTestId("chat-message").filter({ hasText: reply })).toHaveCount(1);
    await expect(box).toHaveValue("");

    await customer.page.reload();
    await expect(panel.getByTestId("chat-message").filter({ hasText: reply })).toContainText(ACCOUNTS.inboxStaff.name);
    expect(customer.errors).toEqual([]);
    expect(staff.errors).toEqual([]);
  } finally {
    await customer.context.close();
    await staff.context.close();
  }
});

test("with JavaScript the same message box goes by the socket: each message shows once on both sides, live, and no page is posted", async ({ browser }) => {
  const customer = await openAs(browser, "inboxCustomer");
  const staff = await openAs(browser, "inboxStaff");
  try {
    const posts: string[] = [];
    for (const side of [customer, staff]) side.page.on("request", (request) => void (request.method() === "POST" && posts.push(request.url())));
    await customer.page.goto("/dashboard/messages");
    const panel = customer.page.getByRole("region", { name: "Support chat" });
    await expect(panel.getByText("Connected")).toBeVisible();
    await staff.page.goto(`/dashboard/inbox?search=${encodeURIComponent(ACCOUNTS.inboxCustomer.email)}`);
    await staff.page.getByTestId("thread-row").filter({ hasText: ACCOUNTS.inboxCustomer.name }).getByRole("link").click();
    const staffPanel = staff.page.getByRole("region", { name: "Support chat" });
    await expect(staffPanel.getByText("Connected")).toBeVisible();

    const question = `Live question ${Date.now()}`;
    await panel.getByPlaceholder("Type Message Here").fill(question);
    await panel.getByRole("button", { name: "Send message" }).click();
    await expect(staffPanel.getByTestId("chat-message").filter({ hasText: question })).toHaveCount(1);
    const answer = `Live answer ${Date.now()}`;
    await staffPanel.getByPlaceholder("Type Message Here").fill(answer);
    await staffPanel.getByPlaceholder("Type Message Here").press("Enter");
    await expect(panel.getByTestId("chat-message").filter({ hasText: answer })).toHaveCount(1);
    // Each side's own message stays single (its acknowledgement, its echo and any page data merged by id).
    await customer.page.waitForTimeout(500);
    await expect(panel.getByTestId("chat-message").filter({ hasText: question })).toHaveCount(1);
    await expect(staffPanel.getByTestId("chat-message").filter({ hasText: answer })).toHaveCount(1);
    expect(posts.filter((url) => /\/dashboard\/(messages|inbox\/)/.test(url))).toEqual([]);
    expect(customer.errors).toEqual([]);
    expect(staff.errors).toEqual([]);
  } finally {
    await customer.context.close();
    await staff.context.close();
  }
});
