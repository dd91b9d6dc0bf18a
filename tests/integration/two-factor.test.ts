import { generateTOTP } from "@epic-web/totp";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, test, vi } from "vitest";

import { confirmTwoFactorSetup, startTwoFactorSetup, TOTP_PERIOD, verifyTwoFactorCode } from "~/models/two-factor.server";
import { action as loginPageAction } from "~/routes/_auth+/login";
import { action as twoFactorAction } from "~/routes/api+/account+/2fa";
import { action as verifyAction } from "~/routes/api+/account+/2fa.verify";
import { action as secondStepAction } from "~/routes/api+/auth+/2fa";
import { action as loginApiAction } from "~/routes/api+/auth+/login";
import { loader as usersLoader } from "~/routes/api+/users+/_layout";
import { loader as dashboardLoader } from "~/routes/dashboard+/_layout";
import { loader as ordersPageLoader } from "~/routes/dashboard+/_staff+/orders+/_index";
import { action as securityAction, loader as securityLoader } from "~/routes/dashboard+/security";
import { db, schema } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { resolveIdentity } from "~/web/auth.server";

import { callRoute } from "../support/call-route";
import { createAccount } from "../support/factories";
import { formRequest, jsonRequest } from "../support/requests";
import { loadContext, nextIp } from "./authorization/helpers";

const PASSWORD = "two factor password";
type Handler = typeof loginApiAction;
const call = (handler: Handler, request: Request, clientIp = nextIp()) => handler({ request, params: {}, context: loadContext(clientIp) });
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const codeFor = async (secret: string, at = Date.now()) => {
  const now = vi.isFakeTimers() ? Date.now() : null;
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(at);
  const { otp } = await generateTOTP({ secret, period: TOTP_PERIOD, digits: 6, algorithm: "SHA-1" });
  if (now === null) vi.useRealTimers();
  else vi.setSystemTime(now);
  return otp;
};

/** An account with a password and two-factor on; its secret and recovery codes. */
async function withTwoFactor(role: "user" | "team" = "user") {
  const account = await createAccount({ password: PASSWORD, role });
  const { secret } = await startTwoFactorSetup(account.user);
  const { recoveryCodes } = await confirmTwoFactorSetup(account.id, await codeFor(secret, Date.now() - TOTP_PERIOD * 1000));
  return { ...account, secret, recoveryCodes };
}

afterEach(() => {
  vi.useRealTimers();
  env.teamTwoFactor = "optional";
});

describe("TOTP with a fixed clock", () => {
  test("a code is taken for its own step and one either side, and never twice", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const t0 = Date.UTC(2026, 10, 26, 12, 0, 0);
    vi.setSystemTime(t0);
    const account = await createAccount({ password: PASSWORD });
    const { secret } = await startTwoFactorSetup(account.user);
    await confirmTwoFactorSetup(account.id, await codeFor(secret, t0));
    // The same code again, within its window: refused (replay).
    expect(await verifyTwoFactorCode(account.id, await codeFor(secret, t0))).toBe(false);
    // The next step's code, 30 s later: taken once.
    vi.setSystemTime(t0 + 30_000);
    const next = await codeFor(secret, t0 + 30_000);
    expect(await verifyTwoFactorCode(account.id, next)).toBe(true);
    expect(await verifyTwoFactorCode(account.id, next)).toBe(false);
    // A code from two steps ago is outside the window; an older step than the last taken is refused too.
    vi.setSystemTime(t0 + 120_000);
    expect(await verifyTwoFactorCode(account.id, await codeFor(secret, t0 + 30_000))).toBe(false);
    // One step behind the clock (a phone a little slow) is fine.
    expect(await verifyTwoFactorCode(account.id, await codeFor(secret, t0 + 90_000))).toBe(true);
  });

  test("recovery codes: ten, stored hashed, each works once, in any case and with or without the dash", async () => {
    const { id, recoveryCodes } = await withTwoFactor();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const stored = await db.select().from(schema.recoveryCodes).where(eq(schema.recoveryCodes.userId, id));
    expect(stored).toHaveLength(10);
    for (const code of recoveryCodes) expect(stored.some((row) => row.codeHash.includes(code.replace("-", "")))).toBe(false);
    expect(await verifyTwoFactorCode(id, recoveryCodes[0]!.toUpperCase().replace("-", " "))).toBe(true);
    expect(await verifyTwoFactorCode(id, recoveryCodes[0]!)).toBe(false);
  });
});

