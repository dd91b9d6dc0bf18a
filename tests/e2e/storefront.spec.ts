import type { Page } from "@playwright/test";

import { axeViolations, expect, latestEmail, storageStateFor, test } from "./fixtures";

/*
 * The storefront on the embedded default (no Stripe key): the landing page, the order modal and
 * the built-in test checkout, end to end. Tests tagged @no-js also run with JavaScript disabled.
 */

const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}@e2e-shop.test`;

async function payWithTestCard(page: Page) {
  await expect(page).toHaveURL(/\/checkout\/test\/cs_test_/);
  await expect(page.getByText("Test mode", { exact: true })).toBeVisible();
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM / YY)").fill("12 / 39");
  await page.getByLabel("CVC").fill("123");
  await page.getByLabel("Name on card").fill("E2E Buyer");
  await page.getByRole("button", { name: /^Pay \$/ }).click();
  await expect(page).toHaveURL(/\/purchase\/success\?session_id=cs_test_/);
  await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
}

/** Ticks services and gets to the checkout: through the modal with JavaScript, the inline form without. */
async function orderServices(page: Page, javaScriptEnabled: boolean, email: string, names: string[]) {
  await page.goto("/");
  for (const name of names) await page.getByRole("checkbox", { name: new RegExp(name) }).check();
  if (javaScriptEnabled) {
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Complete your order" });
    await dialog.getByLabel("Name").fill("E2E Buyer");
    await dialog.getByLabel("Email").fill(email);
    await dialog.getByRole("button", { name: "Submit Order" }).click();
  } else {
    const form = page.locator("#a-la-carte-form");
    await form.getByLabel("Name").fill("E2E Buyer");
    await form.getByLabel("Email").fill(email);
    await form.getByRole("button", { name: "Continue" }).click();
  }
}

test("the landing page shows every section with its headings, prices and plans", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveTitle(/BrandLift/);
  await expect(page.getByRole("link", { name: "BrandLift home" })).toHaveAttribute("href", "/");
  await expect(page.getByRole("banner").getByRole("link", { name: "Login" })).toHaveAttribute("href", "/login");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("What would you grade your social media page?");
  // The hero's first and primary button is the free grader; Login comes after it.
  const heroLinks = page.getByRole("region", { name: /What would you grade/ }).getByRole("link");
  await expect(heroLinks.first()).toHaveText("Grade my page free");
  await expect(heroLinks.first()).toHaveAttribute("href", "/grade");
  await expect(heroLinks.nth(1)).toHaveText("Login");
  const headings = ["A-La-Carte Services", "Our Services", "Subscription options", "Why choose us?", "Frequently asked questions", "Get in touch"];
  for (const name of headings) await expect(page.getByRole("heading", { name, level: 2 })).toBeVisible();
  // In the spec's order.
  const tops = await Promise.all(headings.map(async (name) => (await page.getByRole("heading", { name, level: 2 }).boundingBox())!.y));
  expect([...tops].sort((a, b) => a - b)).toEqual(tops);

  await expect(page.getByRole("checkbox")).toHaveCount(12);
  await expect(page.getByRole("checkbox", { name: /Social Media Audit/ })).toBeVisible();
  const services = page.locator("#our-services");
  for (const price of ["$28.99", "$38.99", "$50.00"]) await expect(services.getByText(price)).toBeVisible();
  const plans = page.locator("#subscription-options");
  for (const [title, price] of [
    ["STARTER PACKAGE", "$49"],
    ["PRO PACKAGE", "$159"],
    ["VIP TREATMENT", "$589"],
  ]) {
    const card = plans.getByRole("listitem").filter({ has: page.getByRole("heading", { name: title }) });
    await expect(card.getByText(price, { exact: true })).toBeVisible();
    await expect(card.getByText("/mo")).toBeVisible();
  }
  await expect(plans.getByText("$100 ad credits every month (no rollover)")).toBeVisible();
  await expect(page.locator("#why-choose-us").getByRole("listitem")).toHaveCount(5);
  const footer = page.getByRole("contentinfo");
  for (const [name, href] of [
    ["Home", "/"],
    ["Terms", "/terms"],
    ["Privacy", "/privacy"],
  ]) {
    await expect(footer.getByRole("link", { name })).toHaveAttribute("href", href);
  }
  // The year is the server's at render, not a year typed into the page.
  await expect(footer).toContainText(`© ${new Date().getUTCFullYear()} BrandLift`);
  // No stars without reviews behind them (decision 265).
  await expect(services.getByText(/out of 5|reviews?\b/)).toHaveCount(0);
});

test("the order modal: Continue waits for a tick, lists the choices, validates, and closes", async ({ page }) => {
  await page.goto("/");
  const continueButton = page.getByRole("button", { name: "Continue", exact: true });
  await expect(continueButton).toBeDisabled();
  await page.getByRole("checkbox", { name: /Social Media Audit/ }).check();
  await page.getByRole("checkbox", { name: /Profile Makeover/ }).check();
  await expect(continueButton).toBeEnabled();
  await continueButton.click();

  const dialog = page.getByRole("dialog", { name: "Complete your order" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText("Social Media Audit")).toBeVisible();
  await expect(dialog.getByText("$28.99")).toBeVisible();
  await expect(dialog.getByText("$99.00")).toBeVisible();
  await expect(dialog.getByTestId("order-total")).toHaveText("$127.99");
  const submit = dialog.getByRole("button", { name: "Submit Order" });
  await expect(submit).toBeDisabled();
  await dialog.getByLabel("Name").fill("   ");
  await dialog.getByLabel("Email").fill("someone@example.com");
  await expect(submit).toBeDisabled();
  await dialog.getByLabel("Name").fill("Ada");
  await dialog.getByLabel("Email").fill("not-an-email");
  await submit.click();
  await expect(dialog.getByText("Invalid email address")).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  await continueButton.click();
  await expect(dialog).toBeVisible();
  await page.mouse.click(5, 450);
  await expect(dialog).toBeHidden();
});

test("a box ticked while the page loads counts once the page is ready", async ({ page }) => {
  // The page's scripts are held until a box is ticked: the tick lands before React hydrates.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/.+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  const loading = page.goto("/");
  const audit = page.getByRole("checkbox", { name: /Social Media Audit/ });
  await audit.check();
  release();
  await loading;
  await expect(audit).toBeChecked();
  await expect(page.getByText(/^1 selected · \$28\.99$/)).toBeVisible();
  const continueButton = page.getByRole("button", { name: "Continue", exact: true });
  await expect(continueButton).toBeEnabled();
  await page.unrouteAll();

  // Away and Back: the picker counts what the browser gives back, ticked or restored.
  await page.getByRole("checkbox", { name: /Profile Makeover/ }).check();
  await page.goto("/terms");
  await page.goBack();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const ticked = await page.getByRole("checkbox", { checked: true }).count();
  await expect(page.getByText(ticked === 0 ? "Tick at least one service to continue." : new RegExp(`^${ticked} selected · `))).toBeVisible();
  await expect(continueButton).toBeEnabled({ enabled: ticked > 0 });
});

test.describe("signed in", () => {
  test.use({ storageState: storageStateFor("customer") });

  test("a customer's success page links to their dashboard and asks for no password", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("checkbox", { name: /Social Media Audit/ }).check();
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await page.getByRole("dialog", { name: "Complete your order" }).getByRole("button", { name: "Submit Order" }).click();
    await payWithTestCard(page);
    await expect(page.getByRole("link", { name: "View Dashboard" })).toHaveAttribute("href", "/dashboard");
    await expect(page.getByText(/set your password/)).toHaveCount(0);
    await page.getByRole("link", { name: "View Dashboard" }).click();
    await expect(page).toHaveURL(/\/dashboard/);
  });
});

test("the order modal shows 'Submitting...' while it submits and then goes to the checkout", async ({ page }) => {
  await page.goto("/");
  // Hold the action's request a moment so the submitting state can be seen.
  await page.route(/\.data\?index/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    await route.continue();
  });
  await page.getByRole("checkbox", { name: /Paid Ads Setup/ }).check();
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Complete your order" });
  await dialog.getByLabel("Name").fill("Sam Submit");
  await dialog.getByLabel("Email").fill(unique("submitting"));
  await dialog.getByRole("button", { name: "Submit Order" }).click();
  await expect(dialog.getByRole("button", { name: "Submitting..." })).toBeDisabled();
  await expect(page).toHaveURL(/\/checkout\/test\//);
  await expect(page.getByText("Test mode", { exact: true })).toBeVisible();
  await expect(page.getByText("Paid Ads Setup")).toBeVisible();
});

test("'Order Now' in an Our Services detail modal orders that package", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("button", { name: /Content Creation Kit: \$38\.99/ }).click();
  const detail = page.getByRole("dialog", { name: "Content Creation Kit" });
  await expect(detail.getByRole("img")).toBeVisible();
  await expect(page.locator("body")).toHaveCSS("overflow", "hidden");
  await detail.getByRole("tab", { name: "Growth" }).click();
  await expect(detail.getByText("$79.99")).toBeVisible();
  await detail.getByRole("button", { name: "Order Now" }).click();
  const order = page.getByRole("dialog", { name: "Complete your order" });
  await expect(order.getByText("Content Creation Kit (Growth)")).toBeVisible();
  await expect(order.getByTestId("order-total")).toHaveText("$79.99");
  await order.getByLabel("Name").fill("Pia Package");
  await order.getByLabel("Email").fill(unique("package"));
  await order.getByRole("button", { name: "Submit Order" }).click();
  await expect(page).toHaveURL(/\/checkout\/test\//);
  await expect(page.getByText("Test mode", { exact: true })).toBeVisible();
  await expect(page.getByText("Content Creation Kit (Growth)")).toBeVisible();
});

test("order, pay on the test checkout, set a password from the e-mail and see the purchase @no-js", async ({ page, javaScriptEnabled }) => {
  const email = unique("buyer");
  await orderServices(page, javaScriptEnabled, email, ["Brand Identity Kit"]);
  await expect(page.getByText("$499.00").first()).toBeVisible();
  await payWithTestCard(page);
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to Home Page" })).toHaveAttribute("href", "/");
  await expect(page.getByRole("link", { name: "View Dashboard" })).toHaveAttribute("href", "/login");

  const mail = (latestEmail(email) ?? "").replace(/=\r?\n/g, "").replace(/=3D/g, "=");
  const link = /http:\/\/127\.0\.0\.1:\d+\/reset-password\?token=[\w-]+/.exec(mail)?.[0];
  expect(link, "the set-password e-mail is in the outbox").toBeTruthy();
  await page.goto(link!);
  await page.getByLabel("New Password").fill("a-strong-password-1");
  await page.getByLabel("Confirm Password").fill("a-strong-password-1");
  // A new account's link sets a first password: the page says so.
  await expect(page.getByRole("heading", { name: "Set Your Password" })).toBeVisible();
  await page.getByRole("button", { name: "Set Password" }).click();
  // Setting a first password signs the buyer in and welcomes them (decision 145): no second sign-in.
  await expect(page).toHaveURL(/\/dashboard/);
  await expect(page.getByText("Brand Identity Kit").first()).toBeVisible();
});

test("the test checkout takes the expiry as typed (1239), says one thing when it is wrong, and leaves Name on card empty @no-js", async ({
  page,
  javaScriptEnabled,
}) => {
  await orderServices(page, javaScriptEnabled, unique("expiry"), ["Monthly Analytics Report"]);
  await expect(page).toHaveURL(/\/checkout\/test\//);
  const name = page.getByLabel("Name on card");
  await expect(name).toHaveValue("");
  expect(await name.getAttribute("placeholder")).toBeNull();
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("CVC").fill("123");
  await name.fill("E2E Buyer");
  await page.getByLabel("Expiry (MM / YY)").fill("1320");
  await page.getByRole("button", { name: /^Pay \$/ }).click();
  await expect(page.getByText("Your card's expiration month is invalid.")).toBeVisible();
  await expect(page.getByText("in the past")).toHaveCount(0);
  // The card number and CVC are never sent back into the page: typed again, as on any checkout.
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("CVC").fill("123");
  await page.getByLabel("Expiry (MM / YY)").fill("1239");
  await page.getByRole("button", { name: /^Pay \$/ }).click();
  await expect(page).toHaveURL(/\/purchase\/success\?session_id=cs_test_/);
  await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
});

test("cancelling on the test checkout lands on 'Payment Cancelled by You' @no-js", async ({ page, javaScriptEnabled }) => {
  await orderServices(page, javaScriptEnabled, unique("canceller"), ["Monthly Analytics Report"]);
  await expect(page).toHaveURL(/\/checkout\/test\//);
  await expect(page.getByText("Test mode", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Cancel and return to BrandLift" }).click();
  await expect(page).toHaveURL(/\/purchase\/cancel\?order=[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: "Payment Cancelled by You" })).toBeVisible();
  await expect(page.getByText("No charge was made")).toBeVisible();
  // "Your selection is not lost" is true: the page names it and brings it back ticked, in view (decision 172).
  await expect(page.getByRole("region", { name: "Your selection" }).getByText("Monthly Analytics Report")).toBeVisible();
  await page.getByRole("link", { name: "Back to your selection" }).click();
  await expect(page).toHaveURL(/\/\?services=[0-9a-f-]{36}#a-la-carte$/);
  const ticked = page.getByRole("checkbox", { name: /Monthly Analytics Report/ });
  await expect(ticked).toBeChecked();
  await expect(ticked).toBeInViewport();
  await expect(page.getByRole("checkbox", { checked: true })).toHaveCount(1);
});

test("the success page of an unknown checkout says the payment is not found, never a success", async ({ page }) => {
  const response = await page.goto("/purchase/success?session_id=cs_test_nobody_paid_this");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Payment Not Found", level: 1 })).toBeVisible();
  await expect(page.getByText("Payment Successful")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Contact us" })).toHaveAttribute("href", "/#contact");
});

test("a plan's Continue opens the order form for a monthly subscription @no-js", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("button", { name: "Continue with PRO PACKAGE" }).click();
  const dialog = page.getByRole("dialog", { name: "Subscribe to PRO PACKAGE" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId("order-total")).toHaveText("$159.00/mo");
  await dialog.getByLabel("Name").fill("Pat Plan");
  await dialog.getByLabel("Email").fill(unique("planner"));
  await dialog.getByRole("button", { name: "Submit Order" }).click();
  await expect(page).toHaveURL(/\/checkout\/test\//);
  await expect(page.getByText("Test mode", { exact: true })).toBeVisible();
  await expect(page.getByText("$159.00 per month").first()).toBeVisible();
  await payWithTestCard(page);
});

test("the contact form needs an e-mail and a message, refuses a blank one, and thanks the visitor @no-js", async ({ page }) => {
  await page.goto("/#contact");
  const form = page.getByRole("form", { name: "Send us a message" });
  await form.getByLabel(/E-mail/).fill(unique("contact"));
  // Spaces pass the browser's own check; the server refuses them and says why, beside the field.
  await form.getByLabel(/Message/).fill("   ");
  await form.getByRole("button", { name: "Send" }).click();
  await expect(form.getByText("Please write your message.")).toBeVisible();
  await expect(form.getByLabel(/Message/)).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("status").filter({ hasText: "Thank you!" })).toHaveCount(0);
  await form.getByLabel(/Message/).fill("Can you run our Instagram?");
  await form.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Thank you!" })).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("an answer loads where the eye is: a price's detail, the contact form's thanks @no-js", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/");
    await page.getByRole("button", { name: /Content Creation Kit: \$/ }).click();
    const dialog = page.getByRole("dialog", { name: "Content Creation Kit" });
    await expect(dialog.getByRole("heading", { name: "Content Creation Kit" })).toBeInViewport();

    await page.goto("/#contact");
    const form = page.getByRole("form", { name: "Send us a message" });
    await form.getByLabel(/E-mail/).fill(unique("in-view"));
    await form.getByLabel(/Message/).fill("Hello from a phone without JavaScript");
    await form.getByRole("button", { name: "Send" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Thank you!" })).toBeInViewport();
  });

  test("a refused a-la-carte order says what to fix where the eye is, above the 12 services @no-js", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/#a-la-carte");
    const form = page.locator("#a-la-carte-form");
    await form.getByLabel("Name").fill("Robin No Script");
    await form.getByLabel("Email").fill(unique("no-script"));
    await form.getByRole("button", { name: "Continue" }).click();
    const summary = form.getByRole("alert").filter({ hasText: "Your order was not sent" });
    await expect(summary).toBeInViewport();
    await expect(summary).toContainText("Please select at least one service.");
    await expect(summary.getByRole("listitem")).toHaveCount(1);
    // What was typed is kept for the next try.
    await expect(form.getByLabel("Name")).toHaveValue("Robin No Script");
  });
});

test("the terms and privacy pages are real pages", async ({ page }) => {
  await page.goto("/terms");
  await expect(page.getByRole("heading", { name: "Terms of Service", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Refunds" })).toBeVisible();
  await page.goto("/privacy");
  await expect(page.getByRole("heading", { name: "Privacy Policy", level: 1 })).toBeVisible();
});

test("axe finds no serious accessibility violation on the landing page", async ({ page }) => {
  await page.goto("/");
  expect(await axeViolations(page, { impacts: ["serious", "critical"] })).toEqual([]);
});
