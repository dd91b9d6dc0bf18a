import { and, eq, isNull } from "drizzle-orm";
import { describe, expect, test } from "vitest";

import { checkPasswordToken, issuePasswordToken } from "~/models/password-tokens.server";
import { getSessionUser } from "~/models/sessions.server";
import * as confirmPage from "~/routes/account.confirm-email";
import * as undoEmailPage from "~/routes/account.undo-email";
import * as accountApi from "~/routes/api+/account+/_layout";
import * as passwordApi from "~/routes/api+/account+/password";
import * as accountPage from "~/routes/dashboard+/account";
import { settleBackgroundTasks } from "~/utils/background.server";
import { db, schema } from "~/utils/db.server";
import { limits } from "~/utils/rate-limit.server";
import { getIdentity } from "~/web/auth.server";

import { decodeEmail, emailsTo, freshContext } from "../support/payments-helpers";
import { bearerFor, createTestUser, sessionCookieFor, uniqueEmail } from "./authorization/helpers";

/* The account page and API: name, e-mail change by confirmation link, password change, sessions. */

const PASSWORD = "correct-horse-battery";

async function api(route: { action: (args: never) => Promise<Response> }, method: string, path: string, token: string, body: unknown, clientIp?: string) {
  const request = new Request(`http://localhost${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const response = await route.action({ request, params: {}, context: { ...freshContext(), ...(clientIp ? { clientIp } : {}) } } as never);
  return { status: response.status, body: await response.json() };
}

/** The confirmation link the last e-mail to this address carries. */
function confirmationLink(email: string) {
  const mail = decodeEmail(emailsTo(email).at(-1) ?? "");
  const match = /\/account\/confirm-email\?token=([A-Za-z0-9_-]+)/.exec(mail);
  if (!match) throw new Error(`no confirmation link in the e-mail to ${email}`);
  return match[1];
}

/** The undo link the last e-mail to this (old) address carries. */
function undoLink(email: string) {
  const mail = decodeEmail(emailsTo(email).at(-1) ?? "");
  const match = /\/account\/undo-email\?token=([A-Za-z0-9_-]+)/.exec(mail);
  if (!match) throw new Error(`no undo link in the e-mail to ${email}`);
  return match[1];
}

function unwrap<T>(result: unknown): { status: number } & T {
  const wrapped = result as { type?: string; data: T; init?: ResponseInit | null };
  return { status: wrapped.init?.status ?? 200, ...wrapped.data };
}

async function undoPage(token: string) {
  const request = new Request(`http://localhost/account/undo-email?token=${token}`);
  return unwrap<{ result: { ok: boolean; email?: string; message?: string } }>(await undoEmailPage.loader({ request, params: {}, context: freshContext() }));
}

async function undoPost(token: string) {
  const request = new Request("http://localhost/account/undo-email", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token }),
  });
  return unwrap<{ done: { ok: boolean; email?: string; message?: string } }>(await undoEmailPage.action({ request, params: {}, context: freshContext() }));
}

async function open(token: string) {
  const result = (await confirmPage.loader({
    request: new Request(`http://localhost/account/confirm-email?token=${token}`),
    params: {},
    context: freshContext(),
  })) as unknown;
  const wrapped = result as { type?: string; data?: { ok: boolean; message: string | null }; init?: ResponseInit | null };
  return wrapped.type === "DataWithResponseInit"
    ? { status: wrapped.init?.status ?? 200, ...wrapped.data! }
    : { status: 200, ...(result as { ok: boolean; message: null }) };
}

const emailOf = async (id: string) => (await db.select({ email: schema.users.email }).from(schema.users).where(eq(schema.users.id, id)))[0].email;

