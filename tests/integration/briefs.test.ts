import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";

import { BRIEF_REMINDER_DELAY_MS, claimBriefReminders, sendBriefReminders } from "~/models/briefs.server";
import { getAttachmentFor, removeUnsentAttachments } from "~/models/chat-attachments.server";
import { createPlanOrder, createServicesOrder, fulfilCheckoutSession, testCheckoutSession } from "~/models/orders.server";
import * as planBrief from "~/routes/api+/plans.$id.brief";
import * as serviceBrief from "~/routes/api+/services+/$id.brief";
import * as myPurchases from "~/routes/api+/services+/my-purchases";
import * as purchaseBrief from "~/routes/api+/services+/purchases.$id.brief";
import * as subscriptionBrief from "~/routes/api+/subscriptions+/$id.brief";
import * as mySubscriptions from "~/routes/api+/subscriptions+/my";
import { db, schema } from "~/utils/db.server";

import { upload } from "../support/chat-attachment-helpers";
import { call, readJson } from "../support/dashboard-helpers";
import { bearerFor, catalogue, createAccount, type Account } from "../support/factories";
import { readOutbox } from "../support/outbox";
import { uniqueEmail } from "../support/requests";

/** Briefs (decision 200): questions per service and plan, answers per paid purchase and plan, the one reminder. */

const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });

const QUESTIONS = [
  { key: "brand", label: "Brand name", kind: "text", required: true },
  { key: "goals", label: "What should the campaign achieve?", kind: "longText", required: true },
  { key: "tone", label: "Tone", kind: "choice", required: false, options: ["Playful", "Serious"] },
  { key: "site", label: "Website", kind: "url", required: false },
  { key: "logo", label: "Logo", kind: "file", required: false },
];

let staff: Account;
let services: Awaited<ReturnType<typeof catalogue>>;

beforeAll(async () => {
  services = await catalogue();
  staff = await createAccount({ role: "team", name: "Brief Staff" });
});

const putQuestions = (serviceId: string, questions: unknown, auth: Account = staff) =>
  call(serviceBrief.action, `/api/services/${serviceId}/brief`, { auth, method: "PUT", params: { id: serviceId }, ...json({ questions }) });

/** Buys the services on the test checkout and returns the buyer (signed in) and their purchases by service id. */
async function buy(serviceIds: string[]) {
  const email = uniqueEmail("briefs");
  const started = await createServicesOrder({ name: "Brief Buyer", email }, serviceIds);
  const [order] = await db.select().from(schema.orders).where(eq(schema.orders.id, started.orderId));
  expect(await fulfilCheckoutSession(testCheckoutSession(order!, true))).toBe("fulfilled");
  const [user] = await db.select().from(schema.users).where(eq(schema.users.email, email));
  const purchases = await db.select().from(schema.purchases).where(eq(schema.purchases.orderId, order!.id));
  const buyer = { user: user!, id: user!.id, name: user!.name, email, role: "user" as const, bearer: await bearerFor(user!.id) };
  return { buyer: buyer as unknown as Account, order: order!, purchase: (serviceId: string) => purchases.find((p) => p.serviceId === serviceId)! };
}

const getBrief = (purchaseId: string, auth: Account | null) =>
  call(purchaseBrief.loader, `/api/services/purchases/${purchaseId}/brief`, { auth, params: { id: purchaseId } });
const putAnswers = (purchaseId: string, answers: unknown, auth: Account) =>
  call(purchaseBrief.action, `/api/services/purchases/${purchaseId}/brief`, { auth, method: "PUT", params: { id: purchaseId }, ...json({ answers }) });

