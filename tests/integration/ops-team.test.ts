import { beforeAll, describe, expect, test } from "vitest";

import { deleteCustomerAccount } from "~/models/account-deletion.server";
import { getSessionUser } from "~/models/sessions.server";
import { getTeamCounts } from "~/models/stats.server";
import { setAccountDisabled } from "~/models/team.server";
import { getUserById } from "~/models/users.server";
import * as resetPage from "~/routes/_auth+/reset-password";
import * as loginRoute from "~/routes/api+/auth+/login";
import * as resetRoute from "~/routes/api+/auth+/reset-password";
import * as teamRoute from "~/routes/api+/team";
import * as inviteRoute from "~/routes/api+/team.invite";
import * as disableRoute from "~/routes/api+/users+/$id.disable";
import * as enableRoute from "~/routes/api+/users+/$id.enable";
import * as countRoute from "~/routes/api+/users+/count";
import * as teamPage from "~/routes/dashboard+/_staff+/team";

import { call, readJson } from "../support/dashboard-helpers";
import { createAccount, type Account } from "../support/factories";
import { readOutbox } from "../support/outbox";
import { freshContext, jsonRequest, uniqueEmail } from "../support/requests";

/*
 * The team: staff invite a colleague (a set-password e-mail), who sets a password and signs in;
 * disabling an account ends its sessions and tokens at once, refuses its sign-in and takes it out
 * of the active count; enabling lets it sign in again.
 */

let staff: Account;
beforeAll(async () => {
  staff = await createAccount({ role: "team", name: "Sasha Staff" });
});

type Member = { _id: string; email: string; name: string; role: string; state: string; disabledAt: string | null };

const invite = (body: unknown, auth: Account = staff) =>
  call(inviteRoute.action, "/api/team/invite", { auth, method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });
const post = (route: typeof disableRoute | typeof enableRoute, verb: string, id: string, auth: Account = staff) =>
  call(route.action, `/api/users/${id}/${verb}`, { auth, method: "POST", params: { id } });
const login = (email: string, password: string) =>
  loginRoute.action({ request: jsonRequest("/api/auth/login", { email, password }), params: {}, context: freshContext() });

