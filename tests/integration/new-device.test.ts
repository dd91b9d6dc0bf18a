import { generateTOTP } from "@epic-web/totp";
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";

import { addPasskey, authenticationOptions, registrationOptions } from "~/models/passkeys.server";
import { issuePasswordToken } from "~/models/password-tokens.server";
import { NEW_DEVICE_SUBJECT } from "~/models/sign-in-devices.server";
import { confirmTwoFactorSetup, startTwoFactorSetup, TOTP_PERIOD } from "~/models/two-factor.server";
import { action as loginPageAction } from "~/routes/_auth+/login";
import { action as magicPageAction } from "~/routes/_auth+/login_.magic";
import { action as resetPasswordAction } from "~/routes/_auth+/reset-password";
import { action as secondStepApiAction } from "~/routes/api+/auth+/2fa";
import { action as loginApiAction } from "~/routes/api+/auth+/login";
import { action as magicApiAction } from "~/routes/api+/auth+/magic-link";
import { action as passkeyApiAction } from "~/routes/api+/auth+/passkey";
import { settleBackgroundTasks } from "~/utils/background.server";
import { db, schema } from "~/utils/db.server";
import { env } from "~/utils/env.server";

import { callRoute } from "../support/call-route";
import { createAccount, createTestUser } from "../support/factories";
import { readOutbox, waitForOutboxEmail } from "../support/outbox";
import { formRequest, jsonRequest, loadContext } from "../support/requests";
import { softPasskey } from "../support/soft-passkey";

const PASSWORD = "new device password";
const FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
const SAFARI_IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const CHROME_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

/** A browser: its user agent, its address and the device cookie it was given (none at first). */
interface Browser {
  userAgent: string;
  ip: string;
  deviceCookie?: string;
}
const browser = (userAgent: string, ip: string): Browser => ({ userAgent, ip });

function keepDeviceCookie(b: Browser, headers: Headers) {
  const set = headers.getSetCookie().find((c) => c.startsWith("__device="));
  expect(set, "the sign-in sets the device cookie").toBeDefined();
  expect(set).toMatch(/HttpOnly/i);
  expect(set).toMatch(/Max-Age=34560000/);
  b.deviceCookie = set!.split(";")[0];
}

const browserHeaders = (b: Browser) => ({ "User-Agent": b.userAgent, ...(b.deviceCookie ? { Cookie: b.deviceCookie } : {}) });

async function signInWithForm(b: Browser, email: string) {
  const result = await callRoute(loginPageAction, formRequest("/login", { email, password: PASSWORD }, browserHeaders(b)), { context: loadContext(b.ip) });
  expect(result.status).toBe(302);
  keepDeviceCookie(b, result.headers);
  await settleBackgroundTasks();
  return result;
}

const newDeviceMails = (email: string) => readOutbox(email).filter((m) => m.subject === NEW_DEVICE_SUBJECT);

