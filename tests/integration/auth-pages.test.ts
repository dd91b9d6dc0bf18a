import { describe, expect, test } from "vitest";

import { tooManyAttemptsMessage } from "~/domain/wait";
import { action as forgotAction } from "~/routes/_auth+/forgot-password";
import { action as loginAction, loader as loginLoader } from "~/routes/_auth+/login";
import { action as logoutAction, loader as logoutLoader } from "~/routes/_auth+/logout";
import { action as resetAction, loader as resetLoader } from "~/routes/_auth+/reset-password";
import { getOptionalUser, requireUser } from "~/web/auth.server";
import { getToast } from "~/web/toast.server";

import { passwordLinkIn } from "../fakes/email-links";
import { callRoute } from "../support/call-route";
import { waitForOutboxEmail } from "../support/outbox";
import { formRequest } from "../support/requests";
import { BASE_URL, createTestUser, loadContext, nextIp, sessionCookieFor, uniqueEmail } from "./authorization/helpers";

/** The browser screens' loaders and actions, called with real Requests as Remix calls them. */

const PASSWORD = "page password 1";

/** Runs a loader or action from a fresh (or the given) client address. */
const run = (handler: Parameters<typeof callRoute>[0], request: Request, clientIp = nextIp()) =>
  callRoute(handler, request, { context: loadContext(clientIp) });

type Reply = { result: { status?: string; error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> }; sentTo?: string | null };

