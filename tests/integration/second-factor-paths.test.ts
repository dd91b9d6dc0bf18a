import { generateTOTP } from "@epic-web/totp";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, test, vi } from "vitest";

import { confirmEmailChange, requestEmailChange, undoEmailChange } from "~/models/account.server";
import { addPasskey, authenticationOptions, registrationOptions } from "~/models/passkeys.server";
import { issuePasswordToken, sendSetPasswordEmail } from "~/models/password-tokens.server";
import { confirmTwoFactorSetup, startTwoFactorSetup, TOTP_PERIOD } from "~/models/two-factor.server";
import { action as loginPageAction } from "~/routes/_auth+/login";
import { action as magicPageAction } from "~/routes/_auth+/login_.magic";
import { action as resetPageAction, loader as resetPageLoader } from "~/routes/_auth+/reset-password";
import { action as twoFactorApiAction } from "~/routes/api+/account+/2fa";
import { action as verifyApiAction } from "~/routes/api+/account+/2fa.verify";
import { action as addPasskeyApiAction } from "~/routes/api+/account+/passkeys";
import { action as passkeyByIdAction } from "~/routes/api+/account+/passkeys.$id";
import { action as passkeyCreateOptionsAction } from "~/routes/api+/account+/passkeys.options";
import { action as secondStepApiAction } from "~/routes/api+/auth+/2fa";
import { action as loginApiAction } from "~/routes/api+/auth+/login";
import { action as passkeyApiAction } from "~/routes/api+/auth+/passkey";
import { action as passkeyOptionsAction } from "~/routes/api+/auth+/passkey.options";
import { loader as usersLoader } from "~/routes/api+/users+/_layout";
import { action as securityAction, loader as securityLoader } from "~/routes/dashboard+/security";
import { settleBackgroundTasks } from "~/utils/background.server";
import { db, schema } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { hashToken } from "~/utils/tokens.server";
import { resolveIdentity } from "~/web/auth.server";

import { callRoute } from "../support/call-route";
import { createAccount, uniqueEmail } from "../support/factories";
import { readOutbox, waitForOutboxEmail } from "../support/outbox";
import { formRequest, jsonRequest } from "../support/requests";
import { softPasskey } from "../support/soft-passkey";
import { loadContext, nextIp } from "./authorization/helpers";

/*
 * Every way in asks for the second factor an account has (an authenticator app or a passkey),
 * through one decision: the sign-in form, the API's token, the magic link and a password set
 * through a link. A passkey signs in alone only when it verified the person; adding one needs more
 * than a session, is e-mailed, and a reset link or an undone e-mail change ends the day's new ones.
 */

const PASSWORD = "second factor password";
type Handler = typeof loginApiAction;
const call = (handler: Handler, request: Request, clientIp = nextIp()) => handler({ request, params: {}, context: loadContext(clientIp) });
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
/** What the authenticator app shows at `at`. */
const totp = async (secret: string, at = Date.now()) => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(at);
  const { otp } = await generateTOTP({ secret, period: TOTP_PERIOD, digits: 6, algorithm: "SHA-1" });
  vi.useRealTimers();
  return otp;
};

async function turnOnTwoFactor(account: { id: string; user: Parameters<typeof startTwoFactorSetup>[0] }) {
  const { secret } = await startTwoFactorSetup(account.user);
  await confirmTwoFactorSetup(account.id, await totp(secret));
  return secret;
}

/** An account with one passkey (made by the software authenticator) and nothing else as a second factor. */
async function withPasskey(options: Parameters<typeof createAccount>[0] = {}) {
  const account = await createAccount(options);
  const authenticator = softPasskey(env.appUrl);
  await addPasskey(account.id, authenticator.register(await registrationOptions(account.user)), "Laptop", null);
  return { ...account, authenticator };
}

const passkeyStepOptions = async (challenge: string) => {
  const answer = await call(passkeyOptionsAction, jsonRequest("/api/auth/passkey/options", { challenge }));
  expect(answer.status).toBe(200);
  return (await answer.json()).data.options as { challenge: string; allowCredentials: { id: string }[] };
};

