import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";

import { setBriefQuestions } from "~/models/briefs.server";
import { getCustomerProfile } from "~/models/customer-profile.server";
import { createPlanOrder, createServicesOrder, fulfilCheckoutSession, testCheckoutSession } from "~/models/orders.server";
import * as overview from "~/routes/dashboard+/_customer+/services._index";
import * as planEditor from "~/routes/dashboard+/_staff+/catalogue_.plans.$planId";
import * as serviceEditor from "~/routes/dashboard+/_staff+/catalogue_.services.$serviceId";
import * as orderPage from "~/routes/dashboard+/_staff+/orders+/$orderId";
import * as planBriefPage from "~/routes/dashboard+/plans_.$subscriptionId.brief";
import * as purchaseBriefPage from "~/routes/dashboard+/services_.$purchaseId.brief";
import * as success from "~/routes/purchase.success";
import { db, schema } from "~/utils/db.server";

import { callRoute } from "../support/call-route";
import { catalogue, createAccount, sessionCookieFor, type Account } from "../support/factories";
import { samples } from "../support/reports-cases";
import { BASE_URL, formRequest, uniqueEmail } from "../support/requests";

/** The brief's screens (decision 201): the staff question editor, the buyer's form, "Brief needed", staff reading. */

const asUser = (account: Account, request: Request) => {
  request.headers.set("Cookie", account.cookie);
  return request;
};
const page = (handler: Parameters<typeof callRoute>[0], account: Account, path: string, params: Record<string, string>) =>
  callRoute(handler, asUser(account, new Request(`${BASE_URL}${path}`)), { params });
const post = (
  handler: Parameters<typeof callRoute>[0],
  account: Account,
  path: string,
  fields: Record<string, string | string[]>,
  params: Record<string, string>,
) => callRoute(handler, asUser(account, formRequest(path, fields)), { params });

const editorFields = (rows: Array<{ label: string; kind: string; required?: boolean; options?: string; key?: string }>, extra: Record<string, string> = {}) => {
  const fields: Record<string, string> = { formId: "brief", intent: "save-brief-questions", ...extra };
  rows.forEach((row, i) => {
    fields[`questions[${i}].label`] = row.label;
    fields[`questions[${i}].kind`] = row.kind;
    if (row.required) fields[`questions[${i}].required`] = "on";
    if (row.options) fields[`questions[${i}].options`] = row.options;
    if (row.key) fields[`questions[${i}].key`] = row.key;
  });
  return fields;
};

describe("the question editor beside a service and a plan", () => {
  test("staff save questions (keys from the labels), see them on the page, and the change is in the audit log", async () => {
    const staff = await createAccount({ role: "team", name: "Editor Staff" });
    const service = (await catalogue())[2]!;
    const path = `/dashboard/catalogue/services/${service.id}`;
    const saved = await post(
      serviceEditor.action,
      staff,
      path,
      editorFields([
        { label: "Brand name", kind: "text", required: true },
        { label: "Tone", kind: "choice", options: "Playful\nSerious\n" },
        { label: "Logo", kind: "file" },
      ]),
      { serviceId: service.id },
    );
    expect(saved.status).toBe(302);
    expect(saved.location).toBe(`${path}#brief-heading`);
    const loaded = await page(serviceEditor.loader, staff, path, { serviceId: service.id });
    expect(loaded.data.questions).toEqual([
      { key: "brand_name", label: "Brand name", kind: "text", required: true },
      { key: "tone", label: "Tone", kind: "choice", required: false, options: ["Playful", "Serious"] },
      { key: "logo", label: "Logo", kind: "file", required: false },
    ]);
    // A renamed question keeps its key: answers stay filed under it.
    await post(serviceEditor.action, staff, path, editorFields([{ label: "Your brand", kind: "text", key: "brand_name" }]), { serviceId: service.id });
    expect((await page(serviceEditor.loader, staff, path, { serviceId: service.id })).data.questions).toEqual([
      { key: "brand_name", label: "Your brand", kind: "text", required: false },
    ]);
    const audit = await db.select().from(schema.auditEntries).orderBy(schema.auditEntries.seq);
    expect(audit.filter((e) => e.targetId === service.id && e.action === "service.brief").map((e) => [e.actorName, e.detail])).toEqual([
      ["Editor Staff", "3 questions: Brand name; Tone; Logo"],
      ["Editor Staff", "1 question: Your brand"],
    ]);
  });

  test("each problem comes back under its question; add, move and remove work as posts (without JavaScript), saving nothing", async () => {
    const staff = await createAccount({ role: "team" });
    const [plan] = await db.select().from(schema.plans).limit(1);
    const path = `/dashboard/catalogue/plans/${plan!.id}`;
    const params = { planId: plan!.id };
    const bad = await post(
      planEditor.action,
      staff,
      path,
      editorFields([
        { label: "", kind: "text" },
        { label: "Tone", kind: "choice", options: "Only" },
      ]),
      params,
    );
    expect(bad.status).toBe(400);
    expect(bad.data.result.error).toEqual({
      "questions[0].label": ["Each question needs a label"],
      "questions[1].options": ['"Tone" is a choice: give it at least 2 options'],
    });

    const added = await post(
      planEditor.action,
      staff,
      path,
      editorFields([{ label: "Goals", kind: "longText" }], {
        __intent__: JSON.stringify({ type: "insert", payload: { name: "questions", defaultValue: { kind: "text" } } }),
      }),
      params,
    );
    expect(added.status).toBe(200);
    expect(added.data.result.initialValue.questions).toEqual([{ label: "Goals", kind: "longText" }, { kind: "text" }]);
    const moved = await post(
      planEditor.action,
      staff,
      path,
      editorFields(
        [
          { label: "A", kind: "text" },
          { label: "B", kind: "url" },
        ],
        { __intent__: JSON.stringify({ type: "reorder", payload: { name: "questions", from: 1, to: 0 } }) },
      ),
      params,
    );
    expect(moved.data.result.initialValue.questions.map((q: { label: string }) => q.label)).toEqual(["B", "A"]);
    expect((await page(planEditor.loader, staff, path, params)).data.questions).toEqual([]);

    const tooMany = editorFields(Array.from({ length: 31 }, (_, i) => ({ label: `Q${i}`, kind: "text" })));
    expect((await post(planEditor.action, staff, path, tooMany, params)).data.result.error).toEqual({ questions: ["A brief has at most 30 questions"] });

    const customer = await createAccount({ role: "user" });
    expect((await post(planEditor.action, customer, path, editorFields([{ label: "X", kind: "text" }]), params)).status).toBe(403);
  });
});

