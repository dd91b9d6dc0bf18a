import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { answerNotReusable } from "~/utils/request-context.server";

import { createPageCache } from "./page-cache";
import { requestContext } from "./request-context";

/*
 * The page cache between a real http.Server, Express with compression() and a stand-in for Remix
 * that counts its renders: what is kept, under which key, and what makes it render again.
 */

let generation: number | null = 1;
let renders = 0;
/** What the stand-in answers next (a test changes it). */
let answer: { status: number; type: string; body: string; headers?: Record<string, string>; encodeItself?: boolean };
const cache = createPageCache({ generation: () => generation, maxBytes: 64 * 1024, ttlMs: 60_000 });

const app = express();
app.use(compression());
// As server.ts does: every request in a scope of its own.
app.use((req, _res, next) => requestContext.run({ requestId: "test", method: req.method }, next));
app.use(cache.middleware);
/** A render of a "slow" page waits until the test opens this gate. */
let gate: Promise<void> = Promise.resolve();
app.use(async (req, res) => {
  renders++;
  if (req.url?.includes("slow")) await gate;
  // As a loader's write would: the number moves while the page renders.
  if (req.url?.includes("moving")) generation = generation! + 1;
  // As a loader whose section failed, or whose page carries a one-time value, says.
  if (req.url?.includes("one-time")) answerNotReusable();
  res.status(answer.status);
  res.setHeader("Content-Type", answer.type);
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
  const body = `${answer.body} #${renders} ${req.url}`;
  if (answer.encodeItself) {
    res.setHeader("Content-Encoding", "br");
    res.end(zlib.brotliCompressSync(Buffer.from(body)));
  } else {
    res.write(body.slice(0, 5));
    res.end(body.slice(5));
  }
});
const server = http.createServer((req, res) => {
  if (!cache.handleFast(req, res, () => app(req, res))) app(req, res);
});
let base = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  generation = (generation ?? 0) + 1;
  answer = { status: 200, type: "text/html; charset=utf-8", body: "<p>page ".padEnd(2_000, "x") };
});

const SIGNED_IN = { Cookie: "theme=dark; __session=abc", "User-Agent": "test" };
const get = async (path: string, headers: Record<string, string> = SIGNED_IN) => {
  const response = await fetch(`${base}${path}`, { headers: { "Accept-Encoding": "br", ...headers } });
  return { status: response.status, body: await response.text(), hit: response.headers.get("x-page-cache") === "hit", headers: response.headers };
};

