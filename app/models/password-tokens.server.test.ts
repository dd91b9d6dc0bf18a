import { eq } from "drizzle-orm";
import { afterEach, describe, expect, test, vi } from "vitest";

import { db, schema } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { hashToken } from "~/utils/tokens.server";

import { passwordLinkIn } from "../../tests/fakes/email-links";
import { createTestUser, uniqueEmail } from "../../tests/integration/authorization/helpers";
import { readOutbox, waitForOutboxEmail } from "../../tests/support/outbox";
import {
  checkPasswordToken,
  issuePasswordToken,
  PASSWORD_TOKEN_TTL_MS,
  requestPasswordReset,
  resetPasswordWithToken,
  sendSetPasswordEmail,
  TOKEN_FAILURES,
} from "./password-tokens.server";
import { createSession, getSessionUser } from "./sessions.server";
import { verifyLogin } from "./users.server";

const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;

afterEach(() => {
  vi.useRealTimers();
});

describe("password tokens", () => {
  test("a reset token is 256 random bits, URL-safe, stored only as its SHA-256, valid for one hour", async () => {
    const user = await createTestUser();
    const before = Date.now();
    const token = await issuePasswordToken(user.id, "reset");
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    const rows = await db.select().from(schema.passwordTokens).where(eq(schema.passwordTokens.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0].tokenHash).toBe(hashToken(token));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0].expiresAt.getTime() - before).toBeGreaterThanOrEqual(60 * 60 * 1000 - 1000);
    expect(rows[0].expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(60 * 60 * 1000);
  });

  test("a first-password link (the purchase e-mail's) lasts seven days; a reset link still one hour", async () => {
    const buyer = await createTestUser();
    const link = await issuePasswordToken(buyer.id, "set");
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 7 * 24 * 60 * 60 * 1000 - 60_000 });
    expect(await checkPasswordToken(link)).toBeNull();
    vi.setSystemTime(Date.now() + 2 * 60_000);
    expect(await checkPasswordToken(link)).toBe("expired");
    vi.useRealTimers();
    const reset = await issuePasswordToken(buyer.id, "reset");
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 60 * 60 * 1000 + 60_000 });
    expect(await checkPasswordToken(reset)).toBe("expired");
  });

  test("a first password sends no 'your password was changed' alarm; a later reset does", async () => {
    const buyer = await createTestUser();
    const first = await resetPasswordWithToken(await issuePasswordToken(buyer.id, "set"), "my first password");
    expect(first).toMatchObject({ ok: true, firstPassword: true });
    const again = await resetPasswordWithToken(await issuePasswordToken(buyer.id, "reset"), "my second password");
    expect(again).toMatchObject({ ok: true, firstPassword: false });
    // Each call returns once its e-mail is written: the outbox is complete here.
    const subjects = readOutbox(buyer.email).map((e) => e.subject);
    expect(subjects.filter((subject) => subject === "Your BrandLift password was changed")).toHaveLength(1);
  });

  test("a reset token works once", async () => {
    const user = await createTestUser({ password: "old password" });
    const token = await issuePasswordToken(user.id, "reset");
    expect(await resetPasswordWithToken(token, "new password 1")).toMatchObject({ ok: true });
    expect((await verifyLogin(user.email, "new password 1"))?.id).toBe(user.id);
    expect(await verifyLogin(user.email, "old password")).toBeNull();
    expect(await resetPasswordWithToken(token, "new password 2")).toEqual({ ok: false, failure: "used", message: TOKEN_FAILURES.used });
    expect(await verifyLogin(user.email, "new password 2")).toBeNull();
  });

  test("two uses at the same moment: exactly one succeeds", async () => {
    const user = await createTestUser();
    const token = await issuePasswordToken(user.id, "reset");
    const results = await Promise.all([resetPasswordWithToken(token, "password one"), resetPasswordWithToken(token, "password two")]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
  });

  test("a token works just before its hour is up and not after", async () => {
    const user = await createTestUser();
    const early = await issuePasswordToken(user.id, "reset");
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + PASSWORD_TOKEN_TTL_MS.reset - 60_000 });
    expect(await checkPasswordToken(early)).toBeNull();
    vi.setSystemTime(Date.now() + 2 * 60_000);
    expect(await checkPasswordToken(early)).toBe("expired");
    expect(await resetPasswordWithToken(early, "too late password")).toEqual({ ok: false, failure: "expired", message: TOKEN_FAILURES.expired });
    expect(await verifyLogin(user.email, "too late password")).toBeNull();
  });

  test("a newer link replaces an older unused one, and another reset spends every outstanding link", async () => {
    const user = await createTestUser();
    const first = await issuePasswordToken(user.id, "reset");
    const second = await issuePasswordToken(user.id, "reset");
    expect(await checkPasswordToken(first)).toBe("used");
    expect(await resetPasswordWithToken(first, "first password")).toMatchObject({ ok: false, failure: "used" });
    expect(await resetPasswordWithToken(second, "second password")).toMatchObject({ ok: true });
    expect(await resetPasswordWithToken(second, "third password")).toMatchObject({ ok: false, failure: "used" });
  });

  test("a made-up token is refused without touching any account", async () => {
    expect(await resetPasswordWithToken("made-up", "whatever password")).toEqual({ ok: false, failure: "invalid", message: TOKEN_FAILURES.invalid });
  });

  test("a reset ends every session and API token of the account, and e-mails that the password changed", async () => {
    const user = await createTestUser({ password: "old password" });
    const other = await createTestUser();
    const cookie = await createSession(user.id, "cookie");
    const bearer = await createSession(user.id, "bearer");
    const bystander = await createSession(other.id, "bearer");
    expect(await getSessionUser(cookie.token, "cookie")).not.toBeNull();

    const token = await issuePasswordToken(user.id, "reset");
    expect(await resetPasswordWithToken(token, "brand new password")).toMatchObject({ ok: true });

    expect(await getSessionUser(cookie.token, "cookie")).toBeNull();
    expect(await getSessionUser(bearer.token, "bearer")).toBeNull();
    expect(await getSessionUser(bystander.token, "bearer")).not.toBeNull();
    const notice = await waitForOutboxEmail(user.email, (e) => e.subject === "Your BrandLift password was changed");
    expect(notice.text).toContain("every device that was signed in has been signed out");
    expect(notice.html).toContain("<h1");
  });

  test("forgot password e-mails a working reset link to an existing account, and nothing for an unknown e-mail", async () => {
    const user = await createTestUser({ password: "old password" });
    await requestPasswordReset(user.email.toUpperCase());
    const email = await waitForOutboxEmail(user.email, (e) => e.subject === "Reset your BrandLift password");
    const link = passwordLinkIn(email.raw);
    expect(link.startsWith(`${env.appUrl}/reset-password?token=`)).toBe(true);
    expect(email.html).toContain(link.replace(/&/g, "&amp;"));
    expect(await resetPasswordWithToken(tokenOf(link), "from the e-mail")).toMatchObject({ ok: true });
    expect((await verifyLogin(user.email, "from the e-mail"))?.id).toBe(user.id);

    const nobody = uniqueEmail("nobody");
    await requestPasswordReset(nobody);
    // The call resolves once its e-mail is written: for an account, the same call leaves one at once.
    const known = await createTestUser();
    await requestPasswordReset(known.email);
    expect(readOutbox(known.email)).toHaveLength(1);
    expect(readOutbox(nobody)).toEqual([]);
  });

  test("sendSetPasswordEmail sends a 'set your password' link that lets a new account choose a password", async () => {
    const user = await createTestUser();
    const link = await sendSetPasswordEmail(user);
    const email = await waitForOutboxEmail(user.email, (e) => e.subject === "Set your BrandLift password");
    expect(email.text).toContain("Set your password");
    expect(passwordLinkIn(email.raw)).toBe(link);
    const [row] = await db
      .select()
      .from(schema.passwordTokens)
      .where(eq(schema.passwordTokens.tokenHash, hashToken(tokenOf(link))));
    expect(row.purpose).toBe("set");
    expect(await resetPasswordWithToken(tokenOf(link), "my first password")).toMatchObject({ ok: true });
    expect((await verifyLogin(user.email, "my first password"))?.id).toBe(user.id);
  });
});
