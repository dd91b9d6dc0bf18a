import { generateTOTP } from "@epic-web/totp";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";

import { recordAudit } from "~/models/audit.server";
import { updatePlan, updateService } from "~/models/catalogue.server";
import { updateThread } from "~/models/inbox.server";
import { addPasskey, registrationOptions, removePasskey } from "~/models/passkeys.server";
import { setPurchaseStatus, updatePurchase } from "~/models/purchases.server";
import { refundOrder } from "~/models/refunds.server";
import { changeSubscriptionByStaff } from "~/models/subscriptions-staff.server";
import { inviteStaff, setAccountDisabled } from "~/models/team.server";
import {
  confirmTwoFactorSetup,
  disableTwoFactor,
  isTwoFactorOn,
  regenerateRecoveryCodes,
  startTwoFactorSetup,
  TOTP_PERIOD,
  verifyTwoFactorCode,
} from "~/models/two-factor.server";
import * as auditApi from "~/routes/api+/audit";
import * as auditPage from "~/routes/dashboard+/_staff+/audit+/_index";
import * as auditCsv from "~/routes/dashboard+/_staff+/audit+/export[.]csv";
import { db, schema } from "~/utils/db.server";
import { env } from "~/utils/env.server";

import { callRoute } from "../support/call-route";
import { call, catalogue, createAccount, createPurchase, readJson, type Account } from "../support/dashboard-helpers";
import { postUpload, samples } from "../support/reports-cases";
import { BASE_URL, uniqueEmail } from "../support/requests";
import { softPasskey } from "../support/soft-passkey";

/*
 * The audit log (decision 220): each staff action that changes money, access or what a
 * customer sees leaves one entry naming who, what and to whom; the log reads newest first with
 * filters, pages and a CSV; the database refuses to change or remove an entry.
 */

let staff: Account;
let other: Account;
let customer: Account;

type Entry = {
  _id: string;
  actor: { _id: string; name: string };
  action: string;
  target: { kind: string; _id: string; label: string };
  detail: string;
  createdAt: string;
};
type AuditBody = { status: string; data: { entries: Entry[]; total: number } };

const readLog = async (query: string, auth: Account = staff) => {
  const response = await call(auditApi.loader, `/api/audit${query}`, { auth });
  expect(response.status).toBe(200);
  return (await readJson<AuditBody>(response)).data;
};
/** The newest entry about one target. */
const latestAbout = async (targetId: string) => {
  const { entries } = await readLog(`?limit=200`);
  return entries.find((entry) => entry.target._id === targetId);
};

beforeAll(async () => {
  staff = await createAccount("team", { name: "Avery Auditor" });
  other = await createAccount("team", { name: "Blake Other" });
  customer = await createAccount("user", { name: "Casey Customer" });
});

/** The authenticator's current code. */
const totp = async (secret: string) => (await generateTOTP({ secret, period: TOTP_PERIOD, digits: 6, algorithm: "SHA-1" })).otp;

/** While it runs, the database refuses audit entries of `action`: a change written with its entry must not survive. */
async function withAuditRefused<T>(action: string, run: () => Promise<T>) {
  await db.execute(
    sql.raw(
      `create or replace function audit_refuse_test() returns trigger language plpgsql as $$ begin if new.action = '${action}' then raise exception 'audit refused'; end if; return new; end $$`,
    ),
  );
  await db.execute(sql`create trigger audit_refuse_test before insert on audit_entries for each row execute function audit_refuse_test()`);
  try {
    return await run();
  } finally {
    await db.execute(sql`drop trigger audit_refuse_test on audit_entries`);
  }
}

