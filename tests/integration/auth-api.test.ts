import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";

import { issuePasswordToken } from "~/models/password-tokens.server";
import { action as forgotAction, loader as forgotLoader } from "~/routes/api+/auth+/forgot-password";
import { action as loginAction, loader as loginLoader } from "~/routes/api+/auth+/login";
import { action as logoutAction } from "~/routes/api+/auth+/logout";
import { action as resetAction } from "~/routes/api+/auth+/reset-password";
import { loader as usersLoader } from "~/routes/api+/users+/_layout";
import { pendingBackgroundTasks, settleBackgroundTasks } from "~/utils/background.server";
import { db, schema } from "~/utils/db.server";
import { limits } from "~/utils/rate-limit.server";
import { apiRoute } from "~/web/api.server";
import { getIdentity } from "~/web/auth.server";

import { passwordLinkIn } from "../fakes/email-links";
import { outboxFiles, waitForOutboxEmail } from "../support/outbox";
import { jsonRequest } from "../support/requests";
import { BASE_URL, createTestUser, loadContext, nextIp, sessionCookieFor, uniqueEmail } from "./authorization/helpers";

const PASSWORD = "api password 1";
type Handler = typeof loginAction;
const call = (handler: Handler, request: Request, clientIp = nextIp()) => handler({ request, params: {}, context: loadContext(clientIp) });
const login = (body: unknown, clientIp?: string) => call(loginAction, jsonRequest("/api/auth/login", body), clientIp);
const tokensOf = async (userId: string) => (await db.select().from(schema.passwordTokens).where(eq(schema.passwordTokens.userId, userId))).length;

/** A team-only API route, declared the way every /api route declares its guard. */
const teamOnly = apiRoute({ auth: "team" }, async ({ user }) => ({ success: true, data: { role: user.role } }));
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const get = (headers: Record<string, string>) => new Request(`${BASE_URL}/api/team-only`, { headers });