afterEach(() => {
  env.teamTwoFactor = "optional";
});

describe("a password set or reset through a link", () => {
  test("a first password of an account with two-factor on asks for the code before any session", async () => {
    const account = await createAccount();
    const secret = await turnOnTwoFactor(account);
    const link = new URL(await sendSetPasswordEmail(account.user));
    const token = link.searchParams.get("token")!;
    const set = await callRoute(resetPageAction, formRequest("/reset-password", { token, password: PASSWORD, confirmPassword: PASSWORD }));
    expect(set.status).toBe(200);
    expect(set.headers.get("Set-Cookie") ?? "").not.toContain("__session=");
    expect(set.data.secondFactor).toMatchObject({ challenge: expect.any(String), methods: ["totp"] });
    expect(await db.select().from(schema.sessions).where(eq(schema.sessions.userId, account.id))).toEqual([]);
    // The second step is the sign-in form's, like any other.
    const code = await totp(secret, Date.now() + TOTP_PERIOD * 1000);
    const done = await callRoute(loginPageAction, formRequest("/login", { intent: "second-factor", challenge: set.data.secondFactor.challenge, code }));
    expect(done.status).toBe(302);
    expect(done.headers.get("Set-Cookie")).toContain("__session=");
  });

  test("a forgot-password link to an account that never had a password, with a passkey: the passkey is asked", async () => {
    const account = await withPasskey();
    const token = await issuePasswordToken(account.id, "set");
    const set = await callRoute(resetPageAction, formRequest("/reset-password", { token, password: PASSWORD, confirmPassword: PASSWORD }));
    expect(set.status).toBe(200);
    expect(set.headers.get("Set-Cookie") ?? "").not.toContain("__session=");
    expect(set.data.secondFactor.methods).toEqual(["passkey"]);
  });

  test("a first password without a second factor still signs in and welcomes", async () => {
    const account = await createAccount({ name: "Wendy Welcome" });
    const token = await issuePasswordToken(account.id, "set");
    const set = await callRoute(resetPageAction, formRequest("/reset-password", { token, password: PASSWORD, confirmPassword: PASSWORD }));
    expect(set.status).toBe(302);
    expect(set.location).toBe("/dashboard");
    expect(set.headers.get("Set-Cookie")).toContain("__session=");
  });

  test("a used or unknown link says so on opening, with no form", async () => {
    const account = await createAccount({ password: PASSWORD });
    const token = await issuePasswordToken(account.id, "reset");
    const fresh = await callRoute(resetPageLoader, `/reset-password?token=${token}`);
    expect(fresh.data).toMatchObject({ unusable: null });
    await issuePasswordToken(account.id, "reset");
    const replaced = await callRoute(resetPageLoader, `/reset-password?token=${token}`);
    expect(replaced.data.unusable).toMatch(/already been used or replaced/);
    const unknown = await callRoute(resetPageLoader, "/reset-password?token=made-up");
    expect(unknown.data.unusable).toMatch(/not valid/);
  });
});

