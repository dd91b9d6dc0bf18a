import crypto from "node:crypto";
import type { Page } from "@playwright/test";

import { passwordLinkIn } from "../fakes/email-links";
import { ACCOUNTS, test as base, expect, ignoredConsoleError, latestEmail, NEWCOMER, PASSWORD, storageStateFor } from "./fixtures";

/*
 * Sign-in, sign-out, forgot and reset password, in Chromium with and without JavaScript.
 *
 * Every test calls from its own client address (the server trusts X-Forwarded-For from loopback),
 * so the sign-in limit of 10 a minute per address is not spent by other tests. Chromium reports a
 * 4xx answer as a console error ("Failed to load resource"): on these screens a 400, 401 or 429
 * is the expected answer to a bad submission, so those lines are allowed; everything else fails.
 */
const test = base.extend<{ allowedConsoleErrors: RegExp }>({
  allowedConsoleErrors: [/Failed to load resource: the server responded with a status of 4\d\d/, { option: true }],
  // A plain function overrides the base fixture and keeps its { auto: true }.
  consoleErrors: async ({ page, allowedConsoleErrors }, provide, testInfo) => {
    const seed = crypto.createHash("sha256").update(`${testInfo.project.name}:${testInfo.testId}:${testInfo.retry}`).digest();
    await page.context().setExtraHTTPHeaders({ "X-Forwarded-For": `10.${seed[0]}.${seed[1]}.${seed[2]}` });
    const errors: string[] = [];
    page.on("console", (msg) => {
      if (msg.type() === "error" && !allowedConsoleErrors.test(msg.text()) && !ignoredConsoleError(msg.text())) errors.push(msg.text());
    });
    page.on("pageerror", (err) => errors.push(err.message));
    await provide(errors);
    expect(errors, "console errors").toEqual([]);
  },
});

const withJs = (testInfo: { project: { name: string } }) => testInfo.project.name !== "no-js";
const unknownEmail = () => `nobody-${crypto.randomBytes(4).toString("hex")}@e2e.test`;

/** Makes the form's submission fail in the network (the reload of the page's data still works). */
async function failSubmissions(page: Page, route: string) {
  await page.route(`**/${route}.data**`, (request) => (request.request().method() === "POST" ? request.abort() : request.continue()));
}

async function fillSignIn(page: Page, email: string, password: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

test.describe("sign-in", () => {
  test("shows the spec's screen: title, subtitle, fields, toggle, forgot link @no-js", async ({ page }, testInfo) => {
    await page.goto("/login");
    await expect(page.getByRole("heading", { level: 1, name: "Welcome Back" })).toBeVisible();
    await expect(page.getByText("Sign in to your account")).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveAttribute("type", "email");
    const password = page.getByLabel("Password", { exact: true });
    await expect(password).toHaveAttribute("type", "password");
    await expect(page.getByRole("link", { name: "Forgot your password?" })).toHaveAttribute("href", "/forgot-password");
    await expect(page.getByRole("button", { name: "Sign In" })).toBeEnabled();
    if (withJs(testInfo)) {
      await password.fill("secret-value");
      await page.getByRole("button", { name: "Show password" }).click();
      await expect(password).toHaveAttribute("type", "text");
      await page.getByRole("button", { name: "Hide password" }).click();
      await expect(password).toHaveAttribute("type", "password");
    }
  });

  test("validation messages @no-js", async ({ page }, testInfo) => {
    await page.goto("/login");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByText("Email is required")).toBeVisible();
    await expect(page.getByText("Password is required")).toBeVisible();
    await page.getByLabel("Email").fill("not-an-email");
    if (withJs(testInfo)) {
      // Validated as you type once a field has shown an error.
      await expect(page.getByText("Invalid email address")).toBeVisible();
      await page.getByLabel("Email").fill("someone@e2e.test");
      await expect(page.getByText("Invalid email address")).toBeHidden();
      await page.getByLabel("Email").fill("not-an-email");
    }
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByText("Invalid email address")).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
  });

  test("a wrong password and an unknown e-mail show the same message @no-js", async ({ page }) => {
    await page.goto("/login");
    await fillSignIn(page, ACCOUNTS.customerB.email, "not-the-password");
    await expect(page.getByRole("alert").filter({ hasText: "Invalid email or password." })).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    await fillSignIn(page, unknownEmail(), "not-the-password");
    await expect(page.getByRole("alert").filter({ hasText: "Invalid email or password." })).toBeVisible();
  });

  test("the eleventh failure in a minute for one e-mail shows the rate-limit message @no-js", async ({ page }) => {
    await page.goto("/login");
    const email = unknownEmail();
    for (let i = 0; i < 10; i++) {
      await fillSignIn(page, email, "not-the-password");
      // With JavaScript the message is both inline and a toast.
      await expect(page.getByText("Invalid email or password.").first()).toBeVisible();
    }
    await fillSignIn(page, email, "not-the-password");
    // With JavaScript the message is both inline and a toast; the inline one is there either way.
    await expect(page.locator("#login-error").getByText(/^Too many attempts\. Please try again in (\d+ seconds?|1 minute)\.$/)).toBeVisible();
  });

  test("sign in from a guarded page, land there with the success toast, sign out @no-js", async ({ page }, testInfo) => {
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdashboard$/);
    await fillSignIn(page, ACCOUNTS.emptyCustomer.email, PASSWORD);
    await expect(page).toHaveURL(/\/dashboard/);
    if (withJs(testInfo)) await expect(page.getByText("Logged in successfully!")).toBeVisible();

    await page.goto("/login");
    await expect(page).toHaveURL(/\/dashboard/);

    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/$/);
    if (withJs(testInfo)) await expect(page.getByText("Logged out successfully!")).toBeVisible();
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login\?redirectTo=/);
  });
});