const QUESTIONS = [
  { key: "brand", label: "Brand name", kind: "text", required: true },
  { key: "goals", label: "Goals", kind: "longText", required: true },
  { key: "tone", label: "Tone", kind: "choice", required: false, options: ["Playful", "Serious"] },
  { key: "site", label: "Website", kind: "url", required: false },
  { key: "logo", label: "Logo", kind: "file", required: true },
];

/** Pays an order on the test checkout (a service, or a plan by key) and returns the buyer as a signed-in account and what they bought. */
async function buy(what: { serviceId: string } | { plan: string }) {
  const email = uniqueEmail("briefpage");
  const started =
    "plan" in what
      ? await createPlanOrder({ name: "Page Buyer", email }, what.plan)
      : await createServicesOrder({ name: "Page Buyer", email }, [what.serviceId]);
  const [order] = await db.select().from(schema.orders).where(eq(schema.orders.id, started.orderId));
  expect(await fulfilCheckoutSession(testCheckoutSession(order!, true))).toBe("fulfilled");
  const [user] = await db.select().from(schema.users).where(eq(schema.users.email, email));
  const [purchase] = await db.select().from(schema.purchases).where(eq(schema.purchases.orderId, order!.id));
  const [subscription] = await db.select().from(schema.subscriptions).where(eq(schema.subscriptions.orderId, order!.id));
  const buyer = { ...user!, user: user!, cookie: await sessionCookieFor(user!.id) } as unknown as Account;
  return { buyer, order: order!, purchaseId: purchase?.id ?? "", subscriptionId: subscription?.id ?? "" };
}

/** The brief form as the browser posts it: multipart, files under upload.<key>. */
function briefPost(account: Account, path: string, fields: Array<[string, string | File]>) {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  return new Request(`${BASE_URL}${path}`, { method: "POST", body: form, headers: { Cookie: account.cookie, Origin: BASE_URL } });
}
const png = (name = "logo.png") => new File([new Uint8Array(samples.png())], name, { type: "image/png" });