describe("the questions of a service or a plan", () => {
  test("staff set a service's questions; the answer echoes them, choices keep their options", async () => {
    const response = await putQuestions(services[0]!.id, QUESTIONS);
    expect(response.status).toBe(200);
    const body = await readJson<{ success: boolean; data: { questions: unknown[] } }>(response);
    expect(body).toEqual({ success: true, data: { questions: QUESTIONS } });
  });

  test("bad questions are a 400 that says what is wrong; customers 403; an unknown service 404", async () => {
    const id = services[1]!.id;
    const cases: Array<[unknown, RegExp]> = [
      [Array.from({ length: 31 }, (_, i) => ({ key: `q${i}`, label: `Q${i}`, kind: "text" })), /at most 30 questions/],
      [[QUESTIONS[0], QUESTIONS[0]], /share the key "brand"/],
      [[{ key: "tone", label: "Tone", kind: "choice", options: ["Only one"] }], /at least 2 options/],
      [[{ key: "x", label: "Bad\u0000label", kind: "text" }], /characters that are not allowed/],
      [[{ key: "Bad Key", label: "X", kind: "text" }], /key is 1 to 40 lowercase/],
      [[{ key: "x", label: "X", kind: "video" }], /kind is one of/],
      ["not a list", /questions is a list/],
    ];
    for (const [questions, message] of cases) {
      const response = await putQuestions(id, questions);
      expect(response.status, JSON.stringify(questions).slice(0, 60)).toBe(400);
      expect((await readJson<{ message: string }>(response)).message).toMatch(message);
    }
    const customer = await createAccount();
    expect((await putQuestions(id, QUESTIONS, customer)).status).toBe(403);
    expect((await putQuestions(crypto.randomUUID(), QUESTIONS)).status).toBe(404);
    expect((await putQuestions("not-an-id", QUESTIONS)).status).toBe(404);
  });

  test("options belong to a choice: another kind keeps none", async () => {
    const response = await putQuestions(services[1]!.id, [{ key: "x", label: "X", kind: "text", options: ["a", "b"] }]);
    expect(await readJson(response)).toEqual({ success: true, data: { questions: [{ key: "x", label: "X", kind: "text", required: false }] } });
  });

  test("a plan's questions, by the plan's id or key", async () => {
    const [plan] = await db.select().from(schema.plans).where(eq(schema.plans.key, "pro"));
    for (const id of [plan!.id, "pro"]) {
      const response = await call(planBrief.action, `/api/plans/${id}/brief`, {
        auth: staff,
        method: "PUT",
        params: { id },
        ...json({ questions: QUESTIONS.slice(0, 2) }),
      });
      expect(response.status).toBe(200);
    }
    const missing = await call(planBrief.action, `/api/plans/nope/brief`, { auth: staff, method: "PUT", params: { id: "nope" }, ...json({ questions: [] }) });
    expect(missing.status).toBe(404);
  });
});