describe("TEAM_2FA=required and a staff account whose only factor is a passkey", () => {
  test("the password alone signs in by no path: form, API and magic link each ask for the passkey", async () => {
    env.teamTwoFactor = "required";
    const staff = await withPasskey({ role: "team", password: PASSWORD });

    const form = await callRoute(loginPageAction, formRequest("/login", { email: staff.email, password: PASSWORD }));
    expect(form.status).toBe(200);
    expect(form.headers.get("Set-Cookie") ?? "").not.toContain("__session=");
    expect(form.data.secondFactor.methods).toEqual(["passkey"]);

    const api = await call(loginApiAction, jsonRequest("/api/auth/login", { email: staff.email, password: PASSWORD }));
    const apiBody = await api.json();
    expect(apiBody).toEqual({ status: "success", data: { twoFactorRequired: true, challenge: expect.any(String), methods: ["passkey"] } });

    // The browser's second step: options for this account's passkeys only, then its answer.
    const options = await passkeyStepOptions(form.data.secondFactor.challenge);
    expect(options.allowCredentials).toHaveLength(1);
    const signedIn = await callRoute(
      loginPageAction,
      formRequest("/login", {
        intent: "second-factor-passkey",
        challenge: form.data.secondFactor.challenge,
        credential: JSON.stringify(staff.authenticator.signIn(options)),
      }),
    );
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("Set-Cookie")).toContain("__session=");

    // The API's: the same options, answered at /api/auth/2fa; the token opens staff calls.
    const apiOptions = await passkeyStepOptions(apiBody.data.challenge);
    const token = await call(
      secondStepApiAction,
      jsonRequest("/api/auth/2fa", { challenge: apiBody.data.challenge, credential: staff.authenticator.signIn(apiOptions) }),
    );
    expect(token.status).toBe(200);
    const { data } = await token.json();
    expect((await call(usersLoader, new Request("http://localhost/api/users", { headers: bearer(data.token) }))).status).toBe(200);

    // The magic link is a first factor too.
    const magicToken = `magic-${uniqueEmail()}`;
    await db.insert(schema.magicLinks).values({ tokenHash: hashToken(magicToken), userId: staff.id, expiresAt: new Date(Date.now() + 60_000) });
    const magic = await callRoute(magicPageAction, formRequest("/login/magic", { token: magicToken }));
    expect(magic.status).toBe(200);
    expect(magic.headers.get("Set-Cookie") ?? "").not.toContain("__session=");
    expect(magic.data.secondFactor.methods).toEqual(["passkey"]);
  });

  test("another account's passkey does not answer the step, and the step counts it as a try", async () => {
    const staff = await withPasskey({ role: "team", password: PASSWORD });
    const stranger = await withPasskey({ password: PASSWORD });
    const login = await (await call(loginApiAction, jsonRequest("/api/auth/login", { email: staff.email, password: PASSWORD }))).json();
    const options = await passkeyStepOptions(login.data.challenge);
    const wrong = await call(
      secondStepApiAction,
      jsonRequest("/api/auth/2fa", { challenge: login.data.challenge, credential: stranger.authenticator.signIn(options) }),
    );
    expect(wrong.status).toBe(401);
    const [row] = await db.select().from(schema.signInChallenges).where(eq(schema.signInChallenges.userId, staff.id));
    expect(row!.attempts).toBe(1);
    // Neither a code nor a passkey: 400 with the step's words.
    const empty = await call(secondStepApiAction, jsonRequest("/api/auth/2fa", { challenge: login.data.challenge }));
    expect(empty.status).toBe(400);
    expect((await empty.json()).message).toMatch(/6-digit code/);
  });
});

describe("a passkey's user verification", () => {
  test("signing in with a passkey alone needs the person verified; presence alone is refused", async () => {
    const account = await withPasskey({ password: PASSWORD });
    const upOnly = await call(
      passkeyApiAction,
      jsonRequest("/api/auth/passkey", { credential: account.authenticator.signIn(await authenticationOptions(), { userVerified: false }) }),
    );
    expect(upOnly.status).toBe(401);
    expect(await upOnly.json()).toMatchObject({ code: "PASSKEY_USER_NOT_VERIFIED", message: expect.stringMatching(/did not verify you/) });
    const verified = await call(
      passkeyApiAction,
      jsonRequest("/api/auth/passkey", { credential: account.authenticator.signIn(await authenticationOptions()) }),
    );
    expect(verified.status).toBe(200);
    // The same form post from the sign-in page.
    const page = await callRoute(
      loginPageAction,
      formRequest("/login", {
        intent: "passkey",
        credential: JSON.stringify(account.authenticator.signIn(await authenticationOptions(), { userVerified: false })),
      }),
    );
    expect(page.status).toBe(401);
    expect(page.headers.get("Set-Cookie") ?? "").not.toContain("__session=");
  });

  test("after the password, presence alone is enough as the second step", async () => {
    const account = await withPasskey({ password: PASSWORD });
    const login = await (await call(loginApiAction, jsonRequest("/api/auth/login", { email: account.email, password: PASSWORD }))).json();
    const options = await passkeyStepOptions(login.data.challenge);
    const answer = await call(
      secondStepApiAction,
      jsonRequest("/api/auth/2fa", { challenge: login.data.challenge, credential: account.authenticator.signIn(options, { userVerified: false }) }),
    );
    expect(answer.status).toBe(200);
  });
});

