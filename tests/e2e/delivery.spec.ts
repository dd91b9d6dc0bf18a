import crypto from "node:crypto";

import { expect, hydrated, test } from "./fixtures";
import { draftForReview, PNG, staffBrowser, subscribe } from "./steps";

/*
 * Delivering the work, end to end (decisions 200–213): a visitor on a phone buys the VIP plan, answers its
 * brief, sees the posts staff send arrive for review, approves one and asks for changes to the
 * other; staff, on another node where one runs, read the brief and see each review as it happens.
 * With JavaScript the customer's and staff's calendars change live (`postUpdated`); without it each
 * side's next page shows the change. It runs on the embedded defaults (playwright.config.ts, one
 * node) and on PostgreSQL + Redis + S3 with two nodes (playwright.nodes.config.ts: staff's pages
 * come from the second node, E2E_STAFF_URL), where the post's image staff upload on one node is
 * stored in the bucket and served to the customer by the other.
 */

const PLAN = "VIP TREATMENT" as const;
const QUESTION = "What should your first posts celebrate?";

test.use({ viewport: { width: 390, height: 844 } });

test("a buyer on a phone pays, answers the brief and reviews the posts staff send; staff see each step @no-js", async ({
  page,
  browser,
  baseURL,
  javaScriptEnabled,
}) => {
  // A purchase, an e-mail, a brief, four staff forms and two reviews, on two nodes: minutes on a busy machine.
  test.setTimeout(180_000);
  const run = `${javaScriptEnabled ? "js" : "nojs"}${crypto.randomBytes(3).toString("hex")}`;
  const name = `Dana Delivery ${run}`;
  const email = `delivery-${run}@e2e-delivery.test`;
  const open = async (url: string) => {
    await page.goto(url);
    if (javaScriptEnabled) await hydrated(page);
  };

  // 1. Buy: the success page asks for the brief at once.
  const bought = await subscribe(page, PLAN, { name, email, password: "delivery-password-1" });
  await expect(page.getByRole("region", { name: "Brief needed" }).getByText(`Answer the brief for ${PLAN}`)).toBeVisible();

  // 2. The first password from the e-mail; the dashboard asks for the brief until it is sent.
  await bought.setPassword();
  const prompt = page.getByRole("region", { name: "Brief needed" });
  await expect(prompt).toBeVisible();
  await prompt.getByRole("link", { name: `Answer the brief for ${PLAN}` }).click();
  await expect(page.getByRole("heading", { name: `Brief for ${PLAN}` })).toBeVisible();
  if (javaScriptEnabled) await hydrated(page);
  const answer = `Our tenth birthday ${run}`;
  await page.getByLabel(new RegExp(`^${QUESTION.replace("?", "\\?")}`)).fill(answer);
  await page.getByRole("button", { name: "Send brief" }).click();
  await expect(page.getByText("Brief sent", { exact: true })).toBeVisible();
  await open("/dashboard/services");
  await expect(page.getByRole("region", { name: "Brief needed" })).toHaveCount(0);

  // 3. Staff (on the other node where there is one) find the new customer and read the brief.
  const staff = await staffBrowser(browser, "deliveryStaff", process.env.E2E_STAFF_URL ?? baseURL, javaScriptEnabled);
  await staff.open(`/dashboard/users?search=${encodeURIComponent(email)}`);
  await staff.page.getByRole("link", { name: "View Details" }).first().click();
  await expect(staff.page.getByRole("heading", { name, exact: true })).toBeVisible();
  const briefs = staff.page.getByRole("region", { name: "Briefs" });
  await expect(briefs.getByText(PLAN)).toBeVisible();
  await expect(briefs.getByText(answer)).toBeVisible();

  // 4. The customer's calendar is open while staff send two posts: with JavaScript they arrive live.
  await open("/dashboard/calendar");
  await expect(page.getByRole("heading", { name: "Content calendar" })).toBeVisible();
  const spring = `Birthday teaser ${run}`;
  const recap = `Ten years recap ${run}`;
  await draftForReview(staff, name, "Instagram", spring, "birthday.png");
  await draftForReview(staff, name, "TikTok", recap);
  if (!javaScriptEnabled) await open("/dashboard/calendar");
  const card = (caption: string) => page.getByTestId("post-card").filter({ hasText: caption });
  await expect(card(spring)).toContainText("Waiting for review", { timeout: 15_000 });
  await expect(card(recap)).toContainText("Waiting for review", { timeout: 15_000 });
  // The image staff uploaded on their node is served to the customer by theirs.
  const image = await card(spring).getByRole("img", { name: "Image of the post" }).getAttribute("src");
  const served = await page.request.get(image!);
  expect(served.status()).toBe(200);
  expect(Buffer.from(await served.body()).equals(PNG)).toBe(true);

  // 5. Staff watch their calendar while the customer reviews on the phone.
  await staff.open("/dashboard/calendar");
  const staffCard = (caption: string) => staff.page.getByTestId("post-card").filter({ hasText: caption });
  await expect(staffCard(spring)).toContainText("Waiting for review");
  await card(spring)
    .getByRole("button", { name: /^Approve/ })
    .click();
  await expect(card(spring)).toContainText("Approved");
  await card(recap).getByLabel("What should change?").fill("Add the founders' photo, please.");
  await card(recap).getByRole("button", { name: "Request changes" }).click();
  await expect(card(recap)).toContainText("Changes requested");

  if (!javaScriptEnabled) await staff.open("/dashboard/calendar");
  await expect(staffCard(spring)).toContainText("Approved", { timeout: 15_000 });
  await expect(staffCard(recap)).toContainText("Changes requested", { timeout: 15_000 });
  await expect(staffCard(recap)).toContainText("Add the founders' photo, please.");
  await staff.close();
});
