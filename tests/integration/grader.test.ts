import { beforeAll, describe, expect, test } from "vitest";

import * as apiGrades from "~/routes/api+/grades";
import * as apiGrade from "~/routes/api+/grades.$id";
import * as apiLeads from "~/routes/api+/leads";
import * as gradePage from "~/routes/grade._index";
import * as reportPage from "~/routes/grade.$id";
import * as ogImage from "~/routes/grade.$id_.og[.]png";

import { catalogue, createAccount, createTestUser } from "../support/factories";
import { readOutbox } from "../support/outbox";
import { BASE_URL, CONTEXT, formRequest, freshContext, jsonRequest, uniqueEmail } from "../support/requests";

const answers = { platforms: ["instagram"], followers: 2000, avgLikes: 60, avgComments: 6, postsPerWeek: 2 };
type Body = {
  status: string;
  message?: string;
  data: { grade: { _id: string; overall: string; score: number; areas: unknown[]; recommendations: Array<{ service: { name: string; price: number } }> } };
};

async function postGrade(body: unknown, context = freshContext()) {
  const response = await apiGrades.action({ request: jsonRequest("/api/grades", body), params: {}, context });
  return { response, body: (await response.json()) as Body };
}

beforeAll(async () => {
  await catalogue();
});

const get = (path: string, headers: Record<string, string> = {}) => new Request(`${BASE_URL}${path}`, { headers });

describe("POST /api/grades and GET /api/grades/:id", () => {
  test("grades the answers: 201 with the letter, areas and the services that fix the weakest areas", async () => {
    const { response, body } = await postGrade({ answers });
    expect(response.status).toBe(201);
    expect(body.data.grade).toMatchObject({ overall: "D", score: 43 });
    expect(body.data.grade.areas).toHaveLength(6);
    expect(body.data.grade.recommendations.map((r) => r.service.name)).toEqual(["Profile Makeover", "Short-Form Video Pack", "Social Media Audit"]);
    expect(body.data.grade.recommendations[0]!.service.price).toBe(99);

    const again = await apiGrade.loader({ request: get(`/api/grades/${body.data.grade._id}`), params: { id: body.data.grade._id }, context: CONTEXT });
    expect(again.status).toBe(200);
    expect(((await again.json()) as Body).data.grade).toEqual(body.data.grade);
  });

  test("the same answers give the same grade every time", async () => {
    const first = await postGrade({ answers });
    const second = await postGrade({ answers });
    expect({ ...second.body.data.grade, _id: "", createdAt: "" }).toEqual({ ...first.body.data.grade, _id: "", createdAt: "" });
  });

  test("bad answers: 400 with the field's message, nothing stored", async () => {
    const missing = await postGrade({ answers: { ...answers, followers: undefined } });
    expect(missing.response.status).toBe(400);
    expect(missing.body.message).toBe("Followers must be a number.");
    const huge = await postGrade({ answers: { ...answers, avgLikes: 1e10 } });
    expect(huge.response.status).toBe(400);
    expect(huge.body.message).toBe("Average likes per post must be at most 1,000,000,000.");
    const nul = await postGrade({ answers, email: "a@b.test", name: "Eve\u0000" });
    expect(nul.response.status).toBe(400);
  });

  test("an unknown or malformed id is 404", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-an-id"]) {
      const response = await apiGrade.loader({ request: get(`/api/grades/${id}`), params: { id }, context: CONTEXT });
      expect(response.status).toBe(404);
    }
  });

  test("limited per address like orders: the 21st grade in a minute is 429 with Retry-After", async () => {
    const context = freshContext();
    for (let i = 0; i < 20; i++) expect((await postGrade({ answers }, context)).response.status).toBe(201);
    const refused = await postGrade({ answers }, context);
    expect(refused.response.status).toBe(429);
    expect(refused.response.headers.get("Retry-After")).toMatch(/^\d+$/);
  });
});

describe("leads", () => {
  test("an e-mail makes a lead: the report goes to the visitor once a day, the team hears of each lead", async () => {
    const staff = await createAccount({ role: "team" });
    const email = uniqueEmail("lead");
    const { body } = await postGrade({ answers, email: email.toUpperCase(), name: "Lena Lead" });
    const reports = readOutbox(email);
    expect(reports).toHaveLength(1);
    expect(reports[0]!.subject).toBe("Your social media grade: D (43/100)");
    // The name is the visitor's own text, and anyone can type anyone's address: it stays out of the mail.
    expect(reports[0]!.text).toContain("Your social media page scores 43/100: D");
    expect(reports[0]!.text).not.toContain("Lena Lead");
    expect(reports[0]!.raw).not.toContain("Lena");
    expect(reports[0]!.raw).toContain("text/html");
    expect(reports[0]!.links).toContain(`http://localhost:3000/grade/${body.data.grade._id}`);
    expect(readOutbox(staff.email).some((e) => e.subject.includes(email))).toBe(true);

    await postGrade({ answers: { ...answers, postsPerWeek: 5 }, email });
    expect(readOutbox(email)).toHaveLength(1);

    const listed = await apiLeads.loader({
      request: get(`/api/leads?search=${encodeURIComponent(email)}`, { Authorization: `Bearer ${staff.bearer}` }),
      params: {},
      context: CONTEXT,
    });
    const leads = (
      (await listed.json()) as { data: { leads: Array<{ email: string; name: string | null; grade: { overall: string }; customer: unknown }>; total: number } }
    ).data;
    expect(leads.total).toBe(2);
    expect(leads.leads[1]).toMatchObject({ email, name: "Lena Lead", grade: { overall: "D" }, customer: null });
  });

  test("a lead who buys shows as a customer", async () => {
    const staff = await createAccount({ role: "team" });
    const email = uniqueEmail("buyer");
    await postGrade({ answers, email });
    const customer = await createTestUser({ email, name: "Bea Buyer" });
    const listed = await apiLeads.loader({
      request: get(`/api/leads?search=${encodeURIComponent(email)}`, { Authorization: `Bearer ${staff.bearer}` }),
      params: {},
      context: CONTEXT,
    });
    const leads = ((await listed.json()) as { data: { leads: Array<{ customer: unknown }> } }).data.leads;
    expect(leads[0]!.customer).toEqual({ _id: customer.id, name: "Bea Buyer" });
  });

  test("only staff list leads: anonymous 401, a customer 403", async () => {
    const customer = await createAccount();
    expect((await apiLeads.loader({ request: get("/api/leads"), params: {}, context: CONTEXT })).status).toBe(401);
    expect((await apiLeads.loader({ request: get("/api/leads", { Authorization: `Bearer ${customer.bearer}` }), params: {}, context: CONTEXT })).status).toBe(
      403,
    );
  });
});

