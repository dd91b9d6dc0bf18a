import { describe, expect, test } from "vitest";

import { createSession, findSession } from "~/models/sessions.server";
import * as companyPage from "~/routes/dashboard+/_customer+/company";
import { getToast } from "~/web/toast.server";

import { call, readJson } from "../support/dashboard-helpers";
import { cookieOf, createAccount, uniqueEmail, type Account } from "../support/factories";
import { readOutbox } from "../support/outbox";

/*
 * The Team page (/dashboard/company, decision 295): every member sees the client and its members;
 * an owner invites, changes roles, removes and renames with plain forms; a member leaves and is
 * signed out everywhere; the last owner cannot leave and is told why.
 */

type Member = { id: string; name: string; email: string; role: string; joinedAt: string | null };
type Page = { client: { id: string; name: string }; role: string; members: Member[]; canManage: boolean; owners: number };
type Reply = { intent: string; result?: { error?: Record<string, string[]> }; error?: string; member?: { id: string }; leaving?: boolean };

const asBrowser = (cookie: string) => ({ cookie });
const page = async (cookie: string) => readJson<Page>(await call(companyPage.loader, "/dashboard/company", { auth: asBrowser(cookie) }));
const post = (cookie: string, fields: Record<string, string>) =>
  call(companyPage.action, "/dashboard/company", { auth: asBrowser(cookie), method: "POST", body: new URLSearchParams(fields) });
const flashOf = async (response: Response) => {
  const cookies = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return (await getToast(new Request("http://localhost/", { headers: { Cookie: cookies } }))).toast?.message;
};

/** Invites through the page and answers the new member with a browser session of their own (as if they took the link). */
async function invited(owner: Account, role: string, name = `Pat ${role}`) {
  const email = uniqueEmail("team-page");
  const response = await post(owner.cookie, { intent: "invite", email, name, role });
  expect(response.status).toBe(302);
  const member = (await page(owner.cookie)).members.find((m) => m.email === email)!;
  return { ...member, cookie: await cookieOf(await createSession(member.id, "cookie")) };
}