describe("GET/PATCH /api/account", () => {
  test("answers the account and changes the name", async () => {
    const user = await createTestUser({ name: "Old Name" });
    const token = await bearerFor(user.id);
    const got = await accountApi.loader({
      request: new Request("http://localhost/api/account", { headers: { Authorization: `Bearer ${token}` } }),
      params: {},
      context: freshContext(),
    });
    expect(await got.json()).toEqual({
      status: "success",
      data: { user: { _id: user.id, id: user.id, name: "Old Name", email: user.email, role: "user", createdAt: user.createdAt.toISOString() } },
    });
    const patched = await api(accountApi, "PATCH", "/api/account", token, { name: "  New Name " });
    expect(patched).toMatchObject({ status: 200, body: { status: "success", data: { user: { name: "New Name" } } } });
    expect((await api(accountApi, "PATCH", "/api/account", token, { name: "   " })).status).toBe(400);
    expect((await api(accountApi, "PATCH", "/api/account", token, {})).status).toBe(400);
  });

  test("an e-mail change needs the current password, applies only when the link is opened, once; reset links end; the old address is told", async () => {
    const user = await createTestUser({ password: PASSWORD });
    const oldEmail = user.email;
    const newEmail = uniqueEmail("moved");
    const token = await bearerFor(user.id);
    const missing = await api(accountApi, "PATCH", "/api/account", token, { email: newEmail });
    expect(missing).toMatchObject({ status: 400, body: { message: "Current password is required" } });
    const wrong = await api(accountApi, "PATCH", "/api/account", token, { email: newEmail, currentPassword: "not-the-password" });
    expect(wrong).toMatchObject({ status: 400, body: { code: "WRONG_PASSWORD" } });
    await settleBackgroundTasks();
    expect(emailsTo(newEmail)).toEqual([]);

    const resetLink = await issuePasswordToken(user.id, "reset");
    const requested = await api(accountApi, "PATCH", "/api/account", token, { email: newEmail.toUpperCase(), currentPassword: PASSWORD });
    expect(requested).toMatchObject({ status: 200, body: { data: { user: { email: oldEmail }, pendingEmail: newEmail } } });
    await settleBackgroundTasks();
    expect(await emailOf(user.id)).toBe(oldEmail);

    const link = confirmationLink(newEmail);
    expect(await open(link)).toMatchObject({ status: 200, ok: true });
    expect(await emailOf(user.id)).toBe(newEmail);
    expect(decodeEmail(emailsTo(oldEmail).at(-1) ?? "")).toContain(`is now ${newEmail}`);
    // The reset link sent before the change (to the old address) no longer works.
    expect(await checkPasswordToken(resetLink)).toBe("used");
    // Opened a second time: nothing more happens.
    expect(await open(link)).toMatchObject({ status: 400, ok: false, message: expect.stringContaining("already been used") });
    expect(await open("not-a-real-token")).toMatchObject({ status: 400, ok: false });
  });

  test("a link opened after an hour changes nothing", async () => {
    const user = await createTestUser({ password: PASSWORD });
    const newEmail = uniqueEmail("late");
    await api(accountApi, "PATCH", "/api/account", await bearerFor(user.id), { email: newEmail, currentPassword: PASSWORD });
    await settleBackgroundTasks();
    const link = confirmationLink(newEmail);
    await db
      .update(schema.emailChanges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.emailChanges.userId, user.id));
    expect(await open(link)).toMatchObject({ status: 400, message: expect.stringContaining("expired") });
    expect(await emailOf(user.id)).toBe(user.email);
  });

  test("an address another account uses gets the same answer as a free one; nothing is stored or sent; the confirm step fails clearly on a race", async () => {
    const user = await createTestUser({ password: PASSWORD });
    const other = await createTestUser();
    const token = await bearerFor(user.id);
    const free = uniqueEmail("free");
    const answers = [];
    for (const email of [other.email.toUpperCase(), free]) {
      const { status, body } = await api(accountApi, "PATCH", "/api/account", token, { email, currentPassword: PASSWORD });
      answers.push({
        status,
        body: { ...body, message: body.message.replace(email.toLowerCase(), "ADDRESS"), data: { ...body.data, pendingEmail: "ADDRESS" } },
      });
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]!.status).toBe(200);
    await settleBackgroundTasks();
    expect(emailsTo(other.email)).toEqual([]);
    expect(await db.$count(schema.emailChanges, eq(schema.emailChanges.newEmail, other.email.toLowerCase()))).toBe(0);
    expect(await emailOf(user.id)).toBe(user.email);

    // Free when asked, taken by someone else before the link is opened.
    const link = confirmationLink(free);
    await createTestUser({ email: free });
    expect(await open(link)).toMatchObject({ status: 409, ok: false, message: "Another account already uses this e-mail address." });
    expect(await emailOf(user.id)).toBe(user.email);
  });

  test("e-mail change requests are limited per account and per client address (429 with Retry-After)", async () => {
    const user = await createTestUser({ password: PASSWORD });
    const token = await bearerFor(user.id);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await api(accountApi, "PATCH", "/api/account", token, { email: uniqueEmail("burst"), currentPassword: PASSWORD }, `10.77.${i}.1`)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);

    // One address asking for many accounts: 20 an hour. (The password check also spends the
    // sign-in limiter's 10 a minute per address; emptied here as if a minute had passed each time.)
    const ip = "10.78.0.1";
    const results: number[] = [];
    for (let i = 0; i < 21; i++) {
      const other = await createTestUser({ password: PASSWORD });
      await limits.signIn.delete(`ip:${ip}`);
      results.push(
        (await api(accountApi, "PATCH", "/api/account", await bearerFor(other.id), { email: uniqueEmail("spray"), currentPassword: PASSWORD }, ip)).status,
      );
    }
    expect(results.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(results[20]).toBe(429);
    await settleBackgroundTasks();
  }, 60_000);

  test("the old address can undo a change once: the address comes back, every session and pending link ends", async () => {
    const user = await createTestUser({ password: PASSWORD });
    const oldEmail = user.email;
    const attacker = uniqueEmail("attacker");
    const stolen = await bearerFor(user.id);
    await api(accountApi, "PATCH", "/api/account", stolen, { email: attacker, currentPassword: PASSWORD });
    await settleBackgroundTasks();
    expect(await open(confirmationLink(attacker))).toMatchObject({ ok: true });
    const undo = undoLink(oldEmail);
    // The attacker asks for a reset link at the new address, and another change.
    const resetLink = await issuePasswordToken(user.id, "reset");
    await api(accountApi, "PATCH", "/api/account", stolen, { email: uniqueEmail("further"), currentPassword: PASSWORD });
    await settleBackgroundTasks();

    // Opening the link only asks (a mail scanner changes nothing).
    expect(await undoPage(undo)).toMatchObject({ status: 200, result: { ok: true, email: oldEmail } });
    expect(await emailOf(user.id)).toBe(attacker);
    expect(await undoPost(undo)).toMatchObject({ status: 200, done: { ok: true, email: oldEmail } });
    expect(await emailOf(user.id)).toBe(oldEmail);
    expect(await getSessionUser(stolen, "bearer")).toBeNull();
    expect(await checkPasswordToken(resetLink)).toBe("used");
    expect(await db.$count(schema.emailChanges, and(eq(schema.emailChanges.userId, user.id), isNull(schema.emailChanges.usedAt)))).toBe(0);
    expect(decodeEmail(emailsTo(oldEmail).at(-1) ?? "")).toContain("restored");
    // Once only.
    expect(await undoPost(undo)).toMatchObject({ status: 400, done: { ok: false } });
    expect(await undoPage("not-a-real-token")).toMatchObject({ status: 400, result: { ok: false } });
  });

  test("an undo link changes nothing when another account has taken the old address, or after seven days", async () => {
    const user = await createTestUser({ password: PASSWORD });
    const oldEmail = user.email;
    await api(accountApi, "PATCH", "/api/account", await bearerFor(user.id), { email: uniqueEmail("next"), currentPassword: PASSWORD });
    await settleBackgroundTasks();
    const moved = await open(confirmationLink((await db.select().from(schema.emailChanges).where(eq(schema.emailChanges.userId, user.id)))[0]!.newEmail));
    expect(moved).toMatchObject({ ok: true });
    const undo = undoLink(oldEmail);
    await createTestUser({ email: oldEmail });
    expect(await undoPost(undo)).toMatchObject({ status: 409, done: { ok: false, message: expect.stringContaining("cannot be restored") } });
    await db
      .update(schema.emailChanges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(schema.emailChanges.userId, user.id), eq(schema.emailChanges.purpose, "undo")));
    expect(await undoPage(undo)).toMatchObject({ status: 400, result: { ok: false, message: expect.stringContaining("expired") } });
  });

  test("a name with a C1 control or a right-to-left override is refused", async () => {
    const user = await createTestUser();
    const token = await bearerFor(user.id);
    for (const name of ["Eve\u0085", "Eve\u202Egnp.exe"]) {
      expect(await api(accountApi, "PATCH", "/api/account", token, { name })).toMatchObject({
        status: 400,
        body: { message: "Name contains characters that are not allowed (control or text-direction characters)" },
      });
    }
  });
});

