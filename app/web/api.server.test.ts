import { RateLimiterMemory } from "rate-limiter-flexible";
import { describe, expect, test } from "vitest";
import { z } from "zod";

import { HttpError } from "~/utils/http.server";
import { apiMethods, apiRoute } from "~/web/api.server";
import { isJsonAnswer, lasting } from "~/web/json-answer.server";

const context = { requestId: "req-1", cspNonce: "", clientIp: "127.0.0.1" };
const call = (handler: ReturnType<typeof apiRoute>, request: Request, params: Record<string, string> = {}) => handler({ request, params, context });

const echo = apiRoute({ auth: "none", body: z.object({ name: z.string().min(1, "Name is required") }) }, async ({ body }) => ({
  success: true,
  data: body,
}));

describe("apiRoute", () => {
  test("outside production an answer that drifts from its declared response is a 500, never sent", async () => {
    const response = z.object({ success: z.literal(true), data: z.object({ total: z.number().int() }) });
    // A value the compiler cannot see (parsed JSON is `any`): only the run-time check stands between it and the client.
    const drifted = apiRoute({ auth: "none", response }, async () => JSON.parse('{"success":true,"data":{"total":"12"}}'));
    const driftedResponse = apiRoute({ auth: "none", response }, async () => Response.json({ success: true, data: {} }, { status: 201 }));
    // A key the document does not name (a password hash, an internal id) compiles, and is stopped here.
    const undeclared = apiRoute({ auth: "none", response }, async () => ({ success: true, data: { total: 12, passwordHash: "x" } }));
    const undeclaredResponse = apiRoute({ auth: "none", response }, async () => Response.json({ success: true, data: { total: 12, nested: {} } }));
    const exact = apiRoute({ auth: "none", response }, async () => ({ success: true, data: { total: 12 } }));
    const reordered = apiRoute({ auth: "none", response }, async () => ({ data: { total: 12 }, success: true }));
    const get = (handler: ReturnType<typeof apiRoute>) => call(handler, new Request("http://x/api/total"));

    const bad = await get(drifted);
    expect(bad.status).toBe(500);
    expect(JSON.stringify(await bad.json())).not.toContain("12");
    expect((await get(driftedResponse)).status).toBe(500);
    const leaked = await get(undeclared);
    expect(leaked.status).toBe(500);
    expect(JSON.stringify(await leaked.json())).not.toContain("passwordHash");
    expect((await get(undeclaredResponse)).status).toBe(500);
    // Key order is not the document's business: the same keys in another order pass.
    expect((await get(reordered)).status).toBe(200);
    const good = await get(exact);
    expect(good.status).toBe(200);
    expect(await good.json()).toEqual({ success: true, data: { total: 12 } });
  });

  test("a lasting answer (frozen, checked once) is held to its declared response like any other", async () => {
    const response = z.object({ success: z.literal(true), data: z.object({ total: z.number().int() }) });
    const drifted = lasting({ success: true, data: { total: 12, passwordHash: "x" } });
    const exact = lasting({ success: true as const, data: { total: 12 } });
    const sendsDrifted = apiRoute({ auth: "none", response }, async () => drifted as never);
    const sendsExact = apiRoute({ auth: "none", response }, async () => exact);
    const other = apiRoute({ auth: "none", response: z.object({ success: z.literal(true) }) }, async () => exact as never);
    const get = (handler: ReturnType<typeof apiRoute>) => call(handler, new Request("http://x/api/total"));
    // Refused each time it is sent, not only the first.
    expect((await get(sendsDrifted)).status).toBe(500);
    expect((await get(sendsDrifted)).status).toBe(500);
    expect((await get(sendsExact)).status).toBe(200);
    expect(await (await get(sendsExact)).json()).toEqual({ success: true, data: { total: 12 } });
    // A value that matched one route's schema is held to another route's own.
    expect((await get(other)).status).toBe(500);
  });

  test("a handler answering outside its declared response does not compile (decision 314)", () => {
    const response = z.object({ status: z.literal("success"), data: z.object({ total: z.number().int(), kind: z.enum(["a", "b"]) }) });
    // @ts-expect-error: the total is a string
    apiRoute({ auth: "none", response }, async () => ({ status: "success", data: { total: "12", kind: "a" } }));
    // @ts-expect-error: a word outside the enum
    apiRoute({ auth: "none", response }, async () => ({ status: "success", data: { total: 12, kind: "c" } }));
    // @ts-expect-error: another envelope
    apiRoute({ auth: "none", response }, async () => ({ success: true, data: { total: 12, kind: "a" } }));
    // @ts-expect-error: a field missing
    apiRoute({ auth: "none", response }, async () => ({ status: "success", data: { total: 12 } }));
    // The exact shape, a Response (a file, another status), and anything where no response is declared compile.
    const routes = [
      apiRoute({ auth: "none", response }, async () => ({ status: "success", data: { total: 12, kind: "a" } })),
      apiRoute({ auth: "none", response }, async () => Response.json({}, { status: 201 })),
      apiRoute({ auth: "none" }, async () => 12),
    ];
    expect(routes.map((route) => route.api[0]?.auth)).toEqual(["none", "none", "none"]);
  });

  test("parses a JSON body and answers JSON", async () => {
    const response = await call(
      echo,
      new Request("http://x/api/echo", { method: "POST", body: JSON.stringify({ name: "Ada" }), headers: { "Content-Type": "application/json" } }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, data: { name: "Ada" } });
  });

  test("a malformed JSON body is a 400 in the error shape", async () => {
    const response = await call(echo, new Request("http://x/api/echo", { method: "POST", body: "{oops", headers: { "Content-Type": "application/json" } }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      success: false,
      status: "error",
      message: "The request body is not valid JSON.",
      error: "The request body is not valid JSON.",
      code: "MALFORMED_JSON",
    });
  });

  test("a schema failure gives the schema's own message", async () => {
    const response = await call(
      echo,
      new Request("http://x/api/echo", { method: "POST", body: JSON.stringify({ name: "" }), headers: { "Content-Type": "application/json" } }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ message: "Name is required", code: "INVALID_INPUT" });
  });

  test("signed-out callers of a guarded route get 401 JSON, not a redirect", async () => {
    const guarded = apiRoute({ auth: "any" }, async () => ({ ok: true }));
    const response = await call(guarded, new Request("http://x/api/guarded"));
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ success: false, code: "UNAUTHORIZED" });
  });

  test("an HttpError keeps its status, code and headers", async () => {
    const limited = apiRoute({ auth: "none" }, async () => {
      throw new HttpError(429, "Slow down.", "RATE_LIMITED", { "Retry-After": "30" });
    });
    const response = await call(limited, new Request("http://x/api/limited"));
    expect(response.status).toBe(429);
    expect(response.headers.get("Retry-After")).toBe("30");
  });

  test("an unexpected error is a 500 with the request id and no stack trace", async () => {
    const broken = apiRoute({ auth: "none" }, async () => {
      throw new Error("database exploded at /secret/path.ts:12");
    });
    const response = await call(broken, new Request("http://x/api/broken"));
    expect(response.status).toBe(500);
    const body = await response.json();
    expect(body).toMatchObject({ success: false, code: "INTERNAL_ERROR", requestId: "req-1" });
    expect(JSON.stringify(body)).not.toContain("exploded");
  });

  test("a declared method refuses the others with 405; GET also answers HEAD", async () => {
    const create = apiRoute({ method: "POST", auth: "none" }, async () => ({ created: true }));
    expect((await call(create, new Request("http://x/api/things", { method: "PUT" }))).status).toBe(405);
    expect((await call(create, new Request("http://x/api/things", { method: "POST" }))).status).toBe(200);
    const read = apiRoute({ method: "GET", auth: "none" }, async () => ({ ok: true }));
    expect((await call(read, new Request("http://x/api/things", { method: "HEAD" }))).status).toBe(200);
  });

  test("apiMethods sends each method to its handler", async () => {
    const patch = apiRoute({ method: "PATCH", auth: "none" }, async () => ({ did: "patch" }));
    const remove = apiRoute({ method: "DELETE", auth: "none" }, async () => ({ did: "delete" }));
    const action = apiMethods(patch, remove);
    expect(await (await call(action, new Request("http://x/api/things/1", { method: "DELETE" }))).json()).toEqual({ did: "delete" });
    expect((await call(action, new Request("http://x/api/things/1", { method: "POST" }))).status).toBe(405);
    expect(action.api.map((spec) => spec.method)).toEqual(["PATCH", "DELETE"]);
  });

  test("rateLimit counts before parsing: the third call in the window is a 429 with Retry-After", async () => {
    const limiter = new RateLimiterMemory({ points: 2, duration: 60 });
    const limited = apiRoute(
      { method: "POST", auth: "none", rateLimit: { limiter, key: ({ clientIp }) => `ip:${clientIp}` }, body: z.object({ name: z.string() }) },
      async () => ({ ok: true }),
    );
    const post = () => call(limited, new Request("http://x/api/limited", { method: "POST", body: "{oops", headers: { "Content-Type": "application/json" } }));
    expect((await post()).status).toBe(400);
    expect((await post()).status).toBe(400);
    const third = await post();
    expect(third.status).toBe(429);
    expect(third.headers.get("Retry-After")).toMatch(/^\d+$/);
  });

  test("a plain value answers with the declared success status", async () => {
    const created = apiRoute({ method: "POST", auth: "none", status: 201 }, async () => ({ success: true }));
    expect((await call(created, new Request("http://x/api/created", { method: "POST" }))).status).toBe(201);
  });

  test("Remix always gets a Response; answerJson gives the fast path the success as text and anything else as the Response", async () => {
    const created = apiRoute({ method: "POST", auth: "none", status: 201 }, async () => ({ success: true }));
    const args = (method: string) => ({ request: new Request("http://x/api/created", { method }), params: {}, context });
    expect(await created(args("POST"))).toBeInstanceOf(Response);
    const answer = await created.answerJson(args("POST"));
    expect(isJsonAnswer(answer) && { status: answer.status, text: answer.text }).toEqual({ status: 201, text: '{"success":true}' });
    const refused = await created.answerJson(args("GET"));
    expect(refused instanceof Response && refused.status).toBe(405);
    const both = apiMethods(
      created,
      apiRoute({ method: "DELETE", auth: "none" }, async () => ({ gone: true })),
    );
    const gone = await both.answerJson(args("DELETE"));
    expect(isJsonAnswer(gone) && gone.text).toBe('{"gone":true}');
    const notTaken = await both.answerJson(args("PUT"));
    expect(notTaken instanceof Response && notTaken.status).toBe(405);
  });
});
