import { expect, storageStateFor, test } from "./fixtures";

/*
 * Staff's webhooks page in Chromium, with and without JavaScript: a webhook added with its events
 * shows its signing secret once, is listed, turned off and on, opens its (empty) delivery log, and
 * is deleted. The address is in a documentation range: nothing is ever sent there.
 */

test.use({ storageState: storageStateFor("opsStaff") });

test("staff add a webhook, see its secret once, turn it off and on, open its log and delete it @no-js", async ({ page }, testInfo) => {
  const url = `https://203.0.113.20/${testInfo.project.name}-${Date.now()}`;
  await page.goto("/dashboard/webhooks");
  await expect(page.getByRole("heading", { level: 2, name: "Webhooks" })).toBeVisible();

  const form = page.getByRole("form", { name: "Add a webhook" });
  await form.getByLabel("Address (https://…)").fill(url);
  await form.getByRole("checkbox", { name: "post.due" }).check();
  await form.getByRole("checkbox", { name: "post.approved" }).check();
  await form.getByRole("button", { name: "Add webhook" }).click();
  await expect(page.getByTestId("webhook-secret")).toHaveText(/^whsec_/);
  const secret = await page.getByTestId("webhook-secret").textContent();

  await page.goto("/dashboard/webhooks");
  await expect(page.getByTestId("webhook-secret")).toHaveCount(0);
  await expect(page.locator("body")).not.toContainText(secret!);
  const row = page.getByTestId("webhook").filter({ hasText: url });
  await expect(row).toContainText("post.approved, post.due");
  await expect(row).toContainText("On");

  await row.getByRole("button", { name: `Turn off ${url}` }).click();
  await expect(page.getByTestId("webhook").filter({ hasText: url })).toContainText("Off");
  await page
    .getByTestId("webhook")
    .filter({ hasText: url })
    .getByRole("button", { name: `Turn on ${url}` })
    .click();
  await expect(page.getByTestId("webhook").filter({ hasText: url })).toContainText("On");

  await page.getByRole("link", { name: url }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Delivery log" })).toBeVisible();
  await expect(page.getByText("No events have been sent to this webhook yet.")).toBeVisible();
  await page.getByRole("link", { name: "Back to webhooks" }).click();

  await page
    .getByTestId("webhook")
    .filter({ hasText: url })
    .getByRole("button", { name: `Delete ${url}` })
    .click();
  await expect(page.getByTestId("webhook").filter({ hasText: url })).toHaveCount(0);
});
