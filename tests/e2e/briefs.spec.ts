import type { Page } from "@playwright/test";

import { ACCOUNTS, axeAndPicture, expect, hydrated, storageStateFor, test } from "./fixtures";

/*
 * Briefs (decision 201): staff add questions beside a service; a buyer answers the brief
 * of their purchase from the dashboard ("Brief needed" until then); staff read the answers. The
 * seed gives each buyer a paid "Brief Lab" purchase with an unanswered brief.
 */

/** From the customer's Services: the "Brief needed" prompt, then its brief page. */
async function openBriefFromDashboard(page: Page) {
  await page.goto("/dashboard/services");
  const prompt = page.getByRole("region", { name: "Brief needed" });
  await expect(prompt).toBeVisible();
  await prompt.getByRole("link", { name: "Answer the brief for Brief Lab" }).click();
  await expect(page.getByRole("heading", { name: "Brief for Brief Lab" })).toBeVisible();
}

test.describe("staff and a buyer", () => {
  test.use({ storageState: storageStateFor("briefStaff"), viewport: { width: 1280, height: 800 } });

  test("staff add a question beside the service; the buyer answers from the dashboard; staff read the answers", async ({ page, browser }) => {
    test.slow();
    await page.goto("/dashboard/catalogue");
    await page.getByRole("link", { name: "Brief Lab" }).first().click();
    const editor = page.getByRole("form", { name: "Brief questions of Brief Lab" });
    await expect(editor).toBeVisible();
    await editor.getByRole("button", { name: "Add a question" }).click();
    await editor.getByRole("group", { name: "Question 1" }).getByLabel("Question", { exact: true }).fill("Brand name");
    await editor.getByRole("group", { name: "Question 1" }).getByLabel("Required").check();
    await editor.getByRole("button", { name: "Add a question" }).click();
    const second = editor.getByRole("group", { name: "Question 2" });
    await second.getByLabel("Answer type").selectOption("choice");
    await second.getByLabel("Question", { exact: true }).fill("Tone of voice");
    await editor.getByRole("button", { name: /^Save questions/ }).click();
    // A choice needs its options: the error sits under that question.
    await expect(second.getByText('"Tone of voice" is a choice: give it at least 2 options')).toBeVisible();
    await second.getByLabel(/^Options/).fill("Playful\nSerious");
    await editor.getByRole("button", { name: /^Save questions/ }).click();
    await expect(page.getByText("The brief questions were saved.")).toBeVisible();
    await page.reload();
    await expect(editor.getByRole("group", { name: "Question 2" }).getByLabel("Question", { exact: true })).toHaveValue("Tone of voice");
    await axeAndPicture(page, "briefs-editor-1280");

    // The buyer, on a phone.
    const buyerContext = await browser.newContext({ storageState: storageStateFor("briefCustomer"), viewport: { width: 390, height: 844 } });
    const buyer = await buyerContext.newPage();
    await openBriefFromDashboard(buyer);
    await hydrated(buyer);
    await expect(buyer.getByText("Brief needed").first()).toBeVisible();
    await buyer.getByRole("button", { name: "Send brief" }).click();
    await expect(buyer.getByRole("alert").filter({ hasText: 'Please answer the required question: "Brand name".' })).toBeVisible();
    await buyer.getByLabel(/^Brand name/).fill("Acme Rockets");
    await buyer.getByLabel("Serious").check();
    await buyer.getByLabel(/^Website/).fill("acme.example");
    await buyer.getByRole("button", { name: "Send brief" }).click();
    await expect(buyer.getByText("Thank you: your brief was sent. We will be in touch.")).toBeVisible();
    await expect(buyer.getByText("Brief sent", { exact: true })).toBeVisible();
    // The form starts again from what was saved: the refusal's messages are gone, the address as stored.
    await expect(buyer.getByText("Please answer this question")).toHaveCount(0);
    await expect(buyer.getByLabel(/^Website/)).toHaveValue("https://acme.example/");
    await axeAndPicture(buyer, "briefs-answer-390");
    const customerPage = await buyer.getByRole("link", { name: "Back to the service" }).getAttribute("href");
    expect(customerPage).toMatch(/^\/dashboard\/services\//);
    const briefUrl = new URL(buyer.url()).pathname;
    await buyerContext.close();

    // Staff read it: on the brief page, and on the customer's page.
    await page.goto(briefUrl);
    await expect(page.getByText("Acme Rockets")).toBeVisible();
    await expect(page.getByRole("link", { name: "https://acme.example/" })).toBeVisible();
    const back = await page.getByRole("link", { name: "Back to the customer" }).getAttribute("href");
    await page.goto(back!);
    const briefs = page.getByRole("region", { name: "Briefs" });
    await expect(briefs.getByText("Brief Lab")).toBeVisible();
    await expect(briefs.getByText("Acme Rockets")).toBeVisible();
  });
});

test("the buyer answers the brief without JavaScript too @no-js", async ({ browser, javaScriptEnabled }) => {
  const account = javaScriptEnabled ? "briefFormJs" : "briefFormNoJs";
  const context = await browser.newContext({ storageState: storageStateFor(account), javaScriptEnabled });
  const page = await context.newPage();
  await openBriefFromDashboard(page);
  if (javaScriptEnabled) await hydrated(page);
  await page.getByLabel(/^Website/).fill("not a web address");
  await page.getByRole("button", { name: "Send brief" }).click();
  await expect(page.getByText('Please answer the required question: "Brand name".')).toBeVisible();
  await page.getByLabel(/^Brand name/).fill(`${ACCOUNTS[account].name} Co`);
  await page.getByLabel(/^Website/).fill("example.com");
  await page.getByRole("button", { name: "Send brief" }).click();
  await expect(page.getByText("Brief sent", { exact: true })).toBeVisible();
  await expect(page.getByLabel(/^Brand name/)).toHaveValue(`${ACCOUNTS[account].name} Co`);
  await page.goto("/dashboard/services");
  await expect(page.getByRole("region", { name: "Brief needed" })).toHaveCount(0);
  await context.close();
});
