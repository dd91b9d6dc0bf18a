import type { Browser } from "@playwright/test";

import { parseEmail } from "../fakes/email-links";
import { ACCOUNTS, axeAndPicture, expect, hydrated, ignoredConsoleError, outboxEmails, REVIEW, storageStateFor, test } from "./fixtures";
import { staffBrowser } from "./steps";

/*
 * The bell and the e-mailed review link (decisions 289 and 293). Staff sent posts for review (the
 * seed does it through the post page's own model calls, so the one-minute review job has told the
 * client's members by the time the stories start): the approver sees the bell's count, reads and
 * marks the notice on the notifications page and follows it to the post; from the e-mail, on a
 * phone signed in as nobody, the post is approved (or changes are asked for, with and without
 * JavaScript); the link is spent; staff see the decision on the post and in their notifications.
 */

const WAITING = "A post waits for your review";

/** The member's own review link, from the e-mail the review job sent them about the post with `caption`. */
async function reviewLinkFor(email: string, caption: string): Promise<string> {
  let link = "";
  await expect
    .poll(
      () => {
        const mail = outboxEmails(email)
          .map(parseEmail)
          .find((m) => m.subject === WAITING && m.text.includes(caption));
        return (link = mail?.links.find((l) => l.includes("/review/")) ?? "");
      },
      // The job runs every minute (seconds after the server starts, before the stories).
      { message: `the review e-mail to ${email}`, timeout: 70_000 },
    )
    .toContain("/review/");
  return link;
}

/** A browser of its own at 390 px, signed in as nobody: the e-mail opened on a phone. */
async function phone(browser: Browser, baseURL: string | undefined, javaScriptEnabled: boolean) {
  const context = await browser.newContext({
    storageState: { cookies: [], origins: [] },
    viewport: { width: 390, height: 844 },
    baseURL,
    javaScriptEnabled,
  });
  const page = await context.newPage();
  // The page under test fails on a console error, as the fixture's own page does.
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error" && !ignoredConsoleError(msg.text())) errors.push(msg.text());
  });
  page.on("pageerror", (err) => {
    if (!ignoredConsoleError(err.message)) errors.push(err.message);
  });
  const open = async (link: string) => {
    const url = new URL(link);
    const response = await page.goto(url.pathname + url.search);
    if (javaScriptEnabled && response?.ok()) await hydrated(page);
  };
  const close = async () => {
    await context.close();
    expect(errors, "console errors on the phone").toEqual([]);
  };
  return { page, open, close };
}

test.describe("the approver", () => {
  test.use({ storageState: storageStateFor("reviewApprover"), viewport: { width: 1280, height: 800 } });

  test("sees the bell's count and the notice, follows it to the post, approves from the e-mail on a phone; staff see it live", async ({
    page,
    browser,
    baseURL,
  }) => {
    // Three browsers and the pictures with axe: more than a quiet machine's 15 s on a loaded one.
    test.setTimeout(120_000);
    const link = await reviewLinkFor(ACCOUNTS.reviewApprover.email, REVIEW.approve);

    // 1. The bell counts the notice on every dashboard page.
    await page.goto("/dashboard/services");
    const nav = page.getByRole("navigation", { name: "Dashboard" });
    const bell = nav.getByTestId("notification-count");
    await expect(bell).toHaveText("1 unread");

    // 2. The notifications page: the notice, unread, linking to the member's own review link (the e-mail's).
    await nav.getByRole("link", { name: /^Notifications/ }).click();
    await expect(page.getByRole("heading", { name: "Notifications" })).toBeVisible();
    await expect(page.getByText("1 unread.")).toBeVisible();
    const notice = page.getByTestId("notifications").getByRole("listitem").filter({ hasText: REVIEW.approve });
    await expect(notice).toContainText("Unread");
    await expect(notice).toContainText("Please approve the Instagram post");
    const title = notice.getByRole("link", { name: WAITING });
    expect(new URL((await title.getAttribute("href"))!, baseURL).pathname).toBe(new URL(link).pathname);
    await axeAndPicture(page, "notifications-approver-1280");
    await page.setViewportSize({ width: 390, height: 844 });
    await axeAndPicture(page, "notifications-approver-390");
    await page.setViewportSize({ width: 1280, height: 800 });

    await notice.getByRole("button", { name: /^Mark read/ }).click();
    await expect(page.getByText("Nothing unread.")).toBeVisible();
    await expect(notice).not.toContainText("Unread");
    await expect(bell).toHaveCount(0);

    // 3. Following it opens the post, signed in or not; opening decides nothing.
    await title.click();
    await expect(page.getByRole("heading", { name: "Review the Instagram post" })).toBeVisible();
    await expect(page.getByText(`For ${REVIEW.client.name}, to go out on`)).toContainText(`You decide as ${ACCOUNTS.reviewApprover.name}.`);
    const scheduledAt = (await page.locator("time").first().getAttribute("datetime"))!;

    // 4. Staff watch the post in their calendar.
    const staff = await staffBrowser(browser, "reviewStaff", baseURL, true);
    await staff.open(`/dashboard/calendar?month=${scheduledAt.slice(0, 7)}`);
    const staffCard = staff.page.getByTestId("post-card").filter({ hasText: REVIEW.approve });
    await expect(staffCard).toContainText("Waiting for review");
    const staffBell = staff.page.getByRole("navigation", { name: "Dashboard" }).getByTestId("notification-count");
    const before = (await staffBell.count()) === 0 ? 0 : Number.parseInt((await staffBell.textContent())!, 10);

    // 5. The e-mailed link on a phone, signed in as nobody: the post, then Approve.
    const mobile = await phone(browser, baseURL, true);
    await mobile.open(link);
    await expect(mobile.page.getByRole("heading", { name: "Review the Instagram post" })).toBeVisible();
    await expect(mobile.page.getByRole("article", { name: "The post" })).toContainText(REVIEW.approve);
    await axeAndPicture(mobile.page, "review-link-390");
    await mobile.page.setViewportSize({ width: 1280, height: 800 });
    await axeAndPicture(mobile.page, "review-link-1280");
    await mobile.page.setViewportSize({ width: 390, height: 844 });
    await mobile.page.getByRole("button", { name: "Approve" }).click();
    await expect(mobile.page.getByRole("heading", { name: "Post approved" })).toBeVisible();

    // 6. Staff see it without a reload: the post approved by name, one more notice in the bell.
    await expect(staffCard).toContainText("Approved");
    await expect(staffCard).toContainText(`${ACCOUNTS.reviewApprover.name} approved`);
    // The bubble stops counting at 99 (other stories' orders and messages tell every staff member).
    await expect(staffBell).toHaveText(`${before + 1 > 99 ? "99+" : before + 1} unread`);
    await staff.page
      .getByRole("navigation", { name: "Dashboard" })
      .getByRole("link", { name: /^Notifications/ })
      .click();
    const decided = staff.page.getByTestId("notifications").getByRole("listitem").first();
    await expect(decided).toContainText(`Approved: Instagram post for ${REVIEW.client.name}`);
    await expect(decided).toContainText(`${ACCOUNTS.reviewApprover.name} approved the Instagram post for ${REVIEW.client.name}.`);
    await staff.close();

    // 7. The link is spent.
    await mobile.open(link);
    await expect(mobile.page.getByRole("heading", { name: "This review link cannot be used" })).toBeVisible();
    await expect(mobile.page.getByText("This review link has already been used.")).toBeVisible();
    await mobile.close();
  });
});

