import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Page, TestInfo } from "@playwright/test";

import { parseEmail } from "../fakes/email-links";
import { freePort, startServer, type ServerProcess } from "../support/server-process";
import { ACCOUNTS, test as base, expect, ignoredConsoleError, NEW_DEVICE_SUBJECT, outboxEmails, PASSWORD } from "./fixtures";

/*
 * Account security (decisions 230–235) in Chromium, with and without JavaScript: two-factor set-up on the
 * security page (QR code, the key by hand, a first code, recovery codes shown once), the second
 * step of signing in, and turning it off with a recovery code (in the audit log: the accounts are
 * staff). The set-up signed each account in from another browser, so this one is new to it: the
 * account is e-mailed the device. Each project has its own account.
 */

const test = base.extend({
  // A 401 for a wrong code is the expected answer in these flows.
  consoleErrors: async ({ page }, provide, testInfo) => {
    const seed = crypto.createHash("sha256").update(`${testInfo.project.name}:${testInfo.testId}`).digest();
    await page.context().setExtraHTTPHeaders({ "X-Forwarded-For": `10.${seed[0]}.${seed[1]}.${seed[2]}` });
    const errors: string[] = [];
    page.on("console", (msg) => {
      if (msg.type() === "error" && !ignoredConsoleError(msg.text())) errors.push(msg.text());
    });
    page.on("pageerror", (err) => errors.push(err.message));
    await provide(errors);
    expect(errors, "console errors").toEqual([]);
  },
});

const newDeviceEmails = (email: string) => outboxEmails(email).filter((raw) => raw.includes(`Subject: ${NEW_DEVICE_SUBJECT}`));

const accountFor = (testInfo: TestInfo) => (testInfo.project.name === "no-js" ? ACCOUNTS.securityNoJs : ACCOUNTS.securityJs);

/** What an authenticator app shows at `at` (RFC 6238: HMAC-SHA1 of the 30-second step, 6 digits). */
function totpAt(secret: string, at: number) {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const bits = [...secret.replace(/=+$/, "")].map((c) => alphabet.indexOf(c).toString(2).padStart(5, "0")).join("");
  const key = Buffer.from(bits.match(/.{8}/g)!.map((byte) => parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30)));
  const mac = crypto.createHmac("sha1", key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

async function shoot(page: Page, testInfo: TestInfo, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.screenshot({ path: testInfo.outputPath(`${name}-${width}.png`), fullPage: true });
  }
}

async function passwordStep(page: Page, email: string) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
}