describe("the buyer's brief page", () => {
  test("the owner answers with a file (one multipart post, no JavaScript needed); each required question left empty is named; staff read it", async () => {
    const staff = await createAccount({ role: "team" });
    const service = (await catalogue())[3]!;
    await setBriefQuestions(staff, "service", service.id, QUESTIONS);
    const { buyer, purchaseId } = await buy({ serviceId: service.id });
    const path = `/dashboard/services/${purchaseId}/brief`;
    const params = { purchaseId };

    const opened = await page(purchaseBriefPage.loader, buyer, path, params);
    expect(opened.data).toMatchObject({ title: service.name, hasBrief: true, canAnswer: true, brief: { submittedAt: null, answers: {} } });
    expect(opened.data.back).toEqual({ to: `/dashboard/services/${purchaseId}`, label: "Back to the service" });

    // Brand and goals left empty, a file chosen: the file is kept (listed back) while the rest is fixed.
    const refused = await callRoute(
      purchaseBriefPage.action,
      briefPost(buyer, path, [
        ["answers.brand", " "],
        ["answers.tone", "Serious"],
        ["upload.logo", png()],
      ]),
      { params },
    );
    expect(refused.status).toBe(400);
    expect(refused.data.result.error).toEqual({
      "": ['Please answer the required questions: "Brand name", "Goals".'],
      "answers.brand": ["Please answer this question"],
      "answers.goals": ["Please answer this question"],
    });
    const [uploadId] = Object.keys(refused.data.uploads);
    expect(refused.data.uploads[uploadId!]).toMatchObject({ fileName: "logo.png", mimeType: "image/png" });
    expect(refused.data.result.initialValue.answers).toMatchObject({ tone: "Serious", logo: uploadId });

    const sent = await callRoute(
      purchaseBriefPage.action,
      briefPost(buyer, path, [
        ["answers.brand", "Acme"],
        ["answers.goals", "More followers\nMore sales"],
        ["answers.tone", "Serious"],
        ["answers.site", "acme.example"],
        ["answers.logo", uploadId!],
      ]),
      { params },
    );
    expect(sent.status).toBe(302);
    expect(sent.location).toBe(path);
    const read = await page(purchaseBriefPage.loader, staff, path, params);
    expect(read.data).toMatchObject({
      canAnswer: false,
      back: { to: `/dashboard/users/${buyer.id}` },
      brief: { answers: { brand: "Acme", goals: "More followers\r\nMore sales", tone: "Serious", site: "https://acme.example/", logo: [uploadId] } },
    });
    expect(read.data.brief.submittedAt).toEqual(expect.any(String));
    expect(read.data.files[uploadId!]).toMatchObject({ fileName: "logo.png" });

    // A wrong file type is refused under its question, by the chat attachment rules.
    const wrong = await callRoute(
      purchaseBriefPage.action,
      briefPost(buyer, path, [
        ["answers.brand", "Acme"],
        ["answers.goals", "G"],
        ["upload.logo", new File(["not a pdf"], "notes.pdf", { type: "application/pdf" })],
      ]),
      { params },
    );
    expect(wrong.status).toBe(400);
    expect(wrong.data.result.error["answers.logo"]?.[0]).toMatch(/^notes\.pdf: /);
  });

  test("only the owner answers: staff 403, another customer 404 on the page and the post; a plan's brief works the same", async () => {
    const staff = await createAccount({ role: "team" });
    await setBriefQuestions(staff, "plan", "pro", QUESTIONS.slice(0, 1));
    const { buyer, subscriptionId } = await buy({ plan: "pro" });
    const other = await createAccount({ role: "user" });
    const path = `/dashboard/plans/${subscriptionId}/brief`;
    const params = { subscriptionId };
    const answer = (account: Account) => callRoute(planBriefPage.action, briefPost(account, path, [["answers.brand", "Mine"]]), { params });

    expect((await page(planBriefPage.loader, other, path, params)).status).toBe(404);
    expect((await answer(other)).status).toBe(404);
    expect((await answer(staff)).status).toBe(403);
    expect((await page(planBriefPage.loader, buyer, path, params)).data).toMatchObject({ canAnswer: true, back: { to: `/dashboard/plans/${subscriptionId}` } });
    expect((await answer(buyer)).status).toBe(302);
    expect((await page(planBriefPage.loader, staff, path, params)).data.brief.answers).toEqual({ brand: "Mine" });
    expect((await callRoute(planBriefPage.loader, new Request(`${BASE_URL}${path}`), { params })).location).toMatch(/^\/login/);
  });
});

describe("Brief needed, and staff reading", () => {
  test("the success page and the dashboard ask for the brief until it is sent; staff read it on the order and beside the conversation", async () => {
    const staff = await createAccount({ role: "team" });
    const service = (await catalogue())[4]!;
    await setBriefQuestions(staff, "service", service.id, QUESTIONS.slice(0, 1));
    const { buyer, order, purchaseId } = await buy({ serviceId: service.id });
    const needed = [{ id: purchaseId, title: service.name, href: `/dashboard/services/${purchaseId}/brief` }];

    const thanks = await callRoute(success.loader, `/purchase/success?session_id=${order.stripeSessionId}`);
    expect(thanks.data.briefs).toEqual(needed);
    expect((await page(overview.loader, buyer, "/dashboard/services", {})).data.briefs).toEqual(needed);
    const before = await page(orderPage.loader, staff, `/dashboard/orders/${order.id}`, { orderId: order.id });
    expect(before.data.briefs).toMatchObject([{ title: service.name, submittedAt: null, answers: {} }]);

    const path = `/dashboard/services/${purchaseId}/brief`;
    expect((await callRoute(purchaseBriefPage.action, briefPost(buyer, path, [["answers.brand", "Acme"]]), { params: { purchaseId } })).status).toBe(302);

    expect((await page(overview.loader, buyer, "/dashboard/services", {})).data.briefs).toEqual([]);
    expect((await callRoute(success.loader, `/purchase/success?session_id=${order.stripeSessionId}`)).data.briefs).toEqual([]);
    const after = await page(orderPage.loader, staff, `/dashboard/orders/${order.id}`, { orderId: order.id });
    expect(after.data.briefs).toMatchObject([{ title: service.name, href: path, answers: { brand: "Acme" } }]);
    expect((await getCustomerProfile(buyer.id))!.briefs).toMatchObject([{ title: service.name, answers: { brand: "Acme" }, submittedAt: expect.any(String) }]);
    // Staff have no "Brief needed" of their own: the customer's overview is not theirs.
    expect((await page(overview.loader, staff, "/dashboard/services", {})).location).toBe("/dashboard/users");
  });
});