test("the Sign In button shows a spinner and is disabled while submitting", async ({ page }) => {
  await page.goto("/login");
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/login.data**", async (route) => {
    if (route.request().method() === "POST") await held;
    await route.continue();
  });
  await fillSignIn(page, unknownEmail(), "whatever-password");
  const button = page.getByRole("button", { name: "Sign In" });
  await expect(button).toBeDisabled();
  await expect(button).toHaveAttribute("aria-busy", "true");
  release();
  await expect(page.locator("#login-error").getByText("Invalid email or password.")).toBeVisible();
  await expect(button).toBeEnabled();
});

test.describe("signed in", () => {
  test.use({ storageState: storageStateFor("customer") });

  test("opening /login goes to /dashboard", async ({ page }) => {
    await page.goto("/login");
    await expect(page).toHaveURL(/\/dashboard/);
  });
});

test.describe("forgot password", () => {
  test("validation, 'Check Your Email' with the address, Resend, back to sign in @no-js", async ({ page }, testInfo) => {
    await page.goto("/login");
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await page.getByRole("button", { name: "Reset Password" }).click();
    await expect(page.getByText("Email is required")).toBeVisible();
    await page.getByLabel("Email").fill("not-an-email");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await expect(page.getByText("Invalid email address")).toBeVisible();

    const email = unknownEmail();
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Reset Password" }).click();
    if (withJs(testInfo)) await expect(page.getByText("Submitting your request...")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Check Your Email" })).toBeVisible();
    await expect(page.getByText(email)).toBeVisible();
    await page.getByRole("button", { name: "Resend" }).click();
    await expect(page.getByRole("heading", { name: "Check Your Email" })).toBeVisible();
    await expect(page.getByText(email)).toBeVisible();
    await page.getByRole("link", { name: "Back to Sign In" }).click();
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe("reset password", () => {
  test("without a token it goes to /forgot-password; a bad link says so on opening; validation @no-js", async ({ page }, testInfo) => {
    await page.goto("/reset-password");
    await expect(page).toHaveURL(/\/forgot-password$/);

    // A link that cannot be used says so at once: no form to fill in first.
    await page.goto("/reset-password?token=made-up-token");
    await expect(page.getByRole("heading", { name: "Reset Password" })).toBeVisible();
    await expect(page.getByText("This link is not valid. Please request a new one.")).toBeVisible();
    await expect(page.getByLabel("New Password")).toHaveCount(0);
    await page.getByRole("link", { name: "Request another reset e-mail" }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);

    // The form's checks, on a usable link (the screens spec's newcomer: nothing valid is submitted, so it stays unused).
    await page.goto(`/reset-password?token=${NEWCOMER.setPasswordToken}`);
    await expect(page.getByRole("heading", { name: "Set Your Password" })).toBeVisible();
    if (withJs(testInfo)) {
      // Each field has its own show/hide toggle.
      await page.getByRole("button", { name: "Show password" }).nth(1).click();
      await expect(page.getByLabel("Confirm Password")).toHaveAttribute("type", "text");
      await expect(page.getByLabel("New Password")).toHaveAttribute("type", "password");
      await page.getByRole("button", { name: "Show password" }).click();
      await expect(page.getByLabel("New Password")).toHaveAttribute("type", "text");
    }
    await page.getByRole("button", { name: "Set Password" }).click();
    await expect(page.getByText("Password is required", { exact: true })).toBeVisible();
    await expect(page.getByText("Confirm Password is required")).toBeVisible();
    await page.getByLabel("New Password").fill("short");
    await page.getByLabel("Confirm Password").fill("different");
    await page.getByRole("button", { name: "Set Password" }).click();
    await expect(page.getByText("Password must be at least 8 characters")).toBeVisible();
    await expect(page.getByText("Passwords must match")).toBeVisible();
  });
});

test.describe("an unexpected failure shows the catalogue's message", () => {
  // The failure is a request the browser itself aborts, which it reports as a console error.
  test.use({ allowedConsoleErrors: /Failed to load resource|net::ERR_FAILED/ });
  test("an unexpected failure shows 'Login failed. Please check your credentials!'", async ({ page }) => {
    await page.goto("/login");
    await failSubmissions(page, "login");
    await fillSignIn(page, unknownEmail(), "whatever-password");
    // Inline, and as a toast.
    await expect(page.locator("#login-error").getByText("Login failed. Please check your credentials!")).toBeVisible();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Login failed. Please check your credentials!" })).toBeVisible();
  });

  test("an unexpected failure shows 'Failed to send reset email. Please try again later.'", async ({ page }) => {
    await page.goto("/forgot-password");
    await failSubmissions(page, "forgot-password");
    await page.getByLabel("Email").fill(unknownEmail());
    await page.getByRole("button", { name: "Reset Password" }).click();
    await expect(page.getByText("Failed to send reset email. Please try again later.")).toBeVisible();
  });

  test("an unexpected failure shows 'Failed to reset password. Please try again later.'", async ({ page }) => {
    // A usable link (the newcomer's): the submission fails in the network, so it is never spent.
    await page.goto(`/reset-password?token=${NEWCOMER.setPasswordToken}`);
    await failSubmissions(page, "reset-password");
    await page.getByLabel("New Password").fill("long enough password");
    await page.getByLabel("Confirm Password").fill("long enough password");
    await page.getByRole("button", { name: "Set Password" }).click();
    await expect(page.getByText("Failed to reset password. Please try again later.")).toBeVisible();
  });
});

test.describe("forgot → e-mail → reset → sign in", () => {
  const account = ACCOUNTS.resetter;

  test("the e-mailed link sets the new password once and ends the account's other sessions @no-js", async ({ page, browser }, testInfo) => {
    const tag = `${testInfo.project.name}-${crypto.randomBytes(3).toString("hex")}`;
    const first = `first-password-${tag}`;
    const second = `second-password-${tag}`;
    const used = new Set<string>();

    async function resetTo(newPassword: string) {
      await page.goto("/forgot-password");
      await page.getByLabel("Email").fill(account.email);
      await page.getByRole("button", { name: "Reset Password" }).click();
      await expect(page.getByText(account.email)).toBeVisible();
      let link = "";
      await expect
        .poll(
          () => {
            const raw = latestEmail(account.email);
            if (!raw?.includes("/reset-password?token=")) return "";
            const found = passwordLinkIn(raw);
            return used.has(found) ? "" : (link = found);
          },
          { message: `a new reset e-mail to ${account.email} in the outbox` },
        )
        .not.toBe("");
      used.add(link);
      const url = new URL(link);
      await page.goto(url.pathname + url.search);
      await page.getByLabel("New Password").fill(newPassword);
      await page.getByLabel("Confirm Password").fill(newPassword);
      await page.getByRole("button", { name: "Reset Password" }).click();
      await expect(page).toHaveURL(/\/login$/);
      if (withJs(testInfo)) await expect(page.getByText("Password reset successfully. You can now log in with your new password.")).toBeVisible();
      return url;
    }

    const firstLink = await resetTo(first);
    const elsewhere = await browser.newContext({ javaScriptEnabled: withJs(testInfo), extraHTTPHeaders: { "X-Forwarded-For": "10.250.0.1" } });
    try {
      const other = await elsewhere.newPage();
      await other.goto("/login");
      await fillSignIn(other, account.email, first);
      await expect(other).toHaveURL(/\/dashboard/);

      await resetTo(second);
      await other.goto("/dashboard");
      await expect(other).toHaveURL(/\/login\?redirectTo=/);
    } finally {
      await elsewhere.close();
    }

    await fillSignIn(page, account.email, first);
    await expect(page.locator("#login-error").getByText("Invalid email or password.")).toBeVisible();
    await fillSignIn(page, account.email, second);
    await expect(page).toHaveURL(/\/dashboard/);

    // The used link says so on opening, before any password is typed.
    await page.goto(firstLink.pathname + firstLink.search);
    await expect(page.getByText("This link has already been used or replaced by a newer one. Please request a new one.")).toBeVisible();
    await expect(page.getByLabel("New Password")).toHaveCount(0);
  });
});
