import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";

import { DELETED_NAME } from "~/domain/own-data";
import { recordContactMessage } from "~/models/contact.server";
import { getCustomerProfile } from "~/models/customer-profile.server";
import { createSavedReply } from "~/models/saved-replies.server";
import * as conversation from "~/routes/api+/chat+/conversation.$userId";
import * as formerAddress from "~/routes/dashboard+/_staff+/customers.$customerId";
import * as inboxThread from "~/routes/dashboard+/_staff+/inbox+/$customerId";
import * as savedRepliesPage from "~/routes/dashboard+/_staff+/saved-replies";
import * as customerPage from "~/routes/dashboard+/_staff+/users+/$userId";
import * as reportsTab from "~/routes/dashboard+/_staff+/users+/$userId._index";
import * as messageTab from "~/routes/dashboard+/_staff+/users+/$userId.message";
import { db, schema } from "~/utils/db.server";

import { call, catalogue, createAccount, createPurchase, readJson, type Account } from "../support/dashboard-helpers";
import { createAccount as accountWithPassword, postInThread } from "../support/factories";
import { deleteAccount, OWNER_PASSWORD } from "../support/own-data-helpers";

/** The inbox's customer pane, the customer page and the saved replies page (decision 185): one profile read, notes and replies from forms. */

const page = (account: Account) => ({ cookie: account.cookie });
const form = (fields: Record<string, string>) => ({
  method: "POST",
  body: new URLSearchParams(fields),
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
});

async function gradeFor(email: string, score: number, overall: "A" | "B" | "C" | "D" | "F") {
  const [grade] = await db
    .insert(schema.grades)
    .values({ answers: {} as never, score, overall, areas: [], recommendations: [] })
    .returning();
  await db.insert(schema.leads).values({ gradeId: grade!.id, email: email.toLowerCase(), name: null });
  return grade!.id;
}

describe("the customer profile", () => {
  test("purchases with status, receipts and the total paid after refunds, grader results by e-mail in any case, notes; null for staff and unknown ids", async () => {
    const services = await catalogue();
    const staff = await createAccount("team");
    const customer = await createAccount("user", { name: "Pat Profile", email: `Pat.Profile-${crypto.randomUUID()}@Example.test` });
    const first = await createPurchase(customer.user.id, services[0]!);
    const second = await createPurchase(customer.user.id, services[1]!, { status: "completed" });
    await db.update(schema.orders).set({ refundedCents: 1000 }).where(eq(schema.orders.id, second.order.id));
    const gradeId = await gradeFor(customer.user.email, 64, "C");
    await gradeFor(`someone-else-${crypto.randomUUID()}@example.test`, 99, "A");

    const profile = (await getCustomerProfile(customer.user.id))!;
    expect(profile.customer).toMatchObject({ id: customer.user.id, name: "Pat Profile", disabled: false });
    expect(profile.purchases.map((p) => [p.id, p.status]).sort()).toEqual(
      [
        [first.purchase.id, "in_progress"],
        [second.purchase.id, "completed"],
      ].sort(),
    );
    expect(profile.receipts.map((r) => r.id).sort()).toEqual([first.order.id, second.order.id].sort());
    expect(profile.totalPaid).toEqual({ amountCents: services[0]!.priceCents + services[1]!.priceCents - 1000, currency: "usd" });
    expect(profile.grades).toEqual([{ id: gradeId, overall: "C", score: 64, createdAt: expect.any(String) }]);
    expect(profile.plans).toEqual([]);
    expect(profile.notes).toEqual([]);

    expect(await getCustomerProfile(staff.user.id)).toBeNull();
    expect(await getCustomerProfile(crypto.randomUUID())).toBeNull();
    expect(await getCustomerProfile("not-an-id")).toBeNull();
  });
});