test("two-factor: set up with a QR code, sign in with a code, turn off with a recovery code @no-js", async ({ page }, testInfo) => {
  // Many screens in one test (set-up, two sign-ins, the audit log): more than the default 30 s under load.
  testInfo.setTimeout(90_000);
  const account = accountFor(testInfo);
  const before = newDeviceEmails(account.email).length;
  await passwordStep(page, account.email);
  await expect(page).toHaveURL(/\/dashboard/);
  // A browser this account has not used (the set-up signed in from another): the new-device e-mail.
  await expect.poll(() => newDeviceEmails(account.email).length, { message: "a new-device e-mail in the outbox" }).toBe(before + 1);
  const notice = parseEmail(newDeviceEmails(account.email).at(-1)!).text;
  expect(notice).toMatch(/Device: Chrome on \w+/);
  expect(notice).toMatch(/Address: 10\.\d+\.\d+\.\d+/);

  await page.goto("/dashboard/security");
  await expect(page.getByRole("heading", { name: "Sign-in security" })).toBeVisible();
  await page.getByRole("button", { name: "Set up two-factor" }).click();
  await expect(page.getByRole("img", { name: "QR code to scan with your authenticator app" })).toBeVisible();
  const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await shoot(page, testInfo, `two-factor-setup-${testInfo.project.name}`);

  await page.getByLabel("Authentication code").fill("000000");
  await page.getByRole("button", { name: "Verify and turn on" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "That code is not right" })).toBeVisible();
  const now = Date.now();
  await page.getByLabel("Authentication code").fill(totpAt(secret, now));
  await page.getByRole("button", { name: "Verify and turn on" }).click();
  const codes = page.getByRole("list", { name: "Your recovery codes" }).getByRole("listitem");
  await expect(codes).toHaveCount(10);
  const recovery = (await codes.allTextContents()).map((c) => c.trim());
  // The codes can be downloaded as a text file (without JavaScript too) and, with it, copied.
  const download = page.getByRole("link", { name: "Download codes" });
  await expect(download).toHaveAttribute("download", "brandlift-recovery-codes.txt");
  expect(decodeURIComponent((await download.getAttribute("href"))!)).toContain(recovery.join("\n"));
  if (testInfo.project.name !== "no-js") {
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByRole("button", { name: "Copy codes" }).click();
    await expect(page.getByText("Copied to the clipboard.")).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(recovery[9]!);
  } else {
    await expect(page.getByRole("button", { name: "Copy codes" })).toHaveCount(0);
  }
  await shoot(page, testInfo, `two-factor-recovery-codes-${testInfo.project.name}`);
  // Shown once: a fresh look at the page has none of them.
  await page.goto("/dashboard/security");
  await expect(page.getByText("10 of 10 recovery codes left")).toBeVisible();
  await expect(page.getByText(recovery[0]!)).toHaveCount(0);
  // This suite's server is at an IP address, where browsers refuse passkeys: the page says so plainly.
  await expect(testInfo.project.name === "no-js" ? page.getByText("Adding a passkey needs JavaScript") : page.getByTestId("passkey-unavailable")).toContainText(
    testInfo.project.name === "no-js" ? "needs JavaScript" : "Passkeys need a domain name",
  );

  // Sign out; signing in now asks for a code on a second step.
  await page.getByRole("button", { name: "Logout" }).first().click();
  await expect(page).toHaveURL(/\/$/);
  await passwordStep(page, account.email);
  await expect(page.getByRole("heading", { name: "Two-factor sign-in" })).toBeVisible();
  await shoot(page, testInfo, `two-factor-sign-in-${testInfo.project.name}`);
  await page.getByLabel("Authentication code").fill("123456");
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "That code is not right" })).toBeVisible();
  // The next step's code (the one already used is refused as a replay).
  await page.getByLabel("Authentication code").fill(totpAt(secret, now + 30_000));
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard/);

  // Turning it off needs a code: a recovery code does.
  await page.goto("/dashboard/security");
  const turnOff = page.getByRole("form", { name: "Turn two-factor off" });
  await turnOff.getByLabel("Authentication code").fill(recovery[1]!);
  await turnOff.getByRole("button", { name: "Turn off two-factor" }).click();
  await expect(page.getByRole("button", { name: "Set up two-factor" })).toBeVisible();

  // A staff account turning off its second factor is an access change: the audit log shows it.
  await page.goto("/dashboard/audit?action=security.two_factor_off");
  await expect(page.getByTestId("audit-entry").filter({ hasText: account.name }).filter({ hasText: "Turned off two-factor sign-in" }).first()).toBeVisible();
  // Signing in again from this same browser (after the sign-out above) sent no second e-mail.
  expect(newDeviceEmails(account.email)).toHaveLength(before + 1);
});

/*
 * Passkeys need a domain: browsers refuse an IP address as the relying party, and the suite's server
 * is on 127.0.0.1. These tests start their own production server (its own embedded database, with
 * the demo accounts) at http://localhost:<port>, with TEAM_2FA=required, and drive Chromium's
 * virtual authenticator through a CDP session. WebAuthn needs JavaScript: the JS project only.
 */
