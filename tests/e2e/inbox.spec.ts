import type { Browser } from "@playwright/test";

import { ACCOUNTS, expect, latestEmail, storageStateFor, test, type AccountName } from "./fixtures";

/*
 * The support inbox (issue 14), two browser contexts: the customer on Messages (no purchase
 * needed), staff on the inbox. Typing, an image, unread at the top, "Seen", assign and close; and a
 * visitor's contact-form message answered from the inbox by e-mail.
 */

const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082",
  "hex",
);

async function openAs(browser: Browser, account: AccountName) {
  const context = await browser.newContext({ storageState: storageStateFor(account) });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error" && !/Failed to load resource: the server responded with a status of 4\d\d/.test(msg.text())) errors.push(msg.text());
  });
  page.on("pageerror", (err) => errors.push(err.message));
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

    await first.getByRole("link").click();
    await expect(staff.page).toHaveURL(/\/dashboard\/inbox\/[0-9a-f-]{36}$/);
    const staffPanel = staff.page.getByRole("region", { name: "Support chat" });
    await expect(staffPanel.getByTestId("attachment-thumbnail")).toBeVisible();
    await expect(staffPanel.getByTestId("attachment-thumbnail")).toHaveJSProperty("complete", true);
    await expect(row.getByTestId("unread-count")).toHaveCount(0);
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