describe("a signed-in page asked again", () => {
  it("is answered from memory, the same bytes, with its own request id", async () => {
    const first = await get("/dashboard/one");
    const second = await get("/dashboard/one");
    expect(first.hit).toBe(false);
    expect(second.hit).toBe(true);
    expect(second.body).toBe(first.body);
    expect(renders).toBeGreaterThan(0);
    expect(second.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(second.headers.get("x-request-id")).toMatch(/^[\w-]+$/);
  });

  it("renders again once data changed anywhere", async () => {
    const first = await get("/dashboard/two");
    generation = generation! + 1;
    const second = await get("/dashboard/two");
    expect(second.hit).toBe(false);
    expect(second.body).not.toBe(first.body);
    expect((await get("/dashboard/two")).hit).toBe(true);
  });

  it("is not reused while changes might not reach this process", async () => {
    await get("/dashboard/three");
    const kept = generation;
    generation = null;
    expect((await get("/dashboard/three")).hit).toBe(false);
    generation = kept;
  });

  it("is kept per browser: another cookie, another user agent or another encoding renders its own", async () => {
    await get("/dashboard/four");
    expect((await get("/dashboard/four", { Cookie: "__session=other", "User-Agent": "test" })).hit).toBe(false);
    expect((await get("/dashboard/four", { ...SIGNED_IN, "User-Agent": "another" })).hit).toBe(false);
    expect((await get("/dashboard/four", { ...SIGNED_IN, "Accept-Encoding": "gzip" })).hit).toBe(false);
    expect((await get("/dashboard/four")).hit).toBe(true);
  });

  it("is kept only for a request with the session cookie or a token, per token, and never for the JSON API", async () => {
    await get("/signed-out", { Cookie: "theme=dark" });
    expect((await get("/signed-out", { Cookie: "theme=dark" })).hit).toBe(false);
    await get("/bearer", { Authorization: "Bearer t" });
    expect((await get("/bearer", { Authorization: "Bearer t" })).hit).toBe(true);
    expect((await get("/bearer", { Authorization: "Bearer u" })).hit).toBe(false);
    await get("/api/services");
    expect((await get("/api/services")).hit).toBe(false);
  });

  it.each([
    ["a redirect", { status: 302, type: "text/html" }],
    ["an error page", { status: 503, type: "text/html" }],
    ["a file", { status: 200, type: "application/pdf" }],
    ["an answer that sets a cookie", { status: 200, type: "text/html", headers: { "Set-Cookie": "__toast=; Max-Age=0" } }],
    ["a page with a section that failed (no-store)", { status: 200, type: "text/html", headers: { "Cache-Control": "no-store" } }],
  ] as [string, { status: number; type: string; headers?: Record<string, string> }][])("is never kept when it is %s", async (_what, given) => {
    answer = { ...answer, ...given };
    const path = `/dashboard/never-${given.status}-${given.type.length}-${Object.keys(given.headers ?? {}).join()}`;
    await get(path);
    expect((await get(path)).hit).toBe(false);
  });

  it("is not kept when data changed while it rendered", async () => {
    await get("/dashboard/moving");
    expect((await get("/dashboard/moving")).hit).toBe(false);
  });

  it("is not kept when its render said so (a failed section, a one-time value)", async () => {
    await get("/dashboard/one-time");
    expect((await get("/dashboard/one-time")).hit).toBe(false);
  });

  it("asked by a burst while it renders, renders once: the others take its answer", async () => {
    let open!: () => void;
    gate = new Promise<void>((resolve) => (open = resolve));
    const before = renders;
    const first = get("/dashboard/slow");
    // The first request is in the render (it counted) before the others arrive.
    while (renders === before) await new Promise((resolve) => setImmediate(resolve));
    const others = [get("/dashboard/slow"), get("/dashboard/slow"), get("/dashboard/slow")];
    while (cache.size().waiting < 3) await new Promise((resolve) => setImmediate(resolve));
    open();
    const answers = await Promise.all([first, ...others]);
    expect(renders - before).toBe(1);
    expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
    expect(answers.map((answer) => answer.hit)).toEqual([false, true, true, true]);
  });

  it("asked by a burst while an answer that cannot be kept renders, renders again for each of the others", async () => {
    let open!: () => void;
    gate = new Promise<void>((resolve) => (open = resolve));
    answer = { ...answer, headers: { "Set-Cookie": "__toast=; Max-Age=0" } };
    const before = renders;
    const first = get("/dashboard/slow-cookie");
    while (renders === before) await new Promise((resolve) => setImmediate(resolve));
    const others = [get("/dashboard/slow-cookie"), get("/dashboard/slow-cookie")];
    while (cache.size().waiting < 2) await new Promise((resolve) => setImmediate(resolve));
    open();
    const answers = await Promise.all([first, ...others]);
    expect(renders - before).toBe(3);
    expect(answers.every((answer) => !answer.hit && answer.status === 200)).toBe(true);
  });

  it("is reused for a few seconds at most, whatever happens", async () => {
    await get("/dashboard/aging");
    const now = Date.now();
    const later = vi.spyOn(Date, "now").mockReturnValue(now + 60_001);
    try {
      expect((await get("/dashboard/aging")).hit).toBe(false);
    } finally {
      later.mockRestore();
    }
  });

  it("keeps a .data answer compressed once, and a page the app encoded itself as it was sent", async () => {
    answer = { ...answer, type: "text/x-script" };
    const first = await get("/dashboard/five.data");
    const second = await get("/dashboard/five.data");
    expect(second.hit).toBe(true);
    expect(second.body).toBe(first.body);
    expect(second.headers.get("content-encoding")).toBe("br");

    answer = { ...answer, type: "text/html", encodeItself: true };
    const page = await get("/dashboard/six");
    const again = await get("/dashboard/six");
    expect(again.hit).toBe(true);
    expect(again.body).toBe(page.body);
    expect(again.headers.get("content-encoding")).toBe("br");
  });

  it("keeps at most its bytes, dropping the oldest answers first", async () => {
    answer = { ...answer, body: "<p>".padEnd(20_000, "y") };
    for (const n of [1, 2, 3, 4, 5, 6]) await get(`/dashboard/big-${n}`, { ...SIGNED_IN, "Accept-Encoding": "identity" });
    expect(cache.size().bytes).toBeLessThanOrEqual(64 * 1024);
    expect((await get("/dashboard/big-6", { ...SIGNED_IN, "Accept-Encoding": "identity" })).hit).toBe(true);
    expect((await get("/dashboard/big-1", { ...SIGNED_IN, "Accept-Encoding": "identity" })).hit).toBe(false);
  });
});