describe("new-device e-mails", () => {
  test("the first sign-in records the browser quietly; the same browser again is quiet; a new one is e-mailed its device and address", async () => {
    const account = await createAccount({ password: PASSWORD, name: "Dana Device" });
    const laptop = browser(CHROME_MAC, "203.0.113.7");
    await signInWithForm(laptop, account.email);
    expect(newDeviceMails(account.email)).toEqual([]);
    const [first] = await db.select().from(schema.signInDevices).where(eq(schema.signInDevices.userId, account.id));
    expect(first).toMatchObject({ kind: "cookie", description: "Chrome on macOS", ip: "203.0.113.7" });
    expect(first!.deviceKey).not.toContain(laptop.deviceCookie!.split("=")[1]!.slice(0, 20));

    // The same browser from another network (its cookie is what counts): no e-mail.
    laptop.ip = "198.51.100.20";
    await signInWithForm(laptop, account.email);
    expect(newDeviceMails(account.email)).toEqual([]);

    // A browser the account has never used: one e-mail naming the device and the address.
    const phone = browser(SAFARI_IPHONE, "::ffff:192.0.2.44");
    await signInWithForm(phone, account.email);
    const mails = newDeviceMails(account.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain("Hi Dana Device,");
    expect(mails[0]!.text).toContain("Device: Safari on iOS");
    expect(mails[0]!.text).toContain("Address: 192.0.2.44");
    expect(mails[0]!.text).toMatch(/When: \w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M UTC/);
    expect(mails[0]!.links.some((l) => l.endsWith("/dashboard/account"))).toBe(true);

    // That phone is now known; a cookie that does not verify (a forged id) is a new browser.
    await signInWithForm(phone, account.email);
    expect(newDeviceMails(account.email)).toHaveLength(1);
    const forged = browser(SAFARI_IPHONE, "192.0.2.44");
    forged.deviceCookie = "__device=forged-device-id-0123456789abcdef";
    await signInWithForm(forged, account.email);
    expect(newDeviceMails(account.email)).toHaveLength(2);
    expect(forged.deviceCookie).not.toContain("forged");
  });

  test("the first password (after checkout or an invitation) signs in quietly; a later sign-in elsewhere is e-mailed", async () => {
    const user = await createTestUser({ name: "Nina New" });
    const token = await issuePasswordToken(user.id, "set");
    const checkout = browser(CHROME_MAC, "203.0.113.50");
    const set = await callRoute(
      resetPasswordAction,
      formRequest("/reset-password", { token, password: PASSWORD, confirmPassword: PASSWORD }, browserHeaders(checkout)),
      {
        context: loadContext(checkout.ip),
      },
    );
    expect(set.location).toBe("/dashboard");
    keepDeviceCookie(checkout, set.headers);
    await settleBackgroundTasks();
    expect(newDeviceMails(user.email)).toEqual([]);
    await signInWithForm(checkout, user.email);
    expect(newDeviceMails(user.email)).toEqual([]);
    await signInWithForm(browser(FIREFOX_WINDOWS, "198.51.100.9"), user.email);
    expect(newDeviceMails(user.email).map((m) => m.text.match(/Device: .*/)?.[0])).toEqual(["Device: Firefox on Windows"]);
  });

  test("API clients count by user agent and address; the second step of two-factor and a magic link are sign-ins too", async () => {
    const account = await createAccount({ password: PASSWORD });
    await signInWithForm(browser(CHROME_MAC, "203.0.113.7"), account.email);
    const apiLogin = (ua: string, ip: string) =>
      callRoute(loginApiAction, jsonRequest("/api/auth/login", { email: account.email, password: PASSWORD }, { "User-Agent": ua }), {
        context: loadContext(ip),
      });

    expect((await apiLogin("curl/8.5.0", "198.51.100.1")).status).toBe(200);
    await settleBackgroundTasks();
    expect(newDeviceMails(account.email).map((m) => m.text.match(/Device: .*/)?.[0])).toEqual(["Device: API sign-in (curl)"]);
    await apiLogin("curl/8.5.0", "198.51.100.1");
    await settleBackgroundTasks();
    expect(newDeviceMails(account.email)).toHaveLength(1);
    await apiLogin("curl/8.5.0", "198.51.100.2");
    await settleBackgroundTasks();
    expect(newDeviceMails(account.email)).toHaveLength(2);

    // Two-factor on: the password alone is no sign-in (no e-mail); the code completes it.
    const { secret } = await startTwoFactorSetup(account.user);
    const { recoveryCodes } = await confirmTwoFactorSetup(account.id, (await generateTOTP({ secret, period: TOTP_PERIOD, digits: 6, algorithm: "SHA-1" })).otp);
    const tablet = browser(FIREFOX_WINDOWS, "192.0.2.80");
    const first = await callRoute(loginPageAction, formRequest("/login", { email: account.email, password: PASSWORD }, browserHeaders(tablet)), {
      context: loadContext(tablet.ip),
    });
    expect(first.data.secondFactor.challenge).toEqual(expect.any(String));
    await settleBackgroundTasks();
    expect(newDeviceMails(account.email)).toHaveLength(2);
    const second = await callRoute(
      loginPageAction,
      formRequest("/login", { intent: "second-factor", challenge: first.data.secondFactor.challenge, code: recoveryCodes[0]! }, browserHeaders(tablet)),
      { context: loadContext(tablet.ip) },
    );
    expect(second.status).toBe(302);
    keepDeviceCookie(tablet, second.headers);
    await settleBackgroundTasks();
    expect(newDeviceMails(account.email).at(-1)!.text).toContain("Device: Firefox on Windows");
    expect(newDeviceMails(account.email)).toHaveLength(3);

    // The API's second step: a new client (another user agent) is e-mailed once the code is right.
    const challenge = await callRoute(
      loginApiAction,
      jsonRequest("/api/auth/login", { email: account.email, password: PASSWORD }, { "User-Agent": "python-requests/2.32" }),
      { context: loadContext("198.51.100.3") },
    );
    const { data: step } = (await challenge.response.json()) as { data: { challenge: string } };
    const done = await callRoute(
      secondStepApiAction,
      jsonRequest("/api/auth/2fa", { challenge: step.challenge, code: recoveryCodes[1]! }, { "User-Agent": "python-requests/2.32" }),
      { context: loadContext("198.51.100.3") },
    );
    expect(done.status).toBe(200);
    await settleBackgroundTasks();
    expect(newDeviceMails(account.email).at(-1)!.text).toContain("Device: API sign-in (API client)");
    expect(newDeviceMails(account.email)).toHaveLength(4);
  });

  test("a magic link from a new browser is e-mailed; one from a known browser is not", async () => {
    const account = await createAccount({ password: PASSWORD });
    const laptop = browser(CHROME_MAC, "203.0.113.7");
    await signInWithForm(laptop, account.email);
    const useLink = async (b: Browser) => {
      await magicApiAction({ request: jsonRequest("/api/auth/magic-link", { email: account.email }), params: {}, context: loadContext() });
      await settleBackgroundTasks();
      const mail = await waitForOutboxEmail(account.email, (m) => m.subject === "Your BrandLift sign-in link");
      const token = new URL(mail.links.find((l) => l.includes("/login/magic?token="))!).searchParams.get("token")!;
      const used = await callRoute(magicPageAction, formRequest("/login/magic", { token }, browserHeaders(b)), { context: loadContext(b.ip) });
      expect(used.status).toBe(302);
      keepDeviceCookie(b, used.headers);
      await settleBackgroundTasks();
    };
    await useLink(laptop);
    expect(newDeviceMails(account.email)).toEqual([]);
    await useLink(browser(SAFARI_IPHONE, "192.0.2.9"));
    expect(newDeviceMails(account.email)).toHaveLength(1);
  });

  test("a passkey sign-in, in the browser and through the API, is noted like any other", async () => {
    const account = await createAccount({ password: PASSWORD });
    const laptop = browser(CHROME_MAC, "203.0.113.7");
    await signInWithForm(laptop, account.email);
    const authenticator = softPasskey(env.appUrl);
    await addPasskey(account.id, authenticator.register(await registrationOptions(account.user)), "Phone", null);
    const withPasskey = async (b: Browser) => {
      const credential = authenticator.signIn(await authenticationOptions());
      const result = await callRoute(loginPageAction, formRequest("/login", { intent: "passkey", credential: JSON.stringify(credential) }, browserHeaders(b)), {
        context: loadContext(b.ip),
      });
      expect(result.status).toBe(302);
      keepDeviceCookie(b, result.headers);
      await settleBackgroundTasks();
    };
    await withPasskey(laptop);
    expect(newDeviceMails(account.email)).toEqual([]);
    await withPasskey(browser(SAFARI_IPHONE, "192.0.2.12"));
    expect(newDeviceMails(account.email).map((m) => m.text.match(/Device: .*/)?.[0])).toEqual(["Device: Safari on iOS"]);

    const api = await callRoute(
      passkeyApiAction,
      jsonRequest("/api/auth/passkey", { credential: authenticator.signIn(await authenticationOptions()) }, { "User-Agent": "okhttp/4.12.0" }),
      { context: loadContext("198.51.100.30") },
    );
    expect(api.status).toBe(200);
    await settleBackgroundTasks();
    expect(newDeviceMails(account.email).at(-1)!.text).toContain("Device: API sign-in (API client)");
    expect(newDeviceMails(account.email)).toHaveLength(2);
  });

  test("an e-mail that cannot be sent does not fail the sign-in", async () => {
    const account = await createAccount({ password: PASSWORD });
    await signInWithForm(browser(CHROME_MAC, "203.0.113.7"), account.email);
    const outbox = env.outboxDir;
    env.outboxDir = "/dev/null/outbox";
    try {
      const result = await signInWithForm(browser(FIREFOX_WINDOWS, "198.51.100.77"), account.email);
      expect(result.location).toBe("/dashboard");
      expect(result.headers.getSetCookie().some((c) => c.startsWith("__session="))).toBe(true);
    } finally {
      env.outboxDir = outbox;
    }
    expect(newDeviceMails(account.email)).toEqual([]);
    // The e-mail is kept, waiting for its next try, not dropped.
    const stored = await db.select().from(schema.emails).where(eq(schema.emails.userId, account.id));
    expect(stored.filter((row) => row.state === "retrying").map((row) => row.lastError)).toEqual([expect.stringContaining("/dev/null/outbox")]);
    // The device was still recorded: the same browser next time is quiet.
    expect(await db.select().from(schema.signInDevices).where(eq(schema.signInDevices.userId, account.id))).toHaveLength(2);
  });
});