describe("POST /api/account/password", () => {
  test("needs the current password; on success every other session and token ends, this one stays", async () => {
    const user = await createTestUser({ password: PASSWORD });
    const mine = await bearerFor(user.id);
    const otherToken = await bearerFor(user.id);
    await sessionCookieFor(user.id);
    const wrong = await api(passwordApi, "POST", "/api/account/password", mine, { currentPassword: "not-it-at-all", newPassword: "brand-new-password" });
    expect(wrong).toMatchObject({ status: 400, body: { code: "WRONG_PASSWORD", message: "Your current password is not correct." } });
    expect((await api(passwordApi, "POST", "/api/account/password", mine, { currentPassword: PASSWORD, newPassword: "short" })).status).toBe(400);
    expect(await getSessionUser(otherToken, "bearer")).not.toBeNull();

    const changed = await api(passwordApi, "POST", "/api/account/password", mine, { currentPassword: PASSWORD, newPassword: "brand-new-password" });
    expect(changed).toMatchObject({ status: 200, body: { status: "success" } });
    expect(await getSessionUser(mine, "bearer")).not.toBeNull();
    expect(await getSessionUser(otherToken, "bearer")).toBeNull();
    // The browser session ended too: only this token is left.
    expect(await db.$count(schema.sessions, eq(schema.sessions.userId, user.id))).toBe(1);
    const { verifyLogin } = await import("~/models/users.server");
    expect(await verifyLogin(user.email, "brand-new-password")).not.toBeNull();
    expect(decodeEmail(emailsTo(user.email).at(-1) ?? "")).toContain("password was changed");
  });

  test("wrong current passwords are rate-limited like sign-in (429 with Retry-After)", async () => {
    const user = await createTestUser({ password: PASSWORD });
    const token = await bearerFor(user.id);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push(
        (
          await api(
            passwordApi,
            "POST",
            "/api/account/password",
            token,
            { currentPassword: `wrong-${i}-password`, newPassword: "brand-new-password" },
            `10.9.${i}.1`,
          )
        ).status,
      );
    }
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
    // Even the right password waits now.
    expect(
      (await api(passwordApi, "POST", "/api/account/password", token, { currentPassword: PASSWORD, newPassword: "brand-new-password" }, "10.9.99.1")).status,
    ).toBe(429);
  }, 60_000);
});