describe("the team", () => {
  test("an invited colleague gets a set-password link, sets a password and signs in as staff", async () => {
    const email = uniqueEmail("colleague");
    const response = await invite({ email, name: "Casey Colleague" });
    expect(response.status).toBe(201);
    const body = await readJson<{ status: string; data: { user: Member } }>(response);
    expect(body).toMatchObject({ status: "success", data: { user: { email, name: "Casey Colleague", role: "team", state: "invited" } } });

    const [mail] = readOutbox(email);
    expect(mail.subject).toBe("Sasha Staff invited you to the BrandLift team");
    const link = mail.links.find((l) => l.includes("/reset-password?token="))!;
    const token = new URL(link).searchParams.get("token")!;
    const reset = await resetRoute.action({
      request: jsonRequest("/api/auth/reset-password", { token, password: "a-good-password-1" }),
      params: {},
      context: freshContext(),
    });
    expect(reset.status).toBe(200);
    const signedIn = await login(email, "a-good-password-1");
    expect(signedIn.status).toBe(200);
    expect(await signedIn.json()).toMatchObject({ data: { user: { email, role: "team" } } });

    const team = await readJson<{ data: { users: Member[] } }>(await call(teamRoute.loader, "/api/team", { auth: staff }));
    expect(team.data.users.find((u) => u.email === email)).toMatchObject({ state: "active" });
    expect(team.data.users.every((u) => u.role === "team")).toBe(true);
  });

  test("the invitation lands on staff wording; staff can send it again, which replaces the link; not to an active colleague", async () => {
    const email = uniqueEmail("resend");
    const { data } = await readJson<{ data: { user: Member } }>(await invite({ email, name: "Remy Resend" }));
    const linkOf = (n: number) => new URL(readOutbox(email)[n]!.links.find((l) => l.includes("/reset-password?token="))!);
    const first = linkOf(0);
    const landing = await readJson<{ newAccount: boolean; invitedStaff: boolean }>(await call(resetPage.loader, first.pathname + first.search));
    expect(landing).toMatchObject({ newAccount: true, invitedStaff: true });

    const resend = (userId: string) =>
      call(teamPage.action, "/dashboard/team", { auth: { cookie: staff.cookie }, method: "POST", body: new URLSearchParams({ intent: "resend", userId }) });
    const again = await resend(data.user._id);
    expect(again.status).toBe(302);
    expect(readOutbox(email)).toHaveLength(2);
    const second = linkOf(1);
    expect(second.search).not.toBe(first.search);
    // The first link no longer works; the new one does.
    expect(await readJson(await call(resetPage.loader, first.pathname + first.search))).toMatchObject({ newAccount: false, invitedStaff: false });

    const active = await createAccount({ role: "team", name: "Ada Active", password: "a-good-password-1" });
    expect((await resend(active.id)).status).toBe(409);
    expect(readOutbox(active.email)).toHaveLength(0);
  });

  test("an e-mail that has an account is a 409; a bad e-mail or a missing name a 400 with its message", async () => {
    const existing = await createAccount({ role: "user" });
    const taken = await invite({ email: existing.email.toUpperCase(), name: "Taken" });
    expect(taken.status).toBe(409);
    expect((await readJson<{ message: string }>(taken)).message).toBe("An account with this e-mail address already exists.");
    const bad = await invite({ email: "not-an-email", name: "Bad" });
    expect(bad.status).toBe(400);
    expect((await readJson<{ message: string }>(bad)).message).toBe("Invalid email address");
    expect((await invite({ email: uniqueEmail("x"), name: " " })).status).toBe(400);
  });

  test("disabling ends every session and token at once, refuses sign-in, leaves the active count; enabling restores sign-in", async () => {
    const customer = await createAccount({ role: "user", password: "customer-password-1" });
    const before = (await getTeamCounts()).totalActiveUsers;
    const disabled = await post(disableRoute, "disable", customer.id);
    expect(disabled.status).toBe(200);
    expect(await readJson(disabled)).toMatchObject({
      status: "success",
      data: { user: { _id: customer.id, state: "disabled", disabledAt: expect.any(String) } },
    });

    expect(await getSessionUser(customer.bearer, "bearer")).toBeNull();
    const withOldToken = await call(countRoute.loader, "/api/users/count", { auth: { bearer: customer.bearer } });
    expect(withOldToken.status).toBe(401);
    expect((await login(customer.email, "customer-password-1")).status).toBe(401);
    expect((await getTeamCounts()).totalActiveUsers).toBe(before - 1);

    const enabled = await post(enableRoute, "enable", customer.id);
    expect(await readJson(enabled)).toMatchObject({ data: { user: { state: "active", disabledAt: null } } });
    expect((await login(customer.email, "customer-password-1")).status).toBe(200);
    expect((await getTeamCounts()).totalActiveUsers).toBe(before);
  });

  test("a customer account deleted at its owner's request cannot be enabled again (409), and stays off", async () => {
    const customer = await createAccount({ role: "user", password: "customer-password-1" });
    await deleteCustomerAccount(customer.id, "customer-password-1", "127.0.0.1");
    const refused = await post(enableRoute, "enable", customer.id);
    expect(refused.status).toBe(409);
    expect(await readJson(refused)).toMatchObject({ status: "error", message: "This account was deleted at its owner's request: it cannot be enabled again." });
    await expect(setAccountDisabled(staff.id, customer.id, false)).rejects.toMatchObject({ status: 409 });
    expect((await getUserById(customer.id))?.disabledAt).toBeInstanceOf(Date);
  });

  test("two staff disabling each other at the same moment: one wins, the other is refused and stays active", async () => {
    for (let round = 0; round < 3; round++) {
      const [a, b] = await Promise.all([createAccount({ role: "team" }), createAccount({ role: "team" })]);
      const answers = await Promise.all([post(disableRoute, "disable", b.id, a), post(disableRoute, "disable", a.id, b)]);
      // The loser is refused inside the transaction (403), or by its guard (401) when it starts after the winner's commit.
      expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
      const refused = answers.find((r) => r.status !== 200)!;
      expect([401, 403]).toContain(refused.status);
      expect(await readJson(refused)).toMatchObject({ status: "error" });
      const team = await readJson<{ data: { users: Member[] } }>(await call(teamRoute.loader, "/api/team", { auth: staff }));
      const disabled = team.data.users.filter((u) => (u._id === a.id || u._id === b.id) && u.state === "disabled");
      expect(disabled).toHaveLength(1);
    }
  });

  test("three staff each disabling the next at once: the team keeps an active staff account", async () => {
    const ring = await Promise.all([0, 1, 2].map(() => createAccount({ role: "team" })));
    const answers = await Promise.all(ring.map((actor, i) => post(disableRoute, "disable", ring[(i + 1) % 3].id, actor)));
    expect(answers.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(1);
    expect(answers.every((r) => [200, 401, 403].includes(r.status))).toBe(true);
    const team = await readJson<{ data: { users: Member[] } }>(await call(teamRoute.loader, "/api/team", { auth: staff }));
    const ids = new Set(ring.map((a) => a.id));
    const disabled = team.data.users.filter((u) => ids.has(u._id) && u.state === "disabled");
    expect(disabled.length).toBeLessThan(3);
    expect(disabled).toHaveLength(answers.filter((r) => r.status === 200).length);
  });

  test("a staff account disabled since it signed in cannot disable anyone (403 in the error shape)", async () => {
    const [a, b] = await Promise.all([createAccount({ role: "team" }), createAccount({ role: "team" })]);
    await setAccountDisabled(staff.id, a.id, true);
    await expect(setAccountDisabled(a.id, b.id, true)).rejects.toMatchObject({
      status: 403,
      message: "Your account is disabled, so you cannot change other accounts.",
    });
    const team = await readJson<{ data: { users: Member[] } }>(await call(teamRoute.loader, "/api/team", { auth: staff }));
    expect(team.data.users.find((u) => u._id === b.id)).toMatchObject({ disabledAt: null });
  });

  test("staff cannot disable themselves; unknown ids 404; customers 403", async () => {
    const self = await post(disableRoute, "disable", staff.id);
    expect(self.status).toBe(400);
    expect((await readJson<{ message: string }>(self)).message).toBe("You cannot disable your own account.");
    expect((await post(disableRoute, "disable", "00000000-0000-4000-8000-000000000000")).status).toBe(404);
    const customer = await createAccount({ role: "user" });
    expect((await post(disableRoute, "disable", staff.id, customer)).status).toBe(403);
    expect((await invite({ email: uniqueEmail("y"), name: "Y" }, customer)).status).toBe(403);
  });
});
