import fs from "node:fs";
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";

import { getOrderDetail } from "~/models/orders-list.server";
import * as conversation from "~/routes/api+/chat+/conversation.$userId";
import * as notes from "~/routes/api+/chat+/threads.$customerId.notes";
import * as savedReplies from "~/routes/api+/saved-replies";
import * as savedReply from "~/routes/api+/saved-replies.$id";
import * as purchases from "~/routes/api+/services+/purchases";
import * as purchaseById from "~/routes/api+/services+/purchases.$id";
import { db, schema } from "~/utils/db.server";
import { env } from "~/utils/env.server";

import { chatAccount, chatServerForFile, connectClient, delay, nextEvent, sendSupport, type ChatAccount } from "../support/chat-helpers";
import { call, catalogue, createAccount, createPurchase, readJson } from "../support/dashboard-helpers";

/** internal notes, saved replies, purchase assignee and due date, "my work". */

const { server, open } = chatServerForFile();

const as = (account: ChatAccount) => ({ bearer: account.token });
const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });

async function postNote(staff: ChatAccount, customerId: string, body: unknown) {
  return call(notes.action, `/api/chat/threads/${customerId}/notes`, { auth: as(staff), method: "POST", params: { customerId }, ...json(body) });
}

describe("internal notes", () => {
  test("POST /api/chat/threads/:customerId/notes: 201 with the note, its author and time", async () => {
    const staff = await chatAccount("team", "Nora Notes");
    const customer = await chatAccount("user");
    const response = await postNote(staff, customer.id, { body: "  Prefers calls after 3pm  " });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({
      status: "success",
      data: {
        note: {
          _id: expect.any(String),
          author: { _id: staff.id, name: "Nora Notes" },
          body: "Prefers calls after 3pm",
          createdAt: expect.stringMatching(/^\d{4}-/),
        },
      },
    });
  });

  test("bad input is a 400 in the error shape; a staff id or an unknown id is 404", async () => {
    const staff = await chatAccount("team");
    const customer = await chatAccount("user");
    for (const body of [{}, { body: "" }, { body: "a\u0000b" }, { body: 5 }, { body: "x".repeat(5001) }]) {
      const response = await postNote(staff, customer.id, body);
      expect(response.status, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(await response.json()).toMatchObject({ success: false, status: "error" });
    }
    expect((await postNote(staff, staff.id, { body: "hi" })).status).toBe(404);
    expect((await postNote(staff, crypto.randomUUID(), { body: "hi" })).status).toBe(404);
  });

  test("a note never reaches the customer: not in the conversation API, no socket event, no e-mail", async () => {
    const staff = await chatAccount("team", "Sam Staff");
    const customer = await chatAccount("user", "Private Customer");
    const secret = `internal-${crypto.randomUUID()}`;
    const customerSocket = await connectClient(server.url, { token: customer.token });
    open.push(customerSocket);
    const staffSocket = await connectClient(server.url, { token: staff.token });
    open.push(staffSocket);
    const seen: string[] = [];
    customerSocket.onAny((event: string, ...args: unknown[]) => seen.push(`${event} ${JSON.stringify(args)}`));

    await sendSupport(customerSocket, { message: "Where is my report?" });
    expect((await postNote(staff, customer.id, { body: secret })).status).toBe(201);
    // A reply after the note: once the customer has it, anything the note could have caused has arrived too.
    const reply = nextEvent(customerSocket, "supportMessage", (m) => m.message === "Tomorrow morning.");
    await sendSupport(staffSocket, { message: "Tomorrow morning.", userId: customer.id });
    await reply;
    expect(seen.some((line) => line.includes("Tomorrow morning."))).toBe(true);
    expect(seen.filter((line) => line.includes(secret))).toEqual([]);

    for (const who of [customer, staff]) {
      const response = await call(conversation.loader, `/api/chat/conversation/${customer.id}`, { auth: as(who), params: { userId: customer.id } });
      expect(response.status).toBe(200);
      const text = JSON.stringify(await response.json());
      expect(text).toContain("Tomorrow morning.");
      expect(text).not.toContain(secret);
    }

    // Offline, the next reply e-mails the customer: the e-mail carries no note.
    customerSocket.close();
    await delay(50);
    await sendSupport(staffSocket, { message: "Sent it over.", userId: customer.id });
    const outbox = () =>
      fs.existsSync(env.outboxDir)
        ? fs
            .readdirSync(env.outboxDir)
            .map((f) => fs.readFileSync(`${env.outboxDir}/${f}`, "utf8"))
            .filter((m) => m.includes(customer.email))
        : [];
    for (let i = 0; i < 50 && outbox().length === 0; i++) await delay(20);
    expect(outbox().length).toBeGreaterThan(0);
    expect(outbox().filter((mail) => mail.includes(secret))).toEqual([]);
  });
});

describe("saved replies", () => {
  test("POST, GET by title, DELETE; bad input 400, unknown id 404", async () => {
    const staff = await chatAccount("team");
    const title = `Zz refund ${crypto.randomUUID().slice(0, 6)}`;
    const created = await call(savedReplies.action, "/api/saved-replies", {
      auth: as(staff),
      method: "POST",
      ...json({ title, body: "Your refund is on its way.\nIt takes 5-10 days." }),
    });
    expect(created.status).toBe(201);
    const { data } = await readJson<{ data: { reply: { _id: string } } }>(created);
    expect(data.reply).toEqual({ _id: expect.any(String), title, body: "Your refund is on its way.\nIt takes 5-10 days." });

    const listed = await readJson<{ status: string; data: { replies: { _id: string; title: string }[] } }>(
      await call(savedReplies.loader, "/api/saved-replies", { auth: as(staff) }),
    );
    expect(listed.status).toBe("success");
    expect(listed.data.replies.map((r) => r._id)).toContain(data.reply._id);

    for (const body of [
      { title: "", body: "x" },
      { title: "t", body: "" },
      { title: "a\nb", body: "x" },
      { title: "t", body: "x".repeat(2001) },
    ]) {
      expect((await call(savedReplies.action, "/api/saved-replies", { auth: as(staff), method: "POST", ...json(body) })).status).toBe(400);
    }

    const removed = await call(savedReply.action, `/api/saved-replies/${data.reply._id}`, {
      auth: as(staff),
      method: "DELETE",
      params: { id: data.reply._id },
    });
    expect(await removed.json()).toEqual({ status: "success" });
    const again = await call(savedReply.action, `/api/saved-replies/${data.reply._id}`, { auth: as(staff), method: "DELETE", params: { id: data.reply._id } });
    expect(again.status).toBe(404);
    expect((await call(savedReply.action, "/api/saved-replies/nope", { auth: as(staff), method: "DELETE", params: { id: "nope" } })).status).toBe(404);
  });
});

describe("purchase assignee and due date, my work", () => {
  test("the order's history names the staff member who marked its work completed (from the audit log)", async () => {
    const services = await catalogue();
    const staff = await createAccount("team", { name: "Cora Completer" });
    const customer = await createAccount("user");
    const { purchase, order } = await createPurchase(customer.user.id, services[0]);
    const { purchase: untouched, order: before } = await createPurchase(customer.user.id, services[0], { status: "completed" });
    const done = await call(purchaseById.action, `/api/services/purchases/${purchase.id}`, {
      auth: staff,
      method: "PATCH",
      params: { id: purchase.id },
      ...json({ status: "completed" }),
    });
    expect(done.status).toBe(200);
    const completed = (await getOrderDetail(order.id))!.timeline.filter((entry) => entry.kind === "work");
    expect(completed.map((entry) => [entry.title, entry.actor])).toEqual([[`${services[0].name} completed`, "Cora Completer"]]);
    // Work completed before the audit log existed (no entry) still shows, by "Staff".
    await db.update(schema.purchases).set({ completedAt: new Date() }).where(eq(schema.purchases.id, untouched.id));
    const older = (await getOrderDetail(before.id))!.timeline.filter((entry) => entry.kind === "work");
    expect(older.map((entry) => entry.actor)).toEqual(["Staff"]);
  });

  test("PATCH sets assignee and due date; GET ?assigneeId=me lists open work soonest due first", async () => {
    const services = await catalogue();
    const staff = await createAccount("team", { name: "Wendy Work" });
    const other = await createAccount("team");
    const customer = await createAccount("user");
    const day = 24 * 60 * 60 * 1000;
    const make = async () => (await createPurchase(customer.user.id, services[0])).purchase.id;
    const [later, overdue, undated, thisWeek, done, others] = [await make(), await make(), await make(), await make(), await make(), await make()];
    const patch = (id: string, body: unknown, who = staff) =>
      call(purchaseById.action, `/api/services/purchases/${id}`, { auth: who, method: "PATCH", params: { id }, ...json(body) });

    const set = await patch(later, { assigneeId: staff.user.id, dueAt: new Date(Date.now() + 20 * day).toISOString() });
    expect(set.status).toBe(200);
    expect((await readJson<{ data: { assignee: unknown; dueAt: string } }>(set)).data).toMatchObject({
      assignee: { _id: staff.user.id, name: "Wendy Work" },
      dueAt: expect.stringMatching(/^\d{4}-/),
    });
    await patch(overdue, { assigneeId: staff.user.id, dueAt: new Date(Date.now() - day).toISOString() });
    await patch(undated, { assigneeId: staff.user.id });
    await patch(thisWeek, { assigneeId: staff.user.id, dueAt: new Date(Date.now() + 3 * day).toISOString() });
    await patch(done, { assigneeId: staff.user.id, status: "completed", dueAt: new Date(Date.now() - 2 * day).toISOString() });
    await patch(others, { assigneeId: other.user.id, dueAt: new Date(Date.now() - 3 * day).toISOString() });

    const mine = async (query: string) =>
      (
        await readJson<{ data: { purchases: { _id: string }[] } }>(await call(purchases.loader, `/api/services/purchases?${query}`, { auth: staff }))
      ).data.purchases.map((p) => p._id);
    expect(await mine("assigneeId=me")).toEqual([overdue, thisWeek, later, undated]);
    expect(await mine("assigneeId=me&due=overdue")).toEqual([overdue]);
    expect(await mine("assigneeId=me&due=week")).toEqual([overdue, thisWeek]);

    // Unassigning and clearing the date.
    const cleared = await readJson<{ data: { assignee: unknown; dueAt: unknown } }>(await patch(later, { assigneeId: null, dueAt: null }));
    expect(cleared.data).toMatchObject({ assignee: null, dueAt: null });
    expect(await mine("assigneeId=me")).toEqual([overdue, thisWeek, undated]);
  });

  test("my work leaves out the open work of a deleted customer, and keeps a client's while a member remains", async () => {
    const services = await catalogue();
    const staff = await createAccount("team");
    const gone = await createAccount("user");
    const team = await createAccount("user");
    const colleague = await createAccount("user");
    await db.update(schema.clientMembers).set({ clientId: team.user.id, role: "owner" }).where(eq(schema.clientMembers.userId, colleague.user.id));
    const goneWork = (await createPurchase(gone.user.id, services[0])).purchase.id;
    const teamWork = (await createPurchase(team.user.id, services[0])).purchase.id;
    for (const id of [goneWork, teamWork]) {
      await call(purchaseById.action, `/api/services/purchases/${id}`, {
        auth: staff,
        method: "PATCH",
        params: { id },
        ...json({ assigneeId: staff.user.id }),
      });
    }
    const mine = async () =>
      (
        await readJson<{ data: { purchases: { _id: string }[] } }>(await call(purchases.loader, "/api/services/purchases?assigneeId=me", { auth: staff }))
      ).data.purchases.map((p) => p._id);
    expect(await mine()).toEqual(expect.arrayContaining([goneWork, teamWork]));
    // Each account deleted as its owner would (the rows the deletion leaves: anonymised, its membership ended).
    for (const account of [gone, team]) {
      await db
        .update(schema.users)
        .set({ email: `deleted-${account.user.id}@deleted.invalid` })
        .where(eq(schema.users.id, account.user.id));
      await db.update(schema.clientMembers).set({ removedAt: new Date() }).where(eq(schema.clientMembers.userId, account.user.id));
    }
    expect(await mine()).toEqual([teamWork]);
  });

  test("an assignee who is no team member, a bad date or a bad filter is a 400", async () => {
    const services = await catalogue();
    const staff = await createAccount("team");
    const customer = await createAccount("user");
    const { purchase } = await createPurchase(customer.user.id, services[0]);
    const patch = (body: unknown) =>
      call(purchaseById.action, `/api/services/purchases/${purchase.id}`, { auth: staff, method: "PATCH", params: { id: purchase.id }, ...json(body) });
    for (const body of [{ assigneeId: customer.user.id }, { assigneeId: "nope" }, { dueAt: "tomorrow" }, { dueAt: 5 }, {}]) {
      const response = await patch(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await response.json()).toMatchObject({ success: false, status: "error" });
    }
    for (const query of ["assigneeId=you", "assigneeId=me&due=someday", "due=week", ""]) {
      expect((await call(purchases.loader, `/api/services/purchases?${query}`, { auth: staff })).status, query).toBe(400);
    }
  });
});