describe("a purchase's brief", () => {
  test("paid purchases of a service with questions need a brief; without questions none; the Purchase says so", async () => {
    await putQuestions(services[2]!.id, QUESTIONS);
    await putQuestions(services[3]!.id, []);
    const { buyer, purchase } = await buy([services[2]!.id, services[3]!.id]);
    const list = await readJson<{ data: Array<{ _id: string; brief: unknown }> }>(
      await call(myPurchases.loader, "/api/services/my-purchases", { auth: buyer }),
    );
    const byId = new Map(list.data.map((p) => [p._id, p.brief]));
    expect(byId.get(purchase(services[2]!.id).id)).toEqual({ required: true, submittedAt: null });
    expect(byId.get(purchase(services[3]!.id).id)).toEqual({ required: false, submittedAt: null });
    const empty = await readJson(await getBrief(purchase(services[3]!.id).id, buyer));
    expect(empty).toEqual({ status: "success", data: { brief: { questions: [], answers: {}, submittedAt: null } } });
  });

  test("the questions are those of the time of payment: a later edit changes only later orders", async () => {
    const service = services[4]!;
    await putQuestions(service.id, QUESTIONS.slice(0, 2));
    const { buyer, purchase } = await buy([service.id]);
    await putQuestions(service.id, [{ key: "other", label: "Something else", kind: "text", required: true }]);
    const brief = await readJson<{ data: { brief: { questions: Array<{ key: string }> } } }>(await getBrief(purchase(service.id).id, buyer));
    expect(brief.data.brief.questions.map((q) => q.key)).toEqual(["brand", "goals"]);
    const later = await buy([service.id]);
    const laterBrief = await readJson<{ data: { brief: { questions: Array<{ key: string }> } } }>(await getBrief(later.purchase(service.id).id, later.buyer));
    expect(laterBrief.data.brief.questions.map((q) => q.key)).toEqual(["other"]);
  });

  test("400 names each required question left empty; bad answers say which question; then the owner answers and staff read it", async () => {
    const service = services[2]!;
    const { buyer, purchase } = await buy([service.id]);
    const id = purchase(service.id).id;

    const empty = await putAnswers(id, { brand: "  ", tone: "Playful" }, buyer);
    expect(empty.status).toBe(400);
    const emptyBody = await readJson<{ message: string; code: string }>(empty);
    expect(emptyBody.message).toContain('"Brand name"');
    expect(emptyBody.message).toContain('"What should the campaign achieve?"');
    expect(emptyBody.code).toBe("INVALID_INPUT");

    for (const [answers, message] of [
      [{ brand: "Acme", goals: "Grow", tone: "Angry" }, /"Tone": choose one of the options/],
      [{ brand: "Acme", goals: "Grow", site: "javascript:alert(1)" }, /"Website": enter a web address/],
      [{ brand: "Acme", goals: "Grow", extra: "x" }, /no question "extra"/],
      [{ brand: "Ac\u0000me", goals: "Grow" }, /"Brand name" contains characters/],
      [{ brand: "Acme", goals: "Grow", logo: crypto.randomUUID() }, /"Logo": a file was not found/],
      [{ brand: "Acme", goals: "Grow", logo: "not-an-id" }, /"Logo": a file answer is an upload id/],
    ] as Array<[Record<string, unknown>, RegExp]>) {
      const response = await putAnswers(id, answers, buyer);
      expect(response.status, JSON.stringify(answers)).toBe(400);
      expect((await readJson<{ message: string }>(response)).message).toMatch(message);
    }

    const stranger = await createAccount();
    expect((await putAnswers(id, { brand: "Acme", goals: "Grow" }, stranger)).status).toBe(404);
    expect((await getBrief(id, stranger)).status).toBe(404);
    expect((await putAnswers(id, { brand: "Acme", goals: "Grow" }, staff)).status).toBe(403);
    expect((await getBrief(id, null)).status).toBe(401);

    const ok = await putAnswers(id, { brand: " Acme ", goals: "Grow\nfast", tone: "Serious", site: "acme.example" }, buyer);
    expect(ok.status).toBe(200);
    const answered = await readJson<{ data: { brief: { answers: unknown; submittedAt: string } } }>(ok);
    expect(answered.data.brief.answers).toEqual({ brand: "Acme", goals: "Grow\nfast", tone: "Serious", site: "https://acme.example/" });
    expect(answered.data.brief.submittedAt).toMatch(/^\d{4}-/);

    const seen = await readJson<{ data: { brief: { answers: unknown; submittedAt: string } } }>(await getBrief(id, staff));
    expect(seen.data.brief).toMatchObject({ answers: answered.data.brief.answers, submittedAt: answered.data.brief.submittedAt });

    // A correction keeps the first submission time.
    const corrected = await readJson<{ data: { brief: { answers: { brand: string }; submittedAt: string } } }>(
      await putAnswers(id, { brand: "Acme Co", goals: "Grow" }, buyer),
    );
    expect(corrected.data.brief.answers.brand).toBe("Acme Co");
    expect(corrected.data.brief.submittedAt).toBe(answered.data.brief.submittedAt);
  });

  test("a file answer is the owner's own upload: kept past the unsent sweep and opened by staff; another's upload is refused", async () => {
    const service = services[2]!;
    const { buyer, purchase } = await buy([service.id]);
    const id = purchase(service.id).id;
    const uploaded = await readJson<{ data: { attachment: { _id: string } } }>(await upload(buyer, "logo.png"));
    const fileId = uploaded.data.attachment._id;

    const other = await createAccount();
    const theirs = await readJson<{ data: { attachment: { _id: string } } }>(await upload(other, "theirs.png"));
    const refused = await putAnswers(id, { brand: "Acme", goals: "Grow", logo: theirs.data.attachment._id }, buyer);
    expect(refused.status).toBe(400);

    const ok = await putAnswers(id, { brand: "Acme", goals: "Grow", logo: fileId }, buyer);
    expect(ok.status).toBe(200);
    expect((await readJson<{ data: { brief: { answers: { logo: string[] } } } }>(ok)).data.brief.answers.logo).toEqual([fileId]);
    // Staff may open it (an unsent upload is otherwise its uploader's only).
    expect((await getAttachmentFor(staff, fileId)).id).toBe(fileId);
    // Two days on, the sweep of unsent uploads leaves it.
    await db
      .update(schema.chatAttachments)
      .set({ createdAt: new Date(Date.now() - 3 * 24 * 3600 * 1000) })
      .where(eq(schema.chatAttachments.id, fileId));
    await removeUnsentAttachments();
    expect(await getAttachmentFor(buyer, fileId)).toMatchObject({ id: fileId });
    // Dropped from the brief, it is an unsent upload again, and swept.
    expect((await putAnswers(id, { brand: "Acme", goals: "Grow" }, buyer)).status).toBe(200);
    await removeUnsentAttachments();
    await expect(getAttachmentFor(buyer, fileId)).rejects.toMatchObject({ status: 404 });
  });
});