describe("adding a passkey", () => {
  const createOptions = (token: string, body: unknown) => call(passkeyCreateOptionsAction, jsonRequest("/api/account/passkeys/options", body, bearer(token)));

  test("needs the password; with an authenticator app on, a code; and the owner is e-mailed", async () => {
    const account = await createAccount({ password: PASSWORD, name: "Pat Passkey" });
    const none = await createOptions(account.bearer, {});
    expect(none.status).toBe(400);
    expect((await none.json()).message).toMatch(/Enter your password/);
    expect((await createOptions(account.bearer, { password: "not the password" })).status).toBe(400);
    // Without options made with the proof there is no challenge for a new passkey to answer.
    const authenticator = softPasskey(env.appUrl);
    const options = await createOptions(account.bearer, { password: PASSWORD });
    expect(options.status).toBe(200);
    const added = await call(
      addPasskeyApiAction,
      jsonRequest(
        "/api/account/passkeys",
        { credential: authenticator.register((await options.json()).data.options), name: "Work phone" },
        bearer(account.bearer),
      ),
    );
    expect(added.status).toBe(201);
    await settleBackgroundTasks();
    const mail = await waitForOutboxEmail(account.email, (m) => m.subject === "A passkey was added to your BrandLift account");
    expect(mail.text).toContain("“Work phone”");

    await turnOnTwoFactor(account);
    const passwordOnly = await createOptions(account.bearer, { password: PASSWORD });
    expect(passwordOnly.status).toBe(400);
    expect((await passwordOnly.json()).message).toMatch(/code from your authenticator app/);
    expect((await createOptions(account.bearer, { code: "000000" })).status).toBe(400);
  });

  test("an account with no password must have signed in within ten minutes", async () => {
    const account = await createAccount();
    expect((await createOptions(account.bearer, {})).status).toBe(200);
    await db
      .update(schema.sessions)
      .set({ createdAt: new Date(Date.now() - 11 * 60_000) })
      .where(eq(schema.sessions.userId, account.id));
    const stale = await createOptions(account.bearer, {});
    expect(stale.status).toBe(403);
    expect(await stale.json()).toMatchObject({ code: "RECENT_SIGN_IN_REQUIRED", message: expect.stringMatching(/sign in again/) });
  });

  test("a reset link ends the passkeys added in the last 24 hours, and its e-mail names them", async () => {
    const account = await withPasskey({ password: PASSWORD });
    const old = softPasskey(env.appUrl);
    await addPasskey(account.id, old.register(await registrationOptions(account.user)), "Old key", null);
    await db
      .update(schema.passkeys)
      .set({ createdAt: new Date(Date.now() - 25 * 60 * 60 * 1000) })
      .where(eq(schema.passkeys.name, "Old key"));
    const token = await issuePasswordToken(account.id, "reset");
    const reset = await callRoute(resetPageAction, formRequest("/reset-password", { token, password: "a new password", confirmPassword: "a new password" }));
    expect(reset.status).toBe(302);
    const left = await db.select({ name: schema.passkeys.name }).from(schema.passkeys).where(eq(schema.passkeys.userId, account.id));
    expect(left).toEqual([{ name: "Old key" }]);
    await settleBackgroundTasks();
    const mail = await waitForOutboxEmail(account.email, (m) => m.subject === "Your BrandLift password was changed");
    expect(mail.text).toMatch(/passkey added in the last 24 hours \(“Laptop”\) was removed/);
  });

  test("undoing an e-mail change ends the passkeys added in the last 24 hours, and says which", async () => {
    const account = await withPasskey({ password: PASSWORD });
    const next = uniqueEmail("moved");
    await requestEmailChange(account.id, { email: next, currentPassword: PASSWORD }, nextIp());
    await settleBackgroundTasks();
    const confirm = new URL((await waitForOutboxEmail(next)).links.find((l) => l.includes("/account/confirm-email"))!).searchParams.get("token")!;
    expect((await confirmEmailChange(confirm)).ok).toBe(true);
    await settleBackgroundTasks();
    const undoMail = await waitForOutboxEmail(account.email, (m) => m.links.some((l) => l.includes("/account/undo-email")));
    const undo = new URL(undoMail.links.find((l) => l.includes("/account/undo-email"))!).searchParams.get("token")!;
    expect((await undoEmailChange(undo)).ok).toBe(true);
    expect(await db.select().from(schema.passkeys).where(eq(schema.passkeys.userId, account.id))).toEqual([]);
    await settleBackgroundTasks();
    const restored = readOutbox(account.email).find((m) => m.subject === "Your BrandLift e-mail address was restored");
    expect(restored?.text).toMatch(/\(“Laptop”\) was removed/);
  });

  test("a passkey is renamed by its owner only; the security page does it too", async () => {
    const account = await withPasskey({ password: PASSWORD });
    const other = await createAccount();
    const [passkey] = await db.select().from(schema.passkeys).where(eq(schema.passkeys.userId, account.id));
    const rename = (token: string, name: unknown) =>
      passkeyByIdAction({
        request: jsonRequest(`/api/account/passkeys/${passkey!.id}`, { name }, bearer(token), "PATCH"),
        params: { id: passkey!.id },
        context: loadContext(),
      });
    expect((await rename(other.bearer, "Mine now")).status).toBe(404);
    expect((await rename(account.bearer, "  ")).status).toBe(400);
    const renamed = await rename(account.bearer, "Home laptop");
    expect(renamed.status).toBe(200);
    expect((await renamed.json()).data.passkey.name).toBe("Home laptop");
    const page = await callRoute(
      securityAction,
      formRequest("/dashboard/security", { intent: "rename-passkey", passkeyId: passkey!.id, name: "Desk laptop" }, { Cookie: account.cookie }),
    );
    expect(page.status).toBe(302);
    const listed = await callRoute(securityLoader, new Request("http://localhost/dashboard/security", { headers: { Cookie: account.cookie } }));
    expect(listed.data.passkeys.map((p: { name: string }) => p.name)).toEqual(["Desk laptop"]);
  });
});