test.describe("passkeys (virtual authenticator)", () => {
  let server: ServerProcess;
  let origin: string;
  const dataDir = path.resolve(`data-e2e-passkeys-${process.pid}`);

  test.beforeAll(async ({ browserName: _browser }, testInfo) => {
    // Untagged @no-js, so only the JavaScript project runs it (WebAuthn is a browser API).
    testInfo.setTimeout(180_000);
    fs.rmSync(dataDir, { recursive: true, force: true });
    const port = await freePort();
    origin = `http://localhost:${port}`;
    server = await startServer({ PORT: String(port), APP_URL: origin, DATA_DIR: dataDir, TEAM_2FA: "required" }, { timeoutMs: 150_000 });
  });

  test.afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("TEAM_2FA=required: staff add a passkey, which opens the dashboard and signs in without a password", async ({ page }, testInfo) => {
    testInfo.setTimeout(120_000);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });

    // Password sign-in: the team requires a second factor, so only the security page opens.
    await page.goto(`${origin}/login`);
    await page.getByLabel("Email").fill("team@brandlift.test");
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page).toHaveURL(`${origin}/dashboard/security`);
    await expect(page.getByText("Your team requires two-factor sign-in")).toBeVisible();
    await page.goto(`${origin}/dashboard/orders`);
    await expect(page).toHaveURL(`${origin}/dashboard/security`);
    const refused = await page.request.get(`${origin}/api/users`);
    expect(refused.status()).toBe(403);
    expect((await refused.json()).code).toBe("SECOND_FACTOR_REQUIRED");
    await shoot(page, testInfo, "security-required");

    // Adding one asks for the password first: a wrong one adds nothing.
    await page.getByLabel("Your password").fill("not the password");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await expect(page.getByText("Your current password is not correct.")).toBeVisible();
    expect((await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials).toHaveLength(0);
    await page.getByLabel("Your password").fill(PASSWORD);
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await expect(page.getByRole("list", { name: "Your passkeys" }).getByRole("listitem")).toHaveCount(1);
    expect((await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials).toHaveLength(1);
    await expect(page.getByText("Your team requires two-factor sign-in")).toHaveCount(0);
    await shoot(page, testInfo, "security-passkey-added");
    // Renamed in place (a plain form).
    await page.locator("summary", { hasText: "Rename" }).click();
    await page.getByLabel("New name").fill("Work laptop");
    await page.getByRole("button", { name: "Save name" }).click();
    await expect(page.getByRole("list", { name: "Your passkeys" }).getByText("Work laptop", { exact: true })).toBeVisible();
    // A passkey counts as both factors: the rest of the dashboard opens.
    await page.goto(`${origin}/dashboard/orders`);
    await expect(page).toHaveURL(`${origin}/dashboard/orders`);

    // Sign out, then in with the passkey alone.
    await page.getByRole("button", { name: "Logout" }).first().click();
    // Wait for the sign-out to land: a /login asked for before it ends still sees the session.
    await expect(page.getByText("Logged out successfully!")).toBeVisible();
    await expect(page).not.toHaveURL(/\/dashboard/);
    // Conditional UI: the sign-in page offers the passkey as it loads, and the virtual authenticator
    // (automatic presence, like a person picking it from the autofill list) takes the offer: signed in
    // with no password typed.
    await page.goto(`${origin}/login`);
    await expect(page).toHaveURL(/\/dashboard/);
    await expect(page.getByText("Logged in successfully!")).toBeVisible();
    await shoot(page, testInfo, "signed-in-with-passkey");
    await page.goto(`${origin}/dashboard/security`);
    await expect(page.getByText(/last used/)).toBeVisible();

    // Removing it puts the account back on the set-up page.
    await page.getByRole("button", { name: /^Remove/ }).click();
    await expect(page.getByText("No passkeys yet.")).toBeVisible();
    await page.goto(`${origin}/dashboard/orders`);
    await expect(page).toHaveURL(`${origin}/dashboard/security`);
  });
});