/** The cookies a browser would send back after this response. */
function cookiesFrom(headers: Headers) {
  return headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

async function toastOf(headers: Headers) {
  return (await getToast(new Request(BASE_URL, { headers: { Cookie: cookiesFrom(headers) } }))).toast;
}

const signIn = (fields: Record<string, string>, clientIp?: string, headers: Record<string, string> = {}) =>
  run(loginAction, formRequest("/login", fields, headers), clientIp);

describe("/login", () => {
  test("a signed-in visitor opening /login goes to /dashboard", async () => {
    const user = await createTestUser();
    expect((await run(loginLoader, new Request(`${BASE_URL}/login`))).status).toBe(200);
    const signedIn = await run(loginLoader, new Request(`${BASE_URL}/login`, { headers: { Cookie: await sessionCookieFor(user.id) } }));
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("Location")).toBe("/dashboard");
  });

  test("success: a database session in an httpOnly SameSite=Lax cookie, the server's toast, then /dashboard", async () => {
    const user = await createTestUser({ password: PASSWORD });
    const response = await signIn({ email: user.email.toUpperCase(), password: PASSWORD });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard");
    const sessionCookie = response.headers.getSetCookie().find((c) => c.startsWith("__session="))!;
    expect(sessionCookie).toMatch(/HttpOnly/i);
    expect(sessionCookie).toMatch(/SameSite=Lax/i);
    expect(sessionCookie).toMatch(/Path=\//);
    expect(await toastOf(response.headers)).toMatchObject({ type: "success", message: "Logged in successfully!" });
    const signedIn = await getOptionalUser(new Request(`${BASE_URL}/dashboard`, { headers: { Cookie: cookiesFrom(response.headers) } }));
    expect(signedIn?.id).toBe(user.id);
  });

  test("redirectTo is followed only when it is a path on this site", async () => {
    const user = await createTestUser({ password: PASSWORD });
    const cases: [string, string][] = [
      ["/dashboard/services?tab=reports", "/dashboard/services?tab=reports"],
      ["//evil.example/x", "/dashboard"],
      ["https://evil.example", "/dashboard"],
      ["/\\evil.example", "/dashboard"],
      ["/\t/evil.example", "/dashboard"],
      ["/\n/evil.example", "/dashboard"],
      ["/dashboard\u0000", "/dashboard"],
      ["/dashboard\u0001x", "/dashboard"],
      ["/.//evil.example", "/dashboard"],
      ["/dashboard/services?q=\u0100\u4e2d", "/dashboard/services?q=%C4%80%E4%B8%AD"],
    ];
    for (const [redirectTo, location] of cases) {
      const response = await signIn({ email: user.email, password: PASSWORD, redirectTo });
      expect(response.headers.get("Location"), redirectTo).toBe(location);
    }
  });

  test("signing in again replaces the browser's earlier session", async () => {
    const user = await createTestUser({ password: PASSWORD });
    const earlier = await sessionCookieFor(user.id);
    await signIn({ email: user.email, password: PASSWORD }, undefined, { Cookie: earlier });
    expect(await getOptionalUser(new Request(BASE_URL, { headers: { Cookie: earlier } }))).toBeNull();
  });

  test("a wrong password and an unknown e-mail show one message, with the same status; the password is not echoed", async () => {
    const user = await createTestUser({ password: PASSWORD });
    const wrong = await signIn({ email: user.email, password: "wrong password" });
    const unknown = await signIn({ email: uniqueEmail("nobody"), password: "wrong password" });
    for (const response of [wrong, unknown]) {
      expect(response.status).toBe(401);
      const reply = response.data as Reply;
      expect(reply.result.error).toEqual({ "": ["Invalid email or password."] });
      expect(reply.result.initialValue).not.toHaveProperty("password");
    }
  });

  test("validation messages match the spec", async () => {
    const empty = await signIn({ email: "", password: "" });
    expect(empty.status).toBe(400);
    expect((empty.data as Reply).result.error).toMatchObject({ email: ["Email is required"], password: ["Password is required"] });
    const invalid = await signIn({ email: "not-an-email", password: "x" });
    expect((invalid.data as Reply).result.error).toMatchObject({ email: ["Invalid email address"] });
  });

  test("the eleventh failure in a minute for one address and e-mail shows the rate-limit message with 429 and Retry-After", async () => {
    const ip = nextIp();
    const email = uniqueEmail();
    for (let i = 0; i < 10; i++) expect((await signIn({ email, password: "x" }, ip)).status).toBe(401);
    const eleventh = await signIn({ email, password: "x" }, ip);
    expect(eleventh.status).toBe(429);
    expect(eleventh.headers.get("Retry-After")).toMatch(/^\d+$/);
    // The message says how long to wait: the Retry-After in words.
    expect((eleventh.data as Reply).result.error).toEqual({ "": [tooManyAttemptsMessage(Number(eleventh.headers.get("Retry-After")))] });
  });

  test("a filled-in honeypot is refused with 400 and signs no one in", async () => {
    const user = await createTestUser({ password: PASSWORD });
    const response = await signIn({ email: user.email, password: PASSWORD, website: "https://spam.example" });
    expect(response.status).toBe(400);
    expect(response.headers.getSetCookie().some((c) => c.startsWith("__session="))).toBe(false);
  });
});

describe("/logout", () => {
  test("POST ends the session server-side, clears the cookie, toasts and goes to /", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const response = await run(logoutAction, new Request(`${BASE_URL}/logout`, { method: "POST", headers: { Cookie: cookie } }));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    expect(response.headers.getSetCookie().find((c) => c.startsWith("__session="))).toMatch(/Max-Age=0/i);
    expect(await toastOf(response.headers)).toMatchObject({ type: "success", message: "Logged out successfully!" });
    expect(await getOptionalUser(new Request(BASE_URL, { headers: { Cookie: cookie } }))).toBeNull();
  });

  test("GET never signs out: it only redirects to /", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const response = await run(logoutLoader as never, new Request(`${BASE_URL}/logout`, { headers: { Cookie: cookie } }));
    expect(response.headers.get("Location")).toBe("/");
    expect((await getOptionalUser(new Request(BASE_URL, { headers: { Cookie: cookie } })))?.id).toBe(user.id);
  });
});

describe("browser guard", () => {
  test("a signed-out visitor of a dashboard page is sent to /login with redirectTo", async () => {
    await expect(requireUser(new Request(`${BASE_URL}/dashboard/services?x=1`))).rejects.toSatisfy(
      (r: Response) => r.status === 302 && r.headers.get("Location") === `/login?redirectTo=${encodeURIComponent("/dashboard/services?x=1")}`,
    );
  });
});