describe("the /grade page, the report card and its image", () => {
  const fields = {
    "answers.platforms": ["tiktok", "instagram"],
    "answers.followers": "5000",
    "answers.avgLikes": "400",
    "answers.avgComments": "20",
    "answers.postsPerWeek": "7",
    "answers.bioComplete": "on",
    "answers.brandedVisuals": "always",
    "answers.videoShare": "most",
    "answers.replyTime": "hour",
  };

  test("the plain form grades and redirects to the report card, which lists the advice", async () => {
    const response = await gradePage.action({ request: formRequest("/grade", fields), params: {}, context: freshContext() });
    expect(response).toBeInstanceOf(Response);
    const location = (response as Response).headers.get("Location")!;
    expect(location).toMatch(/^\/grade\/[0-9a-f-]{36}$/);
    const id = location.split("/").at(-1)!;
    const { data: page } = await reportPage.loader({ request: get(location), params: { id }, context: CONTEXT });
    expect(page.grade.areas.find((a) => a.key === "profile")).toMatchObject({ score: 50 });
    expect(page.grade.recommendations.map((r) => r.service.name)).toEqual(["Profile Makeover"]);
    expect(page.url).toBe(`http://localhost:3000/grade/${id}`);
  });

  test("the report card's order form starts with the name and e-mail just typed, for that visitor only", async () => {
    const email = uniqueEmail("grader");
    const response = (await gradePage.action({
      request: formRequest("/grade", { ...fields, name: "Gia Grader", email }),
      params: {},
      context: freshContext(),
    })) as Response;
    const location = response.headers.get("Location")!;
    const id = location.split("/").at(-1)!;
    const cookie = response.headers.get("Set-Cookie")!.split(";")[0]!;
    const mine = await reportPage.loader({ request: get(location, { Cookie: cookie }), params: { id }, context: CONTEXT });
    expect(mine.data.contact).toEqual({ name: "Gia Grader", email });
    expect(mine.init?.headers).toEqual({ "Cache-Control": "private, no-store" });
    // The shared link shows no personal data to anyone else, nor on another grade.
    expect((await reportPage.loader({ request: get(location), params: { id }, context: CONTEXT })).data.contact).toBeNull();
    const other = ((await gradePage.action({ request: formRequest("/grade", fields), params: {}, context: freshContext() })) as Response).headers.get(
      "Location",
    )!;
    const otherId = other.split("/").at(-1)!;
    expect((await reportPage.loader({ request: get(other, { Cookie: cookie }), params: { id: otherId }, context: CONTEXT })).data.contact).toBeNull();
  });

  test("a wrong answer comes back with the field's message; the honeypot is refused", async () => {
    const result = await gradePage.action({ request: formRequest("/grade", { ...fields, "answers.followers": "0" }), params: {}, context: freshContext() });
    const body = result as unknown as { data: { result: { error: Record<string, string[]> } }; init: { status: number } };
    expect(body.init.status).toBe(400);
    expect(body.data.result.error["answers.followers"]).toEqual(["Followers must be at least 1."]);
    await expect(
      gradePage.action({ request: formRequest("/grade", { ...fields, website: "http://spam" }), params: {}, context: freshContext() }),
    ).rejects.toMatchObject({ status: 400 });
  });

  test("an unknown grade's page is 404; the og:image is a PNG", async () => {
    await expect(reportPage.loader({ request: get("/grade/x"), params: { id: "x" }, context: CONTEXT })).rejects.toMatchObject({ status: 404 });
    const { body } = await postGrade({ answers });
    const image = await ogImage.loader({ request: get(`/grade/${body.data.grade._id}/og.png`), params: { id: body.data.grade._id }, context: CONTEXT });
    expect(image.status).toBe(200);
    expect(image.headers.get("Content-Type")).toBe("image/png");
    const bytes = new Uint8Array(await image.arrayBuffer());
    expect([...bytes.slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(bytes.length).toBeGreaterThan(10_000);
  }, 20_000);
});