describe("the Team page", () => {
  test("an owner invites a colleague: listed as invited, an e-mail with the link, the confirmation on the next page", async () => {
    const owner = await createAccount({ role: "user", name: "Olga Owner" });
    const before = await page(owner.cookie);
    expect(before).toMatchObject({ client: { id: owner.id, name: "Olga Owner" }, role: "owner", canManage: true, owners: 1 });

    const email = uniqueEmail("invitee");
    const response = await post(owner.cookie, { intent: "invite", email, name: "Ada Approver", role: "approver" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard/company");
    expect(await flashOf(response)).toBe(`Invitation sent to ${email} as approver.`);

    const after = await page(owner.cookie);
    expect(after.members.find((m) => m.email === email)).toMatchObject({ name: "Ada Approver", role: "approver", joinedAt: null });
    const [mail] = readOutbox(email);
    expect(mail!.subject).toBe("Olga Owner invited you to Olga Owner on BrandLift");
    expect(mail!.links.some((link) => link.includes("/reset-password?token="))).toBe(true);
  });

  test("the invitation form answers its mistakes and 409s beside it", async () => {
    const owner = await createAccount({ role: "user" });
    const other = await createAccount({ role: "user" });
    const bad = await post(owner.cookie, { intent: "invite", email: "not-an-address", name: "", role: "boss" });
    expect(bad.status).toBe(400);
    const badReply = await readJson<Reply>(bad);
    expect(badReply.intent).toBe("invite");
    expect(Object.keys(badReply.result!.error!).sort()).toEqual(["email", "name", "role"]);

    const taken = await post(owner.cookie, { intent: "invite", email: other.email, name: "Someone Else", role: "member" });
    expect(taken.status).toBe(409);
    expect((await readJson<Reply>(taken)).result!.error![""]).toEqual(["This e-mail address already belongs to another client or to the BrandLift team."]);
  });

  test("a member sees the team but cannot invite, change roles or remove (403)", async () => {
    const owner = await createAccount({ role: "user" });
    const member = await invited(owner, "member");
    const seen = await page(member.cookie);
    expect(seen).toMatchObject({ client: { id: owner.id }, role: "member", canManage: false });
    expect(seen.members.map((m) => m.id)).toEqual([owner.id, member.id]);

    const refused = await post(member.cookie, { intent: "invite", email: uniqueEmail("nope"), name: "Nope", role: "member" });
    expect(refused.status).toBe(403);
    expect((await post(member.cookie, { intent: "role", userId: owner.id, role: "member" })).status).toBe(403);
    expect((await post(member.cookie, { intent: "remove", userId: owner.id, confirm: "yes" })).status).toBe(403);
    expect((await post(member.cookie, { intent: "rename", name: "Taken Over" })).status).toBe(403);
    expect((await page(owner.cookie)).members).toHaveLength(2);
  });

  test("an owner changes a member's role; the last owner cannot step down (409 beside the member)", async () => {
    const owner = await createAccount({ role: "user" });
    const member = await invited(owner, "member");
    const opened = async (cookie: string, id: string) =>
      (await readJson<{ managing: string | null }>(await call(companyPage.loader, `/dashboard/company?member=${id}`, { auth: asBrowser(cookie) }))).managing;
    expect(await opened(owner.cookie, member.id)).toBe(member.id);
    expect(await opened(member.cookie, owner.id)).toBeNull();
    expect(await opened(owner.cookie, crypto.randomUUID())).toBeNull();
    const changed = await post(owner.cookie, { intent: "role", userId: member.id, role: "billing" });
    expect(changed.status).toBe(302);
    expect(await flashOf(changed)).toBe(`${member.name} is now billing.`);
    expect((await page(owner.cookie)).members.find((m) => m.id === member.id)!.role).toBe("billing");

    const demoted = await post(owner.cookie, { intent: "role", userId: owner.id, role: "member" });
    expect(demoted.status).toBe(409);
    const reply = await readJson<Reply>(demoted);
    expect(reply).toMatchObject({ intent: "role", userId: owner.id });
    expect(reply.result!.error![""]).toEqual(["A client needs an owner: make someone else an owner first."]);
  });

  test("removing asks first, then signs the member out everywhere", async () => {
    const owner = await createAccount({ role: "user" });
    const member = await invited(owner, "approver", "Remy Removed");
    const asked = await post(owner.cookie, { intent: "remove", userId: member.id });
    expect(asked.status).toBe(200);
    expect(await readJson<Reply>(asked)).toMatchObject({ intent: "confirm", leaving: false, member: { id: member.id } });
    expect((await page(owner.cookie)).members).toHaveLength(2);

    const removed = await post(owner.cookie, { intent: "remove", userId: member.id, confirm: "yes" });
    expect(removed.status).toBe(302);
    expect(await flashOf(removed)).toBe("Remy Removed was removed and signed out everywhere.");
    expect((await page(owner.cookie)).members.map((m) => m.id)).toEqual([owner.id]);
    const gone = await call(companyPage.loader, "/dashboard/company", { auth: asBrowser(member.cookie) });
    expect(gone.status).toBe(302);
    expect(gone.headers.get("Location")).toMatch(/^\/login/);
  });

  test("a member leaves: every session ends, the cookie is cleared, the sign-in page says so", async () => {
    const owner = await createAccount({ role: "user", name: "Lena Lead" });
    const member = await invited(owner, "member");
    const bearer = await createSession(member.id, "bearer");
    const asked = await post(member.cookie, { intent: "leave", userId: member.id });
    expect(await readJson<Reply>(asked)).toMatchObject({ intent: "confirm", leaving: true });

    const left = await post(member.cookie, { intent: "leave", userId: member.id, confirm: "yes" });
    expect(left.status).toBe(302);
    expect(left.headers.get("Location")).toBe("/login");
    expect(await flashOf(left)).toBe("You left Lena Lead and were signed out everywhere.");
    expect(left.headers.getSetCookie().some((c) => c.startsWith("__session=;"))).toBe(true);
    expect(await findSession(bearer.token, "bearer")).toBeNull();
    expect((await page(owner.cookie)).members.map((m) => m.id)).toEqual([owner.id]);
  });

  test("the last owner sees why they cannot leave, and a leave posted anyway is refused beside them (409)", async () => {
    const owner = await createAccount({ role: "user" });
    await invited(owner, "member");
    expect((await page(owner.cookie)).owners).toBe(1);
    const refused = await post(owner.cookie, { intent: "leave", userId: owner.id, confirm: "yes" });
    expect(refused.status).toBe(409);
    expect(await readJson<Reply>(refused)).toMatchObject({
      intent: "leave",
      userId: owner.id,
      result: { error: { "": ["A client needs an owner: make someone else an owner first."] } },
    });
    expect((await page(owner.cookie)).members).toHaveLength(2);
  });

  test("an owner renames the company; a blank name is answered beside the form", async () => {
    const owner = await createAccount({ role: "user" });
    const renamed = await post(owner.cookie, { intent: "rename", name: "Northwind Bakery" });
    expect(renamed.status).toBe(302);
    expect(await flashOf(renamed)).toBe("Your company is now called Northwind Bakery.");
    expect((await page(owner.cookie)).client.name).toBe("Northwind Bakery");
    const blank = await post(owner.cookie, { intent: "rename", name: " " });
    expect(blank.status).toBe(400);
    expect((await readJson<Reply>(blank)).result!.error!.name).toEqual([expect.stringMatching(/Name is required/)]);
  });

  test("staff are sent to their own users list", async () => {
    const staff = await createAccount({ role: "team" });
    const response = await call(companyPage.loader, "/dashboard/company", { auth: asBrowser(staff.cookie) });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard/users");
  });
});