describe("what is recorded", () => {
  test("staff turning two-factor on and off, making new recovery codes, adding and removing a passkey: each entry in its change's transaction", async () => {
    const member = await createAccount("team", { name: "Sky Secure" });
    const label = `Sky Secure (${member.email})`;
    const { secret } = await startTwoFactorSetup(member.user);
    // The entry refused: two-factor stays off (the code is taken again once the entry can be written).
    await expect(withAuditRefused("security.two_factor_on", async () => confirmTwoFactorSetup(member.id, await totp(secret)))).rejects.toThrow();
    expect(await isTwoFactorOn(member.id)).toBe(false);
    const { recoveryCodes } = await confirmTwoFactorSetup(member.id, await totp(secret));
    expect(await latestAbout(member.id)).toMatchObject({
      actor: { _id: member.id, name: "Sky Secure" },
      action: "security.two_factor_on",
      target: { kind: "user", label },
    });

    // New recovery codes: refused, the old ones still work; made, only the new ones do.
    await expect(withAuditRefused("security.recovery_codes", () => regenerateRecoveryCodes(member.id, recoveryCodes[0]!))).rejects.toThrow();
    expect(await verifyTwoFactorCode(member.id, recoveryCodes[1]!)).toBe(true);
    const { recoveryCodes: fresh } = await regenerateRecoveryCodes(member.id, recoveryCodes[2]!);
    expect(fresh).toHaveLength(10);
    expect(await verifyTwoFactorCode(member.id, recoveryCodes[3]!)).toBe(false);
    expect(await latestAbout(member.id)).toMatchObject({ action: "security.recovery_codes", detail: "10 new recovery codes; the old ones no longer work" });

    await expect(withAuditRefused("security.two_factor_off", () => disableTwoFactor(member.id, fresh[0]!))).rejects.toThrow();
    expect(await isTwoFactorOn(member.id)).toBe(true);
    await disableTwoFactor(member.id, fresh[1]!);
    expect(await isTwoFactorOn(member.id)).toBe(false);
    expect(await latestAbout(member.id)).toMatchObject({ action: "security.two_factor_off", detail: "Authenticator app and recovery codes removed" });

    const authenticator = softPasskey(env.appUrl);
    const passkeysOf = () => db.select().from(schema.passkeys).where(eq(schema.passkeys.userId, member.id));
    await expect(
      withAuditRefused("security.passkey_add", async () =>
        addPasskey(member.id, authenticator.register(await registrationOptions(member.user)), "Work laptop", null),
      ),
    ).rejects.toThrow();
    expect(await passkeysOf()).toEqual([]);
    const passkey = await addPasskey(member.id, authenticator.register(await registrationOptions(member.user)), "Work laptop", null);
    expect(await latestAbout(member.id)).toMatchObject({ action: "security.passkey_add", detail: "Passkey “Work laptop”" });

    await expect(withAuditRefused("security.passkey_remove", () => removePasskey(member.id, passkey.id))).rejects.toThrow();
    expect(await passkeysOf()).toHaveLength(1);
    await removePasskey(member.id, passkey.id);
    expect(await passkeysOf()).toEqual([]);
    expect(await latestAbout(member.id)).toMatchObject({ action: "security.passkey_remove", detail: "Passkey “Work laptop”" });

    // A customer's own security settings are not staff actions: no entry.
    const { secret: customerSecret } = await startTwoFactorSetup(customer.user);
    await confirmTwoFactorSetup(customer.id, await totp(customerSecret));
    expect(await latestAbout(customer.id)).toBeUndefined();
  });

  test("a refund: who, which order, how much of what, and why — in the refund's transaction", async () => {
    const [service] = await catalogue();
    const { order } = await createPurchase(customer.id, service!, {});
    await refundOrder(order.id, { staffId: staff.id, amountCents: 1000, reason: "late delivery" });
    const entry = await latestAbout(order.id);
    expect(entry).toMatchObject({ actor: { _id: staff.id, name: "Avery Auditor" }, action: "order.refund", target: { kind: "order", _id: order.id } });
    expect(entry!.detail).toMatch(/^Refunded \$10\.00 of \$[\d,.]+: late delivery$/);
  });

  test("price and catalogue changes name the change", async () => {
    const [service] = await catalogue();
    const actor = { id: staff.id, role: "team" as const, name: "Avery Auditor" };
    await updateService(actor, service!.id, { priceCents: service!.priceCents + 500 });
    const entry = await latestAbout(service!.id);
    expect(entry).toMatchObject({ action: "service.update", target: { kind: "service", label: service!.name } });
    expect(entry!.detail).toContain("price ");
    const [plan] = await db.select().from(schema.plans).limit(1);
    await updatePlan(actor, plan!.id, { priceCents: plan!.priceCents + 100 });
    expect(await latestAbout(plan!.id)).toMatchObject({ action: "plan.update", target: { kind: "plan" } });
  });

  test("invitations, disabling and enabling", async () => {
    const email = uniqueEmail("invitee");
    const { member } = await inviteStaff({ id: staff.id, name: "Avery Auditor" }, { email, name: "Ivy Invitee" });
    expect(await latestAbout(member.id)).toMatchObject({ action: "team.invite", target: { kind: "user", label: `Ivy Invitee (${email})` } });
    await inviteStaff({ id: staff.id, name: "Avery Auditor" }, { email, name: "Ivy Invitee" });
    expect(await latestAbout(member.id)).toMatchObject({ action: "team.invite_resend" });

    const target = await createAccount("user", { name: "Dana Disabled" });
    await setAccountDisabled(other.id, target.id, true);
    expect(await latestAbout(target.id)).toMatchObject({ actor: { _id: other.id, name: "Blake Other" }, action: "account.disable" });
    // Disabling an account already disabled changes nothing: no second entry.
    await setAccountDisabled(other.id, target.id, true);
    await setAccountDisabled(other.id, target.id, false);
    const about = (await readLog("?limit=200")).entries.filter((entry) => entry.target._id === target.id).map((entry) => entry.action);
    expect(about).toEqual(["account.enable", "account.disable"]);
  });

  test("a report upload, a purchase's status and assignee, a thread's assignee", async () => {
    const [service] = await catalogue();
    const { purchase } = await createPurchase(customer.id, service!, {});
    const uploaded = await postUpload(staff, service!.id, { file: { name: "audit.pdf", bytes: samples.pdf() }, title: "Audit month", userId: customer.id });
    expect(uploaded.status).toBe(201);
    const report = (await readJson<{ data: { _id: string } }>(uploaded)).data;
    expect(await latestAbout(report._id)).toMatchObject({ action: "report.upload", target: { kind: "report", label: "“Audit month” for Casey Customer" } });

    const actor = { id: staff.id, role: "team" as const };
    await setPurchaseStatus(actor, purchase.id, "completed");
    expect(await latestAbout(purchase.id)).toMatchObject({ action: "purchase.status", detail: "Marked completed" });
    await updatePurchase(actor, purchase.id, { assigneeId: other.id });
    expect(await latestAbout(purchase.id)).toMatchObject({ action: "purchase.assign", detail: "Assigned to Blake Other" });

    await updateThread(actor, customer.id, { assigneeId: other.id });
    expect(await latestAbout(customer.id)).toMatchObject({ action: "thread.assign", target: { kind: "thread" }, detail: "Assigned to Blake Other" });
  });

  test("staff cancelling, resuming and ending a plan", async () => {
    const [order] = await db
      .insert(schema.orders)
      .values({
        kind: "subscription",
        email: customer.email,
        name: customer.name,
        userId: customer.id,
        status: "paid",
        totalCents: 4900,
        planId: "starter",
        paidAt: new Date(),
      })
      .returning();
    const [subscription] = await db
      .insert(schema.subscriptions)
      .values({
        orderId: order!.id,
        userId: customer.id,
        planId: "starter",
        status: "active",
        priceCents: 4900,
        currentPeriodEnd: new Date(Date.now() + 86400_000),
      })
      .returning();
    const actor = { id: staff.id, role: "team" as const };
    for (const change of ["cancel_at_period_end", "resume", "cancel_now"] as const) await changeSubscriptionByStaff(actor, subscription!.id, change);
    const actions = (await readLog("?limit=200")).entries.filter((entry) => entry.target._id === subscription!.id).map((entry) => entry.action);
    expect(actions).toEqual(["subscription.end", "subscription.resume", "subscription.cancel"]);
  });
});

