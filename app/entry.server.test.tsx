import { createRequire } from "node:module";
import path from "node:path";
import zlib from "node:zlib";
import { Scripts } from "@remix-run/react";
import fc from "fast-check";
import type * as ReactDomServer from "react-dom/server";
import { renderToString } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";

import { handlerFor } from "../tests/support/remix-build";
import { CONTEXT } from "../tests/support/requests";

/*
 * Every character of a server-rendered page arrives exactly: the real handleRequest (React's
 * streaming writer into the whole document, then the rewrite of web/deferred-hydration.server.ts) against
 * renderToString, for text mixing 1- to 4-byte UTF-8 characters at every offset of React's 2,048-byte
 * views and of the stream's chunks, before and after the rewritten <Scripts>.
 */

type Block = { pad: number; text: string };
let page: { before: Block[]; after: Block[] } = { before: [], after: [] };

function Blocks({ blocks }: { blocks: Block[] }) {
  return blocks.map((block, i) => (
    <p key={i}>
      {"a".repeat(block.pad)}
      {block.text}
    </p>
  ));
}

function Root() {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
      </head>
      <body>
        <main>
          <Blocks blocks={page.before} />
        </main>
        <Scripts />
        <footer>
          <Blocks blocks={page.after} />
        </footer>
      </body>
    </html>
  );
}

const ranges: [number, number][] = [
  [0x20, 0x7e], // 1 byte
  [0x80, 0x7ff], // 2 bytes
  [0x800, 0xd7ff], // 3 bytes (below the surrogates)
  [0xe000, 0xfffc], // 3 bytes (not U+FFFD itself, which the check looks for)
  [0x10000, 0x10ffff], // 4 bytes
];
const character = fc.oneof(...ranges.map(([min, max]) => fc.integer({ min, max }).map((code) => String.fromCodePoint(code))));
// Short enough (under 683 UTF-16 units) that React encodes it into its current view, where it splits.
const text = fc.string({ unit: character, minLength: 1, maxLength: 300 });
const blocks = fc.array(fc.record({ pad: fc.nat(2047), text }), { minLength: 1, maxLength: 40 });

async function buildHandler() {
  const entry = await import("./entry.server");
  return handlerFor(entry, [{ id: "root", path: "", module: { default: Root } }]);
}

async function checkPages(handle: (request: Request) => Promise<Response>) {
  await fc.assert(
    fc.asyncProperty(blocks, blocks, async (before, after) => {
      page = { before, after };
      const response = await handle(new Request("http://localhost/"));
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(bytes.includes(0)).toBe(false);
      const html = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      expect(html).not.toContain("\uFFFD");
      // Rewritten by deferHydrationMarkup: what follows <Scripts> went through as it was.
      expect(html).not.toContain('type="module" async');
      for (const part of [before, after]) {
        expect(bytes.includes(Buffer.from(renderToString(<Blocks blocks={part} />)))).toBe(true);
      }
    }),
    { numRuns: 200 },
  );
}

describe("server-rendered HTML carries every character exactly", () => {
  beforeAll(() => {
    // Production path: the hydration rewrite runs (development sends React's output as it is).
    vi.stubEnv("DEV", false);
    vi.stubEnv("PROD", true);
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    vi.doUnmock("react-dom/server");
    vi.resetModules();
  });

  test("React's development server build", async () => {
    const handler = await buildHandler();
    await checkPages((request) => handler(request, CONTEXT));
  });

  test("React's production server build (what `npm start` runs)", async () => {
    const require = createRequire(import.meta.url);
    const reactDom = path.dirname(require.resolve("react-dom/package.json"));
    const production = require(path.join(reactDom, "cjs/react-dom-server.node.production.min.js")) as typeof ReactDomServer;
    vi.resetModules();
    vi.doMock("react-dom/server", () => ({ ...production, default: production }));
    const handler = await buildHandler();
    await checkPages((request) => handler(request, CONTEXT));
  });
});

describe("a finished render leaves nothing behind", () => {
  test("the abort timer goes when the document has been sent", async () => {
    const handler = await buildHandler();
    page = { before: [{ pad: 3, text: "done" }], after: [] };
    // The renders' own 5-second abort timers (Remix's data timer is 4,950 ms), and which were cleared.
    const abortTimers = new Set<unknown>();
    const cleared = new Set<unknown>();
    // Spies that call through: the timers are made and cleared as without them.
    const set = vi.spyOn(globalThis, "setTimeout");
    const clear = vi.spyOn(globalThis, "clearTimeout");
    try {
      for (let i = 0; i < 5; i++) {
        // As the Express adapter does when the response closes (Remix's own data timer waits for it).
        const closed = new AbortController();
        const response = await handler(new Request("http://localhost/", { signal: closed.signal }), CONTEXT);
        expect(await response.text()).toContain("done");
        closed.abort();
      }
      await new Promise((resolve) => setImmediate(resolve));
      for (const [index, [, delay]] of set.mock.calls.entries()) if (delay === 5_000) abortTimers.add(set.mock.results[index]!.value);
      for (const [timer] of clear.mock.calls) cleared.add(timer);
    } finally {
      set.mockRestore();
      clear.mockRestore();
    }
    expect(abortTimers.size).toBe(5);
    expect([...abortTimers].filter((timer) => !cleared.has(timer))).toEqual([]);
  });
});

describe("a document goes out whole", () => {
  test("compressed once in the encoding the client takes, with its length; unasked, as it is", async () => {
    const handler = await buildHandler();
    page = { before: [{ pad: 1500, text: "Zoë 😀 日本語" }], after: [] };
    const plain = await handler(new Request("http://localhost/"), CONTEXT);
    const html = Buffer.from(await plain.arrayBuffer());
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("content-length")).toBe(String(html.length));
    expect(plain.headers.get("vary")).toMatch(/Accept-Encoding/);
    for (const [accept, encoding, decode] of [
      ["gzip, deflate, br", "br", zlib.brotliDecompressSync],
      ["gzip", "gzip", zlib.gunzipSync],
      ["br;q=0, gzip", "gzip", zlib.gunzipSync],
    ] as const) {
      const response = await handler(new Request("http://localhost/", { headers: { "Accept-Encoding": accept } }), CONTEXT);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(response.headers.get("content-encoding"), accept).toBe(encoding);
      expect(response.headers.get("content-length")).toBe(String(bytes.length));
      expect(decode(bytes).equals(html), accept).toBe(true);
    }
  });
});