describe("/forgot-password and /reset-password", () => {
  test("forgot-password validates and then always shows 'Check Your Email' for the address", async () => {
    expect(((await run(forgotAction, formRequest("/forgot-password", { email: "" }))).data as Reply).result.error).toEqual({ email: ["Email is required"] });
    expect(((await run(forgotAction, formRequest("/forgot-password", { email: "bad" }))).data as Reply).result.error).toEqual({
      email: ["Invalid email address"],
    });
    const nobody = uniqueEmail("nobody");
    const response = await run(forgotAction, formRequest("/forgot-password", { email: nobody }));
    expect(response.status).toBe(200);
    expect((response.data as Reply).sentTo).toBe(nobody);
  });

  test("forgot-password: a sixth request in an hour for one e-mail shows the rate-limit message", async () => {
    const email = uniqueEmail("often");
    for (let i = 0; i < 5; i++) expect((await run(forgotAction, formRequest("/forgot-password", { email }))).status).toBe(200);
    const sixth = await run(forgotAction, formRequest("/forgot-password", { email }));
    expect(sixth.status).toBe(429);
    // An hour's limit says so, not "a moment".
    expect((sixth.data as Reply).result.error).toEqual({ "": ["Too many attempts. Please try again in about an hour."] });
  });

  test("/reset-password without a token goes to /forgot-password", async () => {
    const response = await run(resetLoader, new Request(`${BASE_URL}/reset-password`));
    expect(response.headers.get("Location")).toBe("/forgot-password");
    // A link that cannot be used says so as the page opens.
    expect((await run(resetLoader, new Request(`${BASE_URL}/reset-password?token=abc`))).data).toEqual({
      token: "abc",
      unusable: "This link is not valid. Please request a new one.",
      newAccount: false,
      invitedStaff: false,
    });
    const post = await run(resetAction, formRequest("/reset-password", { password: "long enough", confirmPassword: "long enough" }));
    expect(post.headers.get("Location")).toBe("/forgot-password");
  });

  test("reset-password validation messages match the spec", async () => {
    const reset = (fields: Record<string, string>) => run(resetAction, formRequest("/reset-password", { token: "t", ...fields }));
    expect(((await reset({ password: "", confirmPassword: "" })).data as Reply).result.error).toEqual({
      password: ["Password is required"],
      confirmPassword: ["Confirm Password is required"],
    });
    expect(((await reset({ password: "short", confirmPassword: "short" })).data as Reply).result.error).toEqual({
      password: ["Password must be at least 8 characters"],
    });
    expect(((await reset({ password: "x".repeat(129), confirmPassword: "x".repeat(129) })).data as Reply).result.error).toEqual({
      password: ["Password must be at most 128 characters"],
    });
    const mismatch = await reset({ password: "long enough", confirmPassword: "different one" });
    expect(mismatch.status).toBe(400);
    expect((mismatch.data as Reply).result.error).toEqual({ confirmPassword: ["Passwords must match"] });
    expect((mismatch.data as Reply).result.initialValue).not.toHaveProperty("password");
    expect((mismatch.data as Reply).result.initialValue).not.toHaveProperty("confirmPassword");
  });

  test("forgot → e-mail in the outbox → reset → the old session is gone → sign in with the new password", async () => {
    const user = await createTestUser({ password: PASSWORD });
    const oldSession = await sessionCookieFor(user.id);
    await run(forgotAction, formRequest("/forgot-password", { email: user.email }));
    const email = await waitForOutboxEmail(user.email, (e) => e.subject === "Reset your BrandLift password");
    const token = new URL(passwordLinkIn(email.raw)).searchParams.get("token")!;
    expect((await run(resetLoader, new Request(passwordLinkIn(email.raw)))).data).toEqual({ token, unusable: null, newAccount: false, invitedStaff: false });

    const done = await run(resetAction, formRequest("/reset-password", { token, password: "my new password", confirmPassword: "my new password" }));
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/login");
    expect(await toastOf(done.headers)).toMatchObject({
      type: "success",
      message: "Password reset successfully. You can now log in with your new password.",
    });
    expect(await getOptionalUser(new Request(BASE_URL, { headers: { Cookie: oldSession } }))).toBeNull();
    await waitForOutboxEmail(user.email, (e) => e.subject === "Your BrandLift password was changed");

    expect((await signIn({ email: user.email, password: PASSWORD })).status).toBe(401);
    expect((await signIn({ email: user.email, password: "my new password" })).status).toBe(302);

    const again = await run(resetAction, formRequest("/reset-password", { token, password: "another password", confirmPassword: "another password" }));
    expect(again.status).toBe(400);
    expect((again.data as Reply).result.error).toEqual({
      "": ["Failed to reset password: This link has already been used or replaced by a newer one. Please request a new one."],
    });
  });
});