describe("the account page (plain forms, no JavaScript needed)", () => {
  async function post(cookie: string, fields: Record<string, string>) {
    const request = new Request("http://localhost/dashboard/account", {
      method: "POST",
      headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields),
    });
    try {
      const result = (await accountPage.action({ request, params: {}, context: freshContext() })) as unknown;
      if (result instanceof Response) return { status: result.status, location: result.headers.get("Location"), data: null };
      const wrapped = result as { data: { intent: string; result: { error?: Record<string, string[] | null> } }; init?: ResponseInit | null };
      return { status: wrapped.init?.status ?? 200, location: null, data: wrapped.data };
    } catch (thrown) {
      if (thrown instanceof Response) return { status: thrown.status, location: thrown.headers.get("Location"), data: null };
      throw thrown;
    }
  }

  test("name, e-mail and password forms answer in place; sessions are listed and can be signed out", async () => {
    const user = await createTestUser({ password: PASSWORD });
    const cookie = await sessionCookieFor(user.id);
    expect(await post(cookie, { intent: "name", name: "Page Name" })).toMatchObject({ status: 302, location: "/dashboard/account" });
    expect(await post(cookie, { intent: "name", name: "" })).toMatchObject({ status: 400, data: { result: { error: { name: ["Name is required"] } } } });
    const other = await createTestUser();
    expect(await post(cookie, { intent: "email", email: uniqueEmail("page") })).toMatchObject({
      status: 400,
      data: { result: { error: { currentPassword: ["Current password is required"] } } },
    });
    expect(await post(cookie, { intent: "email", email: uniqueEmail("page"), currentPassword: "nope-nope-nope" })).toMatchObject({
      status: 400,
      data: { result: { error: { currentPassword: ["Your current password is not correct."] } } },
    });
    // Taken or free: the same answer.
    expect(await post(cookie, { intent: "email", email: other.email, currentPassword: PASSWORD })).toMatchObject({
      status: 302,
      location: "/dashboard/account",
    });
    await settleBackgroundTasks();
    expect(emailsTo(other.email)).toEqual([]);
    expect(
      await post(cookie, { intent: "password", currentPassword: "nope-nope-nope", newPassword: "another-password", confirmPassword: "another-password" }),
    ).toMatchObject({
      status: 400,
      data: { result: { error: { currentPassword: ["Your current password is not correct."] } } },
    });
    expect(
      await post(cookie, { intent: "password", currentPassword: PASSWORD, newPassword: "another-password", confirmPassword: "different-one" }),
    ).toMatchObject({
      status: 400,
      data: { result: { error: { confirmPassword: ["Passwords must match"] } } },
    });

    const phone = await bearerFor(user.id);
    const page = (await accountPage.loader({
      request: new Request("http://localhost/dashboard/account", {
        headers: { Cookie: cookie, "User-Agent": "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/537.36 Chrome/130.0 Safari/537.36" },
      }),
      params: {},
      context: freshContext(),
    })) as {
      sessions: { id: string; current: boolean; kind: string; device: string }[];
    };
    expect(page.sessions).toHaveLength(2);
    const self = page.sessions.find((s) => s.current)!;
    const token = page.sessions.find((s) => !s.current)!;
    expect(token.kind).toBe("bearer");
    expect(await post(cookie, { intent: "end-session", sessionId: token.id })).toMatchObject({ status: 302, location: "/dashboard/account" });
    expect(await getSessionUser(phone, "bearer")).toBeNull();
    // Someone else's session id: not found, nothing ends.
    const strangerCookie = await sessionCookieFor(other.id);
    expect((await post(strangerCookie, { intent: "end-session", sessionId: self.id })).status).toBe(404);
    expect(await db.$count(schema.sessions, eq(schema.sessions.id, self.id))).toBe(1);
  });
});