describe("turning the authenticator app on", () => {
  test("ends the account's other sessions and tokens; the one that turned it on stays", async () => {
    const account = await createAccount({ password: PASSWORD });
    const { data } = await (await call(twoFactorApiAction, jsonRequest("/api/account/2fa", {}, bearer(account.bearer)))).json();
    expect(await resolveIdentity(null, account.cookie)).not.toBeNull();
    const on = await call(verifyApiAction, jsonRequest("/api/account/2fa/verify", { code: await totp(data.secret) }, bearer(account.bearer)));
    expect(on.status).toBe(200);
    expect(await resolveIdentity(account.bearer, null)).toMatchObject({ user: { id: account.id } });
    expect(await resolveIdentity(null, account.cookie)).toBeNull();
  });

  test("on the security page too", async () => {
    const account = await createAccount({ password: PASSWORD });
    const headers = { Cookie: account.cookie };
    await callRoute(securityAction, formRequest("/dashboard/security", { intent: "start-2fa" }, headers));
    const page = await callRoute(securityLoader, new Request("http://localhost/dashboard/security", { headers }));
    const on = await callRoute(securityAction, formRequest("/dashboard/security", { intent: "verify-2fa", code: await totp(page.data.setup.secret) }, headers));
    expect(on.status).toBe(200);
    expect(await resolveIdentity(account.bearer, null)).toBeNull();
    expect(await resolveIdentity(null, account.cookie)).toMatchObject({ user: { id: account.id } });
  });
});