describe("the JSON API", () => {
  test("set up: a pending secret, turned on by a first code, with ten recovery codes", async () => {
    const account = await createAccount({ password: PASSWORD });
    const started = await call(twoFactorAction, jsonRequest("/api/account/2fa", {}, bearer(account.bearer)));
    expect(started.status).toBe(200);
    const { data } = await started.json();
    expect(data.otpauthUrl).toMatch(/^otpauth:\/\/totp\/BrandLift:.+\?.*secret=/);
    expect(data.otpauthUrl).toContain(`secret=${data.secret}`);
    // Not active yet: signing in still gives a token.
    const before = await (await call(loginApiAction, jsonRequest("/api/auth/login", { email: account.email, password: PASSWORD }))).json();
    expect(before.data.token).toBeTruthy();

    const wrong = await call(verifyAction, jsonRequest("/api/account/2fa/verify", { code: "000000" }, bearer(account.bearer)));
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).code).toBe("INVALID_CODE");
    const verified = await call(verifyAction, jsonRequest("/api/account/2fa/verify", { code: await codeFor(data.secret) }, bearer(account.bearer)));
    expect(verified.status).toBe(200);
    const body = await verified.json();
    expect(body).toEqual({ status: "success", data: { recoveryCodes: expect.arrayContaining([expect.stringMatching(/^\w{5}-\w{5}$/)]) } });
    expect(body.data.recoveryCodes).toHaveLength(10);
    // Twice: 409.
    expect((await call(twoFactorAction, jsonRequest("/api/account/2fa", {}, bearer(account.bearer)))).status).toBe(409);
  });

  test("login asks for a code; /api/auth/2fa answers the login body; the challenge is single use", async () => {
    const account = await withTwoFactor();
    const first = await call(loginApiAction, jsonRequest("/api/auth/login", { email: account.email, password: PASSWORD }));
    expect(first.status).toBe(200);
    const firstBody = await first.json();
    expect(firstBody).toEqual({ status: "success", data: { twoFactorRequired: true, challenge: expect.any(String), methods: ["totp"] } });
    expect(JSON.stringify(firstBody)).not.toContain("token");

    const wrong = await call(secondStepAction, jsonRequest("/api/auth/2fa", { challenge: firstBody.data.challenge, code: "123456" }));
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).code).toBe("INVALID_CODE");
    const right = await call(secondStepAction, jsonRequest("/api/auth/2fa", { challenge: firstBody.data.challenge, code: await codeFor(account.secret) }));
    expect(right.status).toBe(200);
    const signedIn = await right.json();
    expect(signedIn).toEqual({
      status: "success",
      message: "Logged in successfully!",
      data: { token: expect.any(String), user: { _id: account.id, id: account.id, name: account.name, email: account.email, role: "user" } },
    });
    expect(await resolveIdentity(signedIn.data.token, null)).toMatchObject({ user: { id: account.id } });
    // The challenge is spent.
    const again = await call(secondStepAction, jsonRequest("/api/auth/2fa", { challenge: firstBody.data.challenge, code: account.recoveryCodes[0] }));
    expect(again.status).toBe(400);
    expect((await again.json()).code).toBe("CHALLENGE_EXPIRED");
  });

  test("the code just used cannot sign in again (reuse within its window), a recovery code can, once", async () => {
    const account = await withTwoFactor();
    const challenge = async () =>
      (await (await call(loginApiAction, jsonRequest("/api/auth/login", { email: account.email, password: PASSWORD }))).json()).data.challenge as string;
    const code = await codeFor(account.secret);
    expect((await call(secondStepAction, jsonRequest("/api/auth/2fa", { challenge: await challenge(), code }))).status).toBe(200);
    expect((await call(secondStepAction, jsonRequest("/api/auth/2fa", { challenge: await challenge(), code }))).status).toBe(401);
    const recovery = account.recoveryCodes[3]!;
    expect((await call(secondStepAction, jsonRequest("/api/auth/2fa", { challenge: await challenge(), code: recovery }))).status).toBe(200);
    expect((await call(secondStepAction, jsonRequest("/api/auth/2fa", { challenge: await challenge(), code: recovery }))).status).toBe(401);
  });

  test("a challenge takes five codes, and lasts five minutes", async () => {
    const account = await withTwoFactor();
    const login = async () =>
      (await (await call(loginApiAction, jsonRequest("/api/auth/login", { email: account.email, password: PASSWORD }))).json()).data.challenge as string;
    const tries = await login();
    for (let i = 0; i < 5; i++) expect((await call(secondStepAction, jsonRequest("/api/auth/2fa", { challenge: tries, code: "000000" }))).status).toBe(401);
    const sixth = await call(secondStepAction, jsonRequest("/api/auth/2fa", { challenge: tries, code: await codeFor(account.secret) }));
    expect(sixth.status).toBe(400);
    expect((await sixth.json()).message).toMatch(/expired or had too many wrong codes/);

    const late = await login();
    const [row] = await db.select().from(schema.signInChallenges).where(eq(schema.signInChallenges.userId, account.id));
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBeGreaterThan(4.9 * 60_000);
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBeLessThanOrEqual(5 * 60_000 + 1000);
    await db
      .update(schema.signInChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.signInChallenges.userId, account.id));
    expect((await call(secondStepAction, jsonRequest("/api/auth/2fa", { challenge: late, code: await codeFor(account.secret) }))).status).toBe(400);
  });

  test("a browser challenge does not work through the API", async () => {
    const account = await withTwoFactor();
    const page = await callRoute(loginPageAction, formRequest("/login", { email: account.email, password: PASSWORD }));
    const challenge = page.data.secondFactor.challenge as string;
    const answer = await call(secondStepAction, jsonRequest("/api/auth/2fa", { challenge, code: await codeFor(account.secret) }));
    expect(answer.status).toBe(400);
  });

  test("wrong codes are limited per account (whatever the address) and per address", async () => {
    const account = await withTwoFactor();
    const login = async () =>
      (await (await call(loginApiAction, jsonRequest("/api/auth/login", { email: account.email, password: PASSWORD }))).json()).data.challenge as string;
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const challenge = await login();
      for (let j = 0; j < 4; j++) statuses.push((await call(secondStepAction, jsonRequest("/api/auth/2fa", { challenge, code: "000000" }))).status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
    const limited = await call(secondStepAction, jsonRequest("/api/auth/2fa", { challenge: await login(), code: "000000" }));
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toMatch(/^\d+$/);

    // Per address: one address guessing at many accounts.
    const ip = nextIp();
    const others = [];
    for (let i = 0; i < 8; i++) others.push(await withTwoFactor());
    const seen: number[] = [];
    for (const other of others) {
      const body = await (await call(loginApiAction, jsonRequest("/api/auth/login", { email: other.email, password: PASSWORD }))).json();
      for (let j = 0; j < 4; j++)
        seen.push((await call(secondStepAction, jsonRequest("/api/auth/2fa", { challenge: body.data.challenge, code: "000000" }), ip)).status);
    }
    expect(seen.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(seen.slice(30).every((s) => s === 429)).toBe(true);
  });

  test("turning it off needs a code", async () => {
    const account = await withTwoFactor();
    const remove = (body: unknown) => call(twoFactorAction, jsonRequest("/api/account/2fa", body, bearer(account.bearer), "DELETE"));
    expect((await remove({})).status).toBe(400);
    expect((await remove({ code: "000000" })).status).toBe(400);
    const off = await remove({ code: account.recoveryCodes[0] });
    expect(off.status).toBe(200);
    expect(await off.json()).toEqual({ status: "success" });
    const login = await (await call(loginApiAction, jsonRequest("/api/auth/login", { email: account.email, password: PASSWORD }))).json();
    expect(login.data.token).toBeTruthy();
    expect(await db.select().from(schema.recoveryCodes).where(eq(schema.recoveryCodes.userId, account.id))).toEqual([]);
    expect((await remove({ code: "123456" })).status).toBe(409);
  });
});