describe("the inbox thread", () => {
  test("the customer pane is the profile; a note from the form shows in the thread and never in the customer's conversation", async () => {
    const staff = await createAccount("team", { name: "Nora Notes" });
    const customer = await createAccount("user");
    await postInThread(customer, "Is my report ready?");
    const path = `/dashboard/inbox/${customer.user.id}`;
    const params = { customerId: customer.user.id };

    const empty = await call(inboxThread.action, path, { auth: page(staff), params, ...form({ intent: "note", body: "   " }) });
    expect(empty.status).toBe(400);
    expect(await readJson(empty)).toMatchObject({ intent: "note", result: { error: { body: ["Please write the note."] } } });

    const secret = `Internal: refund approved ${crypto.randomUUID()}`;
    const added = await call(inboxThread.action, `${path}?filter=mine`, { auth: page(staff), params, ...form({ intent: "note", body: secret }) });
    expect(added.status).toBe(302);
    expect(added.headers.get("Location")).toBe(`${path}?filter=mine`);

    type Loaded = { profile: { notes: { body: string; author: { name: string } }[]; customer: { id: string } } | null };
    const loaded = await readJson<Loaded>(await call(inboxThread.loader, path, { auth: page(staff), params }));
    expect(loaded.profile!.customer.id).toBe(customer.user.id);
    expect(loaded.profile!.notes).toEqual([expect.objectContaining({ body: secret, author: expect.objectContaining({ name: "Nora Notes" }) })]);

    // The customer's own conversation (the API their chat reads) has the message, not the note.
    const theirs = await call(conversation.loader, `/api/chat/conversation/${customer.user.id}`, {
      auth: { cookie: customer.cookie },
      params: { userId: customer.user.id },
    });
    const text = JSON.stringify(await theirs.json());
    expect(text).toContain("Is my report ready?");
    expect(text).not.toContain(secret);
  });

  test("a visitor's thread has no customer pane, and a note there is 404; ?insert= puts a saved reply in the e-mail reply box", async () => {
    const staff = await createAccount("team");
    const visitor = await recordContactMessage({ email: `visitor-${crypto.randomUUID()}@example.test`, name: "Vi", message: "Hello" });
    const [thread] = await db.select({ id: schema.chatThreads.id }).from(schema.chatThreads).where(eq(schema.chatThreads.roomId, visitor.roomId));
    const path = `/dashboard/inbox/${thread!.id}`;
    const params = { customerId: thread!.id };
    const reply = await createSavedReply(staff.user, { title: "Quote", body: "A quote follows today." });

    const loaded = await readJson<{ profile: unknown; draft: string }>(
      await call(inboxThread.loader, `${path}?insert=${reply.id}`, { auth: page(staff), params }),
    );
    expect(loaded.profile).toBeNull();
    expect(loaded.draft).toBe("A quote follows today.");
    expect((await readJson<{ draft: string }>(await call(inboxThread.loader, `${path}?insert=nonsense`, { auth: page(staff), params }))).draft).toBe("");

    const note = await call(inboxThread.action, path, { auth: page(staff), params, ...form({ intent: "note", body: "x" }) });
    expect(note.status).toBe(404);
  });
});

describe("the customer page", () => {
  test("one page for everything about a customer; a note from its form; the former address leads to it; a staff id is 404", async () => {
    const services = await catalogue();
    const staff = await createAccount("team");
    const customer = await createAccount("user", { name: "Cleo Customer" });
    await createPurchase(customer.user.id, services[0]!);
    await postInThread(customer, "Hi there");
    const path = `/dashboard/users/${customer.user.id}`;
    const params = { userId: customer.user.id };

    type Loaded = { deleted: boolean; profile: { customer: { name: string }; purchases: unknown[]; receipts: unknown[]; notes: { body: string }[] } };
    const loaded = await readJson<Loaded>(await call(customerPage.loader, path, { auth: page(staff), params }));
    expect(loaded.profile.customer.name).toBe("Cleo Customer");
    expect(loaded.profile.receipts).toHaveLength(1);
    expect(loaded.deleted).toBe(false);
    // The purchases are the Reports tab's, with what its cards show: the page does not carry them twice.
    expect(loaded.profile.purchases).toEqual([]);
    const tab = await readJson<{ purchases: Record<string, unknown>[] }>(await call(reportsTab.loader, path, { auth: page(staff), params }));
    expect(tab.purchases).toHaveLength(1);
    expect(Object.keys(tab.purchases[0]!).sort()).toEqual(["amountCents", "createdAt", "currency", "id", "quantity", "service", "status"]);
    expect(tab.purchases[0]!.service).toEqual({ id: services[0]!.id, name: services[0]!.name });

    const tooLong = await call(customerPage.action, path, { auth: page(staff), params, ...form({ intent: "note", body: "x".repeat(5001) }) });
    expect(tooLong.status).toBe(400);
    expect(await readJson(tooLong)).toMatchObject({ intent: "note", result: { status: "error", error: { body: ["A note is at most 5000 characters."] } } });
    const added = await call(customerPage.action, path, { auth: page(staff), params, ...form({ intent: "note", body: "Prefers e-mail." }) });
    expect(added.headers.get("Location")).toBe(path);
    expect((await readJson<Loaded>(await call(customerPage.loader, path, { auth: page(staff), params }))).profile.notes.map((n) => n.body)).toEqual([
      "Prefers e-mail.",
    ]);

    const former = await call(formerAddress.loader, `/dashboard/customers/${customer.user.id}`, {
      auth: page(staff),
      params: { customerId: customer.user.id },
    });
    expect(former.status).toBe(301);
    expect(former.headers.get("Location")).toBe(path);
    expect(
      (await call(formerAddress.loader, `/dashboard/customers/${customer.user.id}`, { auth: page(customer), params: { customerId: customer.user.id } })).status,
    ).toBe(403);

    const notACustomer = await call(customerPage.loader, `/dashboard/users/${staff.user.id}`, { auth: page(staff), params: { userId: staff.user.id } });
    expect(notACustomer.status).toBe(404);
  });

  test("a deleted customer's page says so: no chat, no upload or status change, their open work shown as cancelled", async () => {
    const services = await catalogue();
    const staff = await createAccount("team");
    const customer = await accountWithPassword({ role: "user", password: OWNER_PASSWORD });
    const open = await createPurchase(customer.user.id, services[1]!);
    expect((await deleteAccount(customer, OWNER_PASSWORD)).status).toBe(200);
    const path = `/dashboard/users/${customer.user.id}`;
    const params = { userId: customer.user.id };

    const loaded = await readJson<{ deleted: boolean; profile: { customer: { name: string } } }>(
      await call(customerPage.loader, path, { auth: page(staff), params }),
    );
    expect(loaded.deleted).toBe(true);
    expect(loaded.profile.customer.name).toBe(DELETED_NAME);
    const tab = await readJson<{ gone: boolean; purchases: { status: string }[] }>(await call(reportsTab.loader, path, { auth: page(staff), params }));
    expect(tab).toMatchObject({ gone: true, purchases: [{ status: "cancelled" }] });
    expect(await readJson(await call(messageTab.loader, `${path}/message`, { auth: page(staff), params }))).toMatchObject({ deleted: true });

    const status = await call(reportsTab.action, path, {
      auth: page(staff),
      params,
      ...form({ intent: "status", purchaseId: open.purchase.id, status: "completed" }),
    });
    expect(status.status).toBe(409);
    expect(await readJson(status)).toMatchObject({ result: { error: { "": [expect.stringMatching(/deleted their account/)] } } });
  });
});