describe("POST /api/auth/login", () => {
  test("answers the contract's shape with a bearer token", async () => {
    const user = await createTestUser({ password: PASSWORD, name: "Api Person" });
    const response = await login({ email: user.email.toUpperCase(), password: PASSWORD });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toEqual({
      status: "success",
      message: "Logged in successfully!",
      data: { token: expect.stringMatching(/^[\w-]{43}$/), user: { _id: user.id, id: user.id, name: "Api Person", email: user.email, role: "user" } },
    });
    expect(response.headers.get("Set-Cookie")).toBeNull();
  });

  test("a wrong password and an unknown e-mail get the same status and message", async () => {
    const user = await createTestUser({ password: PASSWORD });
    const wrong = await login({ email: user.email, password: "not the password" });
    const unknown = await login({ email: uniqueEmail("nobody"), password: PASSWORD });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const [a, b] = [await wrong.json(), await unknown.json()];
    expect(a).toEqual(b);
    expect(a).toEqual({
      success: false,
      status: "error",
      message: "Invalid email or password.",
      error: "Invalid email or password.",
      code: "INVALID_CREDENTIALS",
    });
  });

  test("the eleventh failure in a minute for one address and e-mail is 429 with Retry-After, even with the right password", async () => {
    const user = await createTestUser({ password: PASSWORD });
    const ip = nextIp();
    for (let i = 0; i < 10; i++) expect((await login({ email: user.email, password: "wrong password" }, ip)).status).toBe(401);
    const eleventh = await login({ email: user.email.toUpperCase(), password: PASSWORD }, ip);
    expect(eleventh.status).toBe(429);
    expect(Number(eleventh.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(Number(eleventh.headers.get("Retry-After"))).toBeLessThanOrEqual(60);
    expect(await eleventh.json()).toMatchObject({
      status: "error",
      code: "RATE_LIMITED",
      message: expect.stringMatching(/^Too many attempts\. Please try again in (\d+ seconds?|1 minute)\.$/),
    });
  });

  test("successful sign-ins are not failures: eleven in a minute from one address all succeed", async () => {
    const user = await createTestUser({ password: PASSWORD });
    const ip = nextIp();
    for (let i = 0; i < 11; i++) expect((await login({ email: user.email, password: PASSWORD }, ip)).status).toBe(200);
  });

  test("one address: the 51st failure in ten minutes is 429, whatever the e-mails", async () => {
    const ip = nextIp();
    for (let i = 0; i < 50; i++) expect((await login({ email: uniqueEmail("spray"), password: "wrong password" }, ip)).status).toBe(401);
    const next = await login({ email: uniqueEmail("spray"), password: "wrong password" }, ip);
    expect(next.status).toBe(429);
    expect(Number(next.headers.get("Retry-After"))).toBeLessThanOrEqual(600);
    // Another address is not held back by this one.
    expect((await login({ email: uniqueEmail("elsewhere"), password: "x" })).status).toBe(401);
  });

  test("a stranger's failures from rotating addresses do not lock the owner out", async () => {
    const user = await createTestUser({ password: PASSWORD });
    for (let i = 0; i < 30; i++) expect((await login({ email: user.email, password: "wrong password" })).status).toBe(401);
    expect((await login({ email: user.email, password: PASSWORD })).status).toBe(200);
  });

  test("above 100 failures an hour the account refuses sign-in from anywhere", async () => {
    const user = await createTestUser({ password: PASSWORD });
    // 99 failures already counted from all over; the owner still gets in, and their success counts nothing.
    await limits.signInAccount.penalty(`email:${user.email}`, 99);
    expect((await login({ email: user.email, password: PASSWORD })).status).toBe(200);
    expect((await login({ email: user.email, password: "wrong password" })).status).toBe(401);
    const owner = await login({ email: user.email, password: PASSWORD });
    expect(owner.status).toBe(429);
    expect(Number(owner.headers.get("Retry-After"))).toBeGreaterThan(60);
  });

  test("invalid input is 400 with the spec's message; a malformed body is 400, never 500", async () => {
    const cases: [unknown, unknown][] = [
      [{ password: PASSWORD }, "Email is required"],
      [{ email: "", password: PASSWORD }, "Email is required"],
      [{ email: "not-an-email", password: PASSWORD }, "Invalid email address"],
      [{ email: uniqueEmail() }, "Password is required"],
      [{ email: uniqueEmail(), password: 42 }, "Password is required"],
      ["{not json", "The request body is not valid JSON."],
      [[1, 2], expect.stringContaining("expected object")],
    ];
    for (const [body, message] of cases) {
      const response = await login(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await response.json()).toMatchObject({ success: false, status: "error", message });
    }
  });

  test("GET is 405 in the JSON error shape", async () => {
    const response = loginLoader();
    expect(response.status).toBe(405);
    expect(await response.json()).toMatchObject({ code: "METHOD_NOT_ALLOWED" });
    expect((await forgotLoader()).status).toBe(405);
  });
});

describe("bearer tokens", () => {
  test("a token works until logout, then 401", async () => {
    const user = await createTestUser({ password: PASSWORD });
    const { data } = await (await login({ email: user.email, password: PASSWORD })).json();
    const identity = await getIdentity(get(bearer(data.token)));
    expect(identity).toMatchObject({ via: "bearer", user: { id: user.id } });

    const logout = await call(logoutAction, new Request(`${BASE_URL}/api/auth/logout`, { method: "POST", headers: bearer(data.token) }));
    expect(logout.status).toBe(200);
    expect(await logout.json()).toEqual({ status: "success", message: "Logged out successfully!" });

    expect(await getIdentity(get(bearer(data.token)))).toBeNull();
    const again = await call(logoutAction, new Request(`${BASE_URL}/api/auth/logout`, { method: "POST", headers: bearer(data.token) }));
    expect(again.status).toBe(401);
    expect(await again.json()).toMatchObject({ success: false, status: "error", code: "UNAUTHORIZED" });
  });

  test("a made-up token is 401, and so is a malformed header", async () => {
    for (const headers of [bearer("made-up-token"), { Authorization: "Bearer" }, { Authorization: "Basic abc" }]) {
      const response = await teamOnly({ request: get(headers), params: {}, context: loadContext() });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ status: "error", code: "UNAUTHORIZED" });
    }
  });

  test("a customer's token on a team route is 403; a team token passes", async () => {
    const customer = await createTestUser({ password: PASSWORD });
    const staff = await createTestUser({ role: "team", password: PASSWORD });
    const customerToken = (await (await login({ email: customer.email, password: PASSWORD })).json()).data.token;
    const staffToken = (await (await login({ email: staff.email, password: PASSWORD })).json()).data.token;

    const forbidden = await teamOnly({ request: get(bearer(customerToken)), params: {}, context: loadContext() });
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toMatchObject({ status: "error", code: "FORBIDDEN" });

    const allowed = await teamOnly({ request: get(bearer(staffToken)), params: {}, context: loadContext() });
    expect(allowed.status).toBe(200);
    expect(await allowed.json()).toEqual({ success: true, data: { role: "team" } });

    // The same through the product's staff-only list of users.
    const users = (token: string) =>
      usersLoader({ request: new Request(`${BASE_URL}/api/users`, { headers: bearer(token) }), params: {}, context: loadContext() });
    expect((await users(customerToken)).status).toBe(403);
    expect((await users(staffToken)).status).toBe(200);
  });

  // A cross-site logout is refused ahead of every route: tests/integration/forgery.test.ts.
  test("the browser's cookie works on the API too, and logs out", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    expect(await getIdentity(get({ Cookie: cookie }))).toMatchObject({ via: "cookie" });

    const sameSite = await call(logoutAction, new Request(`${BASE_URL}/api/auth/logout`, { method: "POST", headers: { Cookie: cookie, Origin: BASE_URL } }));
    expect(sameSite.status).toBe(200);
    expect(sameSite.headers.get("Set-Cookie")).toMatch(/__session=;.*Max-Age=0/i);
    expect(await getIdentity(get({ Cookie: cookie }))).toBeNull();
  });
});