describe("the sign-in form", () => {
  test("asks for the code on a second step, then signs in with a cookie", async () => {
    const account = await withTwoFactor();
    const first = await callRoute(loginPageAction, formRequest("/login", { email: account.email, password: PASSWORD, redirectTo: "/dashboard/reports" }));
    expect(first.status).toBe(200);
    expect(first.headers.get("Set-Cookie") ?? "").not.toContain("__session=");
    const { challenge, redirectTo } = first.data.secondFactor;
    expect(redirectTo).toBe("/dashboard/reports");
    const wrong = await callRoute(loginPageAction, formRequest("/login", { intent: "second-factor", challenge, code: "999999", redirectTo }));
    expect(wrong.status).toBe(401);
    expect(wrong.data.result.error.code).toEqual([expect.stringMatching(/not right/)]);
    expect(wrong.data.result.initialValue).not.toHaveProperty("code");
    const right = await callRoute(
      loginPageAction,
      formRequest("/login", { intent: "second-factor", challenge, code: await codeFor(account.secret), redirectTo }),
    );
    expect(right.status).toBe(302);
    expect(right.location).toBe("/dashboard/reports");
    expect(right.headers.get("Set-Cookie")).toContain("__session=");
  });

  test("a spent challenge goes back to the password step with the reason", async () => {
    const expired = await callRoute(loginPageAction, formRequest("/login", { intent: "second-factor", challenge: "made-up", code: "123456" }));
    expect(expired.status).toBe(400);
    expect(expired.data.result.error[""][0]).toMatch(/sign in again/);
  });

  test("the security page sets it up, shows the recovery codes once, makes new ones, and turns it off with a code", async () => {
    const account = await createAccount({ password: PASSWORD });
    const headers = { Cookie: account.cookie };
    const started = await callRoute(securityAction, formRequest("/dashboard/security", { intent: "start-2fa" }, headers));
    expect(started.status).toBe(302);
    const page = await callRoute(securityLoader, new Request("http://localhost/dashboard/security", { headers }));
    expect(page.data.setup.qrSvg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    const verified = await callRoute(
      securityAction,
      formRequest("/dashboard/security", { intent: "verify-2fa", code: await codeFor(page.data.setup.secret) }, headers),
    );
    expect(verified.status).toBe(200);
    expect(verified.data.recoveryCodes).toHaveLength(10);
    const after = await callRoute(securityLoader, new Request("http://localhost/dashboard/security", { headers }));
    expect(after.data).toMatchObject({ setup: null, twoFactor: { enabled: true, recoveryCodesLeft: 10 } });
    expect(JSON.stringify(after.data)).not.toContain(verified.data.recoveryCodes[0]);
    const noCode = await callRoute(securityAction, formRequest("/dashboard/security", { intent: "disable-2fa", code: "" }, headers));
    expect(noCode.status).toBe(400);
    expect(noCode.data).toMatchObject({ intent: "disable-2fa", result: { error: { code: [expect.stringMatching(/6-digit code/)] } } });
    // New recovery codes with a code: shown once, the old ones spent; a wrong code changes nothing.
    const wrong = await callRoute(securityAction, formRequest("/dashboard/security", { intent: "new-recovery-codes", code: "000000" }, headers));
    expect(wrong.status).toBe(400);
    expect(wrong.data.result.error[""]).toEqual([expect.stringMatching(/not right/)]);
    expect(wrong.data.result.initialValue).not.toHaveProperty("code");
    const renewed = await callRoute(
      securityAction,
      formRequest("/dashboard/security", { intent: "new-recovery-codes", code: verified.data.recoveryCodes[0] }, headers),
    );
    expect(renewed.status).toBe(200);
    expect(renewed.data.recoveryCodes).toHaveLength(10);
    const stale = await callRoute(securityAction, formRequest("/dashboard/security", { intent: "disable-2fa", code: verified.data.recoveryCodes[1] }, headers));
    expect(stale.status).toBe(400);
    const off = await callRoute(securityAction, formRequest("/dashboard/security", { intent: "disable-2fa", code: renewed.data.recoveryCodes[1] }, headers));
    expect(off.status).toBe(302);
  });
});

describe("TEAM_2FA=required", () => {
  test("a staff account without a second factor reaches only the set-up page and its calls, on every transport", async () => {
    env.teamTwoFactor = "required";
    const staff = await createAccount({ role: "team", password: PASSWORD });
    const customer = await createAccount({ role: "user" });
    // JSON API, bearer and cookie: a clear 403.
    for (const headers of [bearer(staff.bearer), { Cookie: staff.cookie }]) {
      const refused = await call(usersLoader, new Request("http://localhost/api/users", { headers }));
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ code: "SECOND_FACTOR_REQUIRED", message: expect.stringMatching(/requires two-factor/) });
    }
    // Pages and their .data requests (the same loaders): sent to the set-up page.
    const orders = await callRoute(ordersPageLoader, new Request("http://localhost/dashboard/orders", { headers: { Cookie: staff.cookie } }));
    expect(orders).toMatchObject({ status: 302, location: "/dashboard/security" });
    const layout = await callRoute(dashboardLoader, new Request("http://localhost/dashboard/security", { headers: { Cookie: staff.cookie } }));
    expect(layout.data).toMatchObject({ setupOnly: true });
    const page = await callRoute(securityLoader, new Request("http://localhost/dashboard/security", { headers: { Cookie: staff.cookie } }));
    expect(page.data.required).toBe(true);
    // Sockets: refused at the handshake (the identity says so).
    expect(await resolveIdentity(staff.bearer, null)).toMatchObject({ setupOnly: true });
    // Customers are not held.
    expect((await call(usersLoader, new Request("http://localhost/api/users", { headers: bearer(customer.bearer) }))).status).toBe(403);
    expect(await resolveIdentity(customer.bearer, null)).toMatchObject({ setupOnly: false });

    // Set up through the API it may use; then everything opens.
    const { data } = await (await call(twoFactorAction, jsonRequest("/api/account/2fa", {}, bearer(staff.bearer)))).json();
    expect((await call(verifyAction, jsonRequest("/api/account/2fa/verify", { code: await codeFor(data.secret) }, bearer(staff.bearer)))).status).toBe(200);
    expect((await call(usersLoader, new Request("http://localhost/api/users", { headers: bearer(staff.bearer) }))).status).toBe(200);
  });

  test("optional (the default) holds nobody", async () => {
    const staff = await createAccount({ role: "team" });
    expect((await call(usersLoader, new Request("http://localhost/api/users", { headers: bearer(staff.bearer) }))).status).toBe(200);
  });
});