describe("a plan's brief", () => {
  test("a subscription paid after the plan got questions has a brief; the Subscription says so; the owner answers", async () => {
    await call(planBrief.action, `/api/plans/vip/brief`, { auth: staff, method: "PUT", params: { id: "vip" }, ...json({ questions: QUESTIONS.slice(0, 1) }) });
    const email = uniqueEmail("planbrief");
    const started = await createPlanOrder({ name: "Plan Buyer", email }, "vip");
    const [order] = await db.select().from(schema.orders).where(eq(schema.orders.id, started.orderId));
    expect(await fulfilCheckoutSession(testCheckoutSession(order!, true))).toBe("fulfilled");
    const [user] = await db.select().from(schema.users).where(eq(schema.users.email, email));
    const [subscription] = await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.orderId, order!.id));
    const buyer = { bearer: await bearerFor(user!.id) };
    const id = subscription!.id;

    const mine = await readJson<{ data: { subscriptions: Array<{ _id: string; brief: unknown }> } }>(
      await call(mySubscriptions.loader, "/api/subscriptions/my", { auth: buyer }),
    );
    expect(mine.data.subscriptions.find((s) => s._id === id)?.brief).toEqual({ required: true, submittedAt: null });

    const put = (answers: unknown) =>
      call(subscriptionBrief.action, `/api/subscriptions/${id}/brief`, { auth: buyer, method: "PUT", params: { id }, ...json({ answers }) });
    const missing = await put({});
    expect(missing.status).toBe(400);
    expect((await readJson<{ message: string }>(missing)).message).toBe('Please answer the required question: "Brand name".');
    expect((await put({ brand: "Plan Co" })).status).toBe(200);
    const read = await readJson<{ data: { brief: { answers: unknown } } }>(
      await call(subscriptionBrief.loader, `/api/subscriptions/${id}/brief`, { auth: staff, params: { id } }),
    );
    expect(read.data.brief.answers).toEqual({ brand: "Plan Co" });
  });
});

describe("the one reminder", () => {
  async function unansweredBrief(hoursAgo: number) {
    const service = services[2]!;
    const { buyer, purchase } = await buy([service.id]);
    const id = purchase(service.id).id;
    await db
      .update(schema.briefs)
      .set({ paidAt: new Date(Date.now() - hoursAgo * 3600 * 1000) })
      .where(eq(schema.briefs.purchaseId, id));
    return { buyer, purchaseId: id };
  }
  const remindersTo = (email: string) => readOutbox(email).filter((mail) => mail.subject.startsWith("We still need your brief"));

  test("two claimers at once claim each due brief once; only briefs 48 hours unanswered are due", async () => {
    const due = await unansweredBrief(49);
    const young = await unansweredBrief(47);
    const answered = await unansweredBrief(60);
    expect((await putAnswers(answered.purchaseId, { brand: "Acme", goals: "Grow" }, answered.buyer)).status).toBe(200);

    const [first, second] = await Promise.all([claimBriefReminders(), claimBriefReminders()]);
    const claimedPurchases = [...first, ...second].map((row) => row.purchaseId);
    expect(claimedPurchases.filter((id) => id === due.purchaseId)).toHaveLength(1);
    expect(claimedPurchases).not.toContain(young.purchaseId);
    expect(claimedPurchases).not.toContain(answered.purchaseId);
    expect(await claimBriefReminders()).toEqual([]);
  });

  test("the reminder e-mail goes out once, with a link to the brief; a refunded purchase owes none", async () => {
    const due = await unansweredBrief(50);
    const refunded = await unansweredBrief(50);
    await db.update(schema.purchases).set({ status: "refunded" }).where(eq(schema.purchases.id, refunded.purchaseId));
    const results = await Promise.all([sendBriefReminders(), sendBriefReminders()]);
    expect(results.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    await sendBriefReminders(new Date(Date.now() + BRIEF_REMINDER_DELAY_MS));
    const mails = remindersTo(due.buyer.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`/dashboard/services/${due.purchaseId}/brief`);
    expect(remindersTo(refunded.buyer.email)).toHaveLength(0);
  });
});