describe("forgot and reset over the API", () => {
  test("forgot-password answers the same for an existing and an unknown e-mail, before looking either up", async () => {
    const user = await createTestUser({ password: PASSWORD });
    const answer = async (email: string) => {
      const response = await call(forgotAction, jsonRequest("/api/auth/forgot-password", { email }));
      return { status: response.status, headers: [...response.headers], body: await response.json(), pending: pendingBackgroundTasks() };
    };
    const known = await answer(user.email);
    // At the answer the account has not been looked up yet: no link issued, no e-mail written.
    expect(await tokensOf(user.id)).toBe(0);
    expect(outboxFiles(user.email)).toEqual([]);
    await settleBackgroundTasks();
    const unknown = await answer(uniqueEmail("nobody"));
    await settleBackgroundTasks();
    // Both paths answer identically, each with the same one piece of work still ahead.
    expect(known).toEqual(unknown);
    expect(known.pending).toBe(1);
    expect(known.body).toEqual({ status: "success", message: expect.stringContaining("If an account exists") });
    // After the answer the work is done: the account got its link.
    expect(await tokensOf(user.id)).toBe(1);
    expect(outboxFiles(user.email)).toHaveLength(1);
    const invalid = await call(forgotAction, jsonRequest("/api/auth/forgot-password", { email: "nope" }));
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ message: "Invalid email address" });
  });

  test("forgot-password: the sixth request in an hour for one e-mail is 429", async () => {
    const email = uniqueEmail("often");
    for (let i = 0; i < 5; i++) expect((await call(forgotAction, jsonRequest("/api/auth/forgot-password", { email }))).status).toBe(200);
    const sixth = await call(forgotAction, jsonRequest("/api/auth/forgot-password", { email: email.toUpperCase() }));
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers.get("Retry-After"))).toBeGreaterThan(60);
  });

  test("forgot-password: the 21st request in an hour from one address is 429, whatever the e-mails", async () => {
    const ip = nextIp();
    for (let i = 0; i < 20; i++)
      expect((await call(forgotAction, jsonRequest("/api/auth/forgot-password", { email: uniqueEmail("many") }), ip)).status).toBe(200);
    const next = await call(forgotAction, jsonRequest("/api/auth/forgot-password", { email: uniqueEmail("many") }), ip);
    expect(next.status).toBe(429);
    expect(Number(next.headers.get("Retry-After"))).toBeGreaterThan(60);
    await settleBackgroundTasks();
  });

  test("the e-mailed token resets the password once; a bad or spent token is 400", async () => {
    const user = await createTestUser({ password: PASSWORD });
    const { data } = await (await login({ email: user.email, password: PASSWORD })).json();
    await call(forgotAction, jsonRequest("/api/auth/forgot-password", { email: user.email }));
    const token = new URL(passwordLinkIn((await waitForOutboxEmail(user.email, (e) => e.subject.startsWith("Reset"))).raw)).searchParams.get("token")!;

    const short = await call(resetAction, jsonRequest("/api/auth/reset-password", { token, password: "short" }));
    expect(short.status).toBe(400);
    expect(await short.json()).toMatchObject({ message: "Password must be at least 8 characters" });
    const missing = await call(resetAction, jsonRequest("/api/auth/reset-password", { token }));
    expect(await missing.json()).toMatchObject({ message: "Password is required" });

    const ok = await call(resetAction, jsonRequest("/api/auth/reset-password", { token, password: "a fresh password" }));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ status: "success", message: "Password reset successfully. You can now log in with your new password." });
    expect(await getIdentity(get(bearer(data.token)))).toBeNull();
    expect((await login({ email: user.email, password: "a fresh password" })).status).toBe(200);

    const spent = await call(resetAction, jsonRequest("/api/auth/reset-password", { token, password: "yet another one" }));
    expect(spent.status).toBe(400);
    expect(await spent.json()).toMatchObject({ status: "error", code: "TOKEN_USED", message: expect.stringContaining("already been used") });
    const madeUp = await call(resetAction, jsonRequest("/api/auth/reset-password", { token: "made-up", password: "yet another one" }));
    expect(madeUp.status).toBe(400);
    expect(await madeUp.json()).toMatchObject({ code: "TOKEN_INVALID" });
  });

  test("a set-password token from a new account works through the same call", async () => {
    const user = await createTestUser();
    const token = await issuePasswordToken(user.id, "set");
    const ok = await call(resetAction, jsonRequest("/api/auth/reset-password", { token, password: "first password" }));
    expect(ok.status).toBe(200);
    expect((await login({ email: user.email, password: "first password" })).status).toBe(200);
  });

  test("the honeypot refuses a bot's submission", async () => {
    const response = await call(forgotAction, jsonRequest("/api/auth/forgot-password", { email: uniqueEmail(), website: "http://spam.example" }));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "HONEYPOT" });
  });
});