describe("a session's last use", () => {
  const lastSeen = async (sessionId: string) =>
    (await db.select({ at: schema.sessions.lastSeenAt }).from(schema.sessions).where(eq(schema.sessions.id, sessionId)))[0]!.at;
  /** A signed-in read, and the write of its last use if one was due (it runs after the answer). */
  const signedInRead = async (token: string) => {
    const identity = await getIdentity(new Request("http://localhost/api/services/my-purchases", { headers: { Authorization: `Bearer ${token}` } }));
    await settleBackgroundTasks();
    return identity;
  };

  test("is not written for a session that started or was recorded in the last minute, and is once it is older", async () => {
    const user = await createTestUser();
    const token = await bearerFor(user.id);
    const first = (await signedInRead(token))!;
    // Started a moment ago: its start stands for its last use, nothing is written.
    expect(await lastSeen(first.sessionId)).toBeNull();

    // Started two minutes ago and never recorded: the next request records it.
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    await db.update(schema.sessions).set({ createdAt: twoMinutesAgo }).where(eq(schema.sessions.id, first.sessionId));
    await signedInRead(token);
    const recorded = (await lastSeen(first.sessionId))!;
    expect(recorded).not.toBeNull();
    expect(recorded.getTime()).toBeGreaterThan(twoMinutesAgo.getTime());

    // Recorded just now (by this node or another): not written again within the minute.
    await signedInRead(token);
    expect((await lastSeen(first.sessionId))!.getTime()).toBe(recorded.getTime());
  });
});
