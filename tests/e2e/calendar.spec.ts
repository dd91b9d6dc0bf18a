import { ACCOUNTS, axeAndPicture, expect, storageStateFor, test } from "./fixtures";
import { draftForReview, PNG, staffBrowser } from "./steps";

/*
 * The content calendar (decision 210): staff draft posts and send them for review; the customer,
 * on a phone, approves one and asks for changes to another, and staff see it live; the review
 * form and the iCalendar link's renewal without JavaScript.
 */

test.describe("the content calendar", () => {
  test.use({ storageState: storageStateFor("calendarCustomer"), viewport: { width: 390, height: 844 } });

  test("staff send two posts for review; the customer approves one and asks for changes to the other on a phone; staff see both live", async ({
    page,
    browser,
    baseURL,
  }) => {
    // Two people, four forms and live updates: more than the default 30 s on a busy CI machine.
    test.setTimeout(120_000);
    const run = Date.now().toString(36);
    const spring = `Spring collection ${run}`;
    const teaser = `Summer teaser ${run}`;
    const staff = await staffBrowser(browser, "calendarStaff", baseURL, true);
    await draftForReview(staff, ACCOUNTS.calendarCustomer.name, "Instagram", spring);
    await draftForReview(staff, ACCOUNTS.calendarCustomer.name, "TikTok", teaser);
    await staff.open("/dashboard/calendar");
    const staffCard = (caption: string) => staff.page.getByTestId("post-card").filter({ hasText: caption });
    await expect(staffCard(spring)).toContainText("Waiting for review");

    await page.goto("/dashboard/calendar");
    await expect(page.getByRole("heading", { name: "Content calendar" })).toBeVisible();
    const card = (caption: string) => page.getByTestId("post-card").filter({ hasText: caption });
    await expect(card(spring)).toContainText("Waiting for review");
    await expect(page.getByTestId("calendar-link")).toHaveValue(/\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    await axeAndPicture(page, "calendar-customer-review-390");

    await card(spring)
      .getByRole("button", { name: /^Approve/ })
      .click();
    await expect(card(spring)).toContainText("Approved");
    await expect(staffCard(spring)).toContainText("Approved");

    await card(teaser).getByLabel("What should change?").fill("Warmer colours, please.");
    await card(teaser).getByRole("button", { name: "Request changes" }).click();
    await expect(card(teaser)).toContainText("Changes requested");
    await expect(staffCard(teaser)).toContainText("Changes requested");
    await expect(staffCard(teaser)).toContainText("Warmer colours, please.");

    await axeAndPicture(staff.page, "calendar-staff-1280");
    await staff.close();
  });

  test("staff draft for a customer without a plan, the grid shows each post's picture and caption start, the file field empties after an upload; a customer's staff link opens their own post", async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const run = Date.now().toString(36);
    const staff = await staffBrowser(browser, "calendarStaff", baseURL, true);
    await staff.open("/dashboard/calendar");
    const form = staff.page.getByRole("form", { name: "Draft a post" });
    await expect(form.getByText("Every customer is listed.")).toBeVisible();
    // A customer with neither a plan nor a post yet.
    await form.getByLabel("Customer").selectOption({ label: ACCOUNTS.emptyCustomer.name });
    await form.getByLabel("Caption").fill(`Opening week ${run}: doors open at nine, coffee on us for the first fifty guests and a raffle at noon.`);
    await form.getByRole("button", { name: "Save draft" }).click();
    await expect(staff.page).toHaveURL(/\/dashboard\/calendar\/posts\/[0-9a-f-]{36}$/, { timeout: 20_000 });
    const draftId = new URL(staff.page.url()).pathname.split("/").pop()!;

    const file = staff.page.getByLabel("File");
    await file.setInputFiles({ name: "opening.png", mimeType: "image/png", buffer: PNG });
    await staff.page.getByRole("button", { name: "Upload" }).click();
    await expect(staff.page.getByRole("img", { name: "Image of the post" })).toBeVisible();
    await expect(file).toHaveValue("");

    await staff.page.getByRole("link", { name: "Back to the calendar" }).click();
    const chip = staff.page.locator(`[data-testid="calendar-chip"][data-post="${draftId}"]`);
    await expect(chip.getByTestId("chip-caption")).toHaveText(new RegExp(`^Opening week ${run}: doors open at nine, .*…$`));
    await expect(chip.locator("img")).toHaveAttribute("src", /^\/files\/posts\//);
    await chip.scrollIntoViewIfNeeded();
    await staff.page.screenshot({ path: test.info().outputPath("calendar-grid-1280.png") });

    // A staff link to the customer's own post, opened by the customer: their post in their calendar.
    await draftForReview(staff, ACCOUNTS.calendarCustomer.name, "Facebook", `Staff link ${run}`);
    const ownId = new URL(staff.page.url()).pathname.split("/").pop()!;
    await staff.close();
    await page.goto(`/dashboard/calendar/posts/${ownId}`);
    await expect(page).toHaveURL(new RegExp(`/dashboard/calendar\\?month=\\d{4}-\\d{2}#post-${ownId}$`));
    await expect(page.getByTestId("post-card").filter({ hasText: `Staff link ${run}` })).toBeVisible();
    // Someone else's post: a plain "Not found", never an error page.
    await page.goto(`/dashboard/calendar/posts/${draftId}`);
    await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
    await expect(page.getByText("Something went wrong")).toHaveCount(0);
  });
});

test.describe("without JavaScript", () => {
  test.use({ storageState: storageStateFor("calendarNoJs"), viewport: { width: 390, height: 844 } });

  test("the review form asks for changes, and the calendar link is renewed @no-js", async ({ page, browser, baseURL, javaScriptEnabled }) => {
    test.setTimeout(90_000);
    const caption = `Autumn recap ${Date.now().toString(36)} ${javaScriptEnabled ? "js" : "no-js"}`;
    const staff = await staffBrowser(browser, "calendarStaff", baseURL, javaScriptEnabled);
    await draftForReview(staff, ACCOUNTS.calendarNoJs.name, "LinkedIn", caption);
    await staff.close();

    await page.goto("/dashboard/calendar");
    const card = page.getByTestId("post-card").filter({ hasText: caption });
    await expect(card).toContainText("Waiting for review");
    await card.getByLabel("What should change?").fill("Shorter, please.");
    await card.getByRole("button", { name: "Request changes" }).click();
    await expect(card).toContainText("Changes requested");
    await expect(card).toContainText("Shorter, please.");

    const link = page.getByTestId("calendar-link");
    const before = await link.inputValue();
    await page.getByRole("button", { name: "Renew link" }).click();
    await expect(link).not.toHaveValue(before);
    await expect(link).toHaveValue(/\.ics$/);
    expect((await page.request.get(before)).status()).toBe(404);
    const feed = await page.request.get(await link.inputValue());
    expect(feed.headers()["content-type"]).toBe("text/calendar; charset=utf-8");
    expect(await feed.text()).toContain("Seeded approved post");
  });
});