describe("the log", () => {
  test("entries are only ever added: the database refuses an update or a delete", async () => {
    await recordAudit({ actor: staff, action: "report.delete", target: { kind: "report", id: "kept", label: "Kept" }, detail: "stays" });
    await expect(db.execute(sql`update audit_entries set detail = 'changed' where target_id = 'kept'`)).rejects.toThrow();
    await expect(db.execute(sql`delete from audit_entries where target_id = 'kept'`)).rejects.toThrow();
    expect(await latestAbout("kept")).toMatchObject({ detail: "stays" });
  });

  test("newest first, filtered by staff member and action, paged, with the total", async () => {
    for (let i = 0; i < 3; i++) await recordAudit({ actor: other, action: "service.update", target: { kind: "service", id: `page-${i}`, label: `S${i}` } });
    // Newest first: by time, and entries of the same instant (one transaction's, or PGlite's clock
    // giving two inserts one timestamp) in the order they were written.
    const mine = await readLog(`?actorId=${other.id}&action=service.update&limit=2`);
    expect(mine.total).toBe(3);
    expect(mine.entries.map((entry) => entry.target._id)).toEqual(["page-2", "page-1"]);
    expect((await readLog(`?actorId=${other.id}&action=service.update&limit=2&page=2`)).entries.map((e) => e.target._id)).toEqual(["page-0"]);
    const all = await readLog("?limit=200");
    const times = all.entries.map((entry) => entry.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  test("entries of one transaction share its time and read back in the order they were written, in the list and across the CSV's batches", async () => {
    const ids = Array.from({ length: 502 }, (_, i) => `tx-${String(i).padStart(3, "0")}`);
    await db.transaction(async (tx) => {
      for (const id of ids.slice(0, 3)) await recordAudit({ actor: other, action: "plan.update", target: { kind: "plan", id, label: id } }, tx);
      // The rest in one statement (its rows are written in the order listed): past the CSV's batch of 500.
      const rest = ids
        .slice(3)
        .map((id) => ({ actorId: other.id, actorName: "Blake Other", action: "plan.update", targetKind: "plan", targetId: id, targetLabel: id }));
      await tx.insert(schema.auditEntries).values(rest);
    });
    const newestFirst = [...ids].reverse();
    const listed = await readLog(`?actorId=${other.id}&action=plan.update&limit=100`);
    expect(new Set(listed.entries.map((entry) => entry.createdAt)).size).toBe(1);
    expect(listed.entries.map((entry) => entry.target._id)).toEqual(newestFirst.slice(0, 100));
    const response = await call(auditCsv.loader, `/dashboard/audit/export.csv?action=plan.update&actorId=${other.id}`, { auth: { cookie: staff.cookie } });
    const rows = (await response.text()).trim().split("\r\n").slice(1);
    expect(rows.map((line) => /"plan","(tx-\d+)"/.exec(line)?.[1])).toEqual(newestFirst);
  });

  test("bad filters are a 400 naming the problem; customers get 403", async () => {
    const bad = await call(auditApi.loader, "/api/audit?action=drop.tables", { auth: staff });
    expect(bad.status).toBe(400);
    expect((await readJson<{ message: string }>(bad)).message).toMatch(/^Action must be one of: order\.refund/);
    const badActor = await call(auditApi.loader, "/api/audit?actorId=nope", { auth: staff });
    expect((await readJson<{ message: string }>(badActor)).message).toBe("Staff member not found.");
    expect((await call(auditApi.loader, "/api/audit?limit=999", { auth: staff })).status).toBe(400);
    expect((await call(auditApi.loader, "/api/audit", { auth: customer })).status).toBe(403);
  });

  test("the CSV quotes every text cell and defuses formulas", async () => {
    await recordAudit({ actor: staff, action: "order.refund", target: { kind: "order", id: "csv-1", label: '=HYPERLINK("x"), "quoted"' }, detail: "a, b; c" });
    await recordAudit({ actor: staff, action: "order.refund", target: { kind: "order", id: "csv-2", label: "Jo;=2*21;" }, detail: "x,@SUM(A1);-1" });
    const response = await call(auditCsv.loader, `/dashboard/audit/export.csv?action=order.refund&actorId=${staff.id}`, { auth: { cookie: staff.cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const lines = (await response.text()).trim().split("\r\n");
    expect(lines[0]).toBe("entry_id,created_at,actor_id,actor,action,action_label,target_kind,target_id,target,detail");
    const row = lines.find((line) => line.includes('"csv-1"'))!;
    expect(row).toContain(`"'=HYPERLINK(""x""), ""quoted"""`);
    expect(row).toContain('"a, b; c"');
    // A formula after a separator inside the text is defused for a reader that splits on it regardless of quotes.
    const second = lines.find((line) => line.includes('"csv-2"'))!;
    expect(second).toContain(`"Jo;'=2*21;","x,'@SUM(A1);'-1"`);
    expect(second.split(/[,;]/).filter((piece) => /^[\s"]*[=+\-@]/.test(piece))).toEqual([]);
    expect(lines.slice(1).every((line) => line.includes('"order.refund"'))).toBe(true);
    const refused = await call(auditCsv.loader, "/dashboard/audit/export.csv?action=nope", { auth: { cookie: staff.cookie } });
    expect(refused.status).toBe(400);
  });

  test("the staff page lists entries with the filters it was given, and says when a filter is wrong", async () => {
    const page = await callRoute(
      auditPage.loader,
      new Request(`${BASE_URL}/dashboard/audit?actorId=${other.id}&action=`, { headers: { Cookie: staff.cookie } }),
    );
    expect(page.status).toBe(200);
    expect(page.data.filter).toEqual({ actorId: other.id, action: "" });
    expect(page.data.entries.length).toBeGreaterThan(0);
    expect(page.data.entries.every((entry: { actor: { id: string } }) => entry.actor.id === other.id)).toBe(true);
    expect(page.data.actors.map((actor: { name: string }) => actor.name)).toContain("Blake Other");
    const wrong = await callRoute(auditPage.loader, new Request(`${BASE_URL}/dashboard/audit?action=nope`, { headers: { Cookie: staff.cookie } }));
    expect(wrong.data.filterError).toMatch(/^Action must be one of/);
    const refused = await callRoute(auditPage.loader, new Request(`${BASE_URL}/dashboard/audit`, { headers: { Cookie: customer.cookie } }));
    expect(refused.status).toBe(403);
  });
});