test.describe("a client's owner", () => {
  test.use({ storageState: storageStateFor("reviewOwner"), viewport: { width: 390, height: 844 } });

  test("asks for changes from the e-mailed link and marks the notice read; staff read the comment from their notice @no-js", async ({
    page,
    browser,
    baseURL,
    javaScriptEnabled,
  }) => {
    test.setTimeout(120_000);
    const project = javaScriptEnabled ? "js" : "no-js";
    const caption = REVIEW.changes[project];
    const comment = `Please name the three soups (${project}).`;
    const link = await reviewLinkFor(ACCOUNTS.reviewOwner.email, caption);

    // 1. The e-mailed link, signed in as nobody: a comment is needed to ask for changes.
    const mobile = await phone(browser, baseURL, javaScriptEnabled);
    await mobile.open(link);
    await expect(mobile.page.getByRole("heading", { name: "Review the Facebook post" })).toBeVisible();
    await expect(mobile.page.getByText(`You decide as ${ACCOUNTS.reviewOwner.name}.`)).toBeVisible();
    await mobile.page.getByLabel("What should change?").fill(comment);
    await mobile.page.getByRole("button", { name: "Ask for changes" }).click();
    await expect(mobile.page.getByRole("heading", { name: "Changes requested" })).toBeVisible();
    await mobile.open(link);
    await expect(mobile.page.getByText("This review link has already been used.")).toBeVisible();
    await mobile.close();

    // 2. Signed in, the owner marks the notice about it read with the page's plain form.
    await page.goto("/dashboard/notifications");
    const notice = page.getByTestId("notifications").getByRole("listitem").filter({ hasText: caption });
    await expect(notice.getByRole("link", { name: WAITING })).toBeVisible();
    await notice.getByRole("button", { name: /^Mark read/ }).click();
    await expect(notice).not.toContainText("Unread");

    // 3. Staff: the notice quotes the comment and leads to the post, whose changes are asked for.
    const staff = await staffBrowser(browser, "reviewStaff", baseURL, javaScriptEnabled);
    await staff.open("/dashboard/notifications");
    const decided = staff.page.getByTestId("notifications").getByRole("listitem").filter({ hasText: comment });
    await expect(decided).toContainText(`${ACCOUNTS.reviewOwner.name} asked for changes on the Facebook post`);
    await decided.getByRole("link", { name: `Changes requested: Facebook post for ${ACCOUNTS.reviewOwner.name}` }).click();
    const card = staff.page.getByTestId("post-card");
    await expect(card).toContainText("Changes requested");
    await expect(card).toContainText(caption);
    await expect(card).toContainText(comment);
    await staff.close();
  });
});
