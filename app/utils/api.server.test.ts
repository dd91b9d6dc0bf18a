import { describe, expect, test } from "vitest";
import { z } from "zod";
import { apiRoute } from "./api.server";
import { HttpError } from "./http.server";

const context = { requestId: "req-1", cspNonce: "", clientIp: "127.0.0.1" };
const call = (handler: ReturnType<typeof apiRoute>, request: Request, params: Record<string, string> = {}) =>
  handler({ request, params, context });

const echo = apiRoute({ auth: "none", body: z.object({ name: z.string().min(1, "Name is required") }) }, async ({ body }) => ({
  success: true,
  data: body,
}));

describe("apiRoute", () => {
  test("parses a JSON body and answers JSON", async () => {
    const response = await call(echo, new Request("http://x/api/echo", { method: "POST", body: JSON.stringify({ name: "Ada" }), headers: { "Content-Type": "application/json" } }));
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
    const response = await call(echo, new Request("http://x/api/echo", { method: "POST", body: JSON.stringify({ name: "" }), headers: { "Content-Type": "application/json" } }));
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
});