describe("the saved replies page", () => {
  test("adds a reply (field errors in the form's words), lists it by title, deletes it; an unknown id is 404", async () => {
    const staff = await createAccount("team");
    const post = (fields: Record<string, string>) => call(savedRepliesPage.action, "/dashboard/saved-replies", { auth: page(staff), ...form(fields) });

    const noTitle = await post({ intent: "create", title: " ", body: "Thanks!" });
    expect(noTitle.status).toBe(400);
    expect(await readJson(noTitle)).toMatchObject({ result: { status: "error", error: { title: ["Please give the reply a title."] } } });
    const tooLong = await post({ intent: "create", title: "Long", body: "x".repeat(2001) });
    expect(await readJson(tooLong)).toMatchObject({ result: { status: "error", error: { body: ["A reply is at most 2000 characters."] } } });
    const unknown = await post({ intent: "rename", title: "Hours" });
    expect(unknown.status).toBe(400);
    expect(await readJson(unknown)).toMatchObject({ result: { error: { intent: ["Unknown action."] } } });

    const title = `Opening hours ${crypto.randomUUID()}`;
    const created = await post({ intent: "create", title, body: "We answer from 9 to 5." });
    expect(created.headers.get("Location")).toBe("/dashboard/saved-replies");
    type Listed = { replies: { id: string; title: string; body: string }[] };
    const listed = await readJson<Listed>(await call(savedRepliesPage.loader, "/dashboard/saved-replies", { auth: page(staff) }));
    const mine = listed.replies.find((r) => r.title === title)!;
    expect(mine.body).toBe("We answer from 9 to 5.");

    expect((await post({ intent: "delete", replyId: mine.id })).status).toBe(302);
    const after = await readJson<Listed>(await call(savedRepliesPage.loader, "/dashboard/saved-replies", { auth: page(staff) }));
    expect(after.replies.some((r) => r.id === mine.id)).toBe(false);
    expect((await post({ intent: "delete", replyId: mine.id })).status).toBe(404);
    expect((await post({ intent: "delete", replyId: "not-an-id" })).status).toBe(404);
  });
});

test("a note on something that is no id at all is a 404, not a failed query", async () => {
  const staff = await createAccount("team");
  for (const bad of ["a\u0000b", "not-an-id"]) {
    const onPage = await call(customerPage.action, "/dashboard/users/x", {
      auth: page(staff),
      params: { userId: bad },
      ...form({ intent: "note", body: "x" }),
    });
    expect(onPage.status).toBe(404);
    const params = { customerId: bad };
    const inInbox = await call(inboxThread.action, "/dashboard/inbox/x", { auth: page(staff), params, ...form({ intent: "note", body: "x" }) });
    expect(inInbox.status).toBe(404);
  }
});
