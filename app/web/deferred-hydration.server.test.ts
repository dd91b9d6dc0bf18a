import vm from "node:vm";
import { describe, expect, test } from "vitest";

import { compactManifest, deferHydrationMarkup } from "./deferred-hydration.server";

// The shape of what Remix's <Scripts nonce> renders (2.17, single fetch, lazy route discovery).
const MODULE_SOURCE = ';\nimport * as route0 from "/assets/root-A.js";\nwindow.__remixManifest = {"a":"</b>"};\nimport("/assets/entry.client-B.js");';
const SCRIPTS =
  '<link rel="modulepreload" href="/assets/entry.client-B.js"/><link rel="modulepreload" href="/assets/entry.client-B.js"/>' +
  '<link rel="modulepreload" href="/assets/root-A.js"/>' +
  '<script nonce="n0nce">window.__remixContext = {"state":"é"};</script>' +
  `<script nonce="n0nce" type="module" async="">${MODULE_SOURCE}</script>`;
const PAGE = `<!DOCTYPE html><html><head><title>Café</title></head><body><main>Ünïcode — 日本語 Zoë 😀</main>${SCRIPTS}<p>José 😀 ©</p><!--$?--><template id="B:0"></template><!--/$--></body></html>`;

describe("deferHydrationMarkup", () => {
  const out = deferHydrationMarkup(SCRIPTS)!;

  test("modulepreload links become inert links; the context script is untouched", () => {
    expect(out).not.toMatch(/<link rel="modulepreload"/);
    expect(out.match(/<link data-modulepreload="[^"]+"\/>/g)).toHaveLength(3);
    expect(out).toContain('<script nonce="n0nce">window.__remixContext = {"state":"é"};</script>');
  });

  test("the module script becomes a classic script with the same nonce, and nothing in it closes the element", () => {
    expect(out).not.toMatch(/<script[^>]* type="module"/);
    const script = /<script nonce="n0nce">(\(function[\s\S]*?)<\/script>$/.exec(out);
    expect(script).not.toBeNull();
    expect(script![1]).not.toMatch(/<\//);
  });

  test("without Remix's module script there is nothing to rewrite", () => {
    expect(deferHydrationMarkup('<link rel="modulepreload" href="/a.js"/>')).toBeNull();
  });
});

describe("compactManifest", () => {
  test("the route manifest loses Remix's indentation and keeps every value; the imports around it stay", () => {
    const manifest = { entry: { module: "/assets/entry.client-B.js", imports: [] }, routes: { root: { id: "root", path: "", module: "/assets/root-A.js" } } };
    const source = `;\nimport * as route0 from "/assets/root-A.js";\nwindow.__remixManifest = ${JSON.stringify(manifest, null, 2)};\nimport("/assets/entry.client-B.js");`;
    const compact = compactManifest(source);
    expect(compact).toBe(
      `;\nimport * as route0 from "/assets/root-A.js";\nwindow.__remixManifest = ${JSON.stringify(manifest)};\nimport("/assets/entry.client-B.js");`,
    );
    expect(compact.length).toBeLessThan(source.length);
  });

  test("a manifest it cannot read is left as it is", () => {
    const source = 'window.__remixManifest = {\n  "a": oops\n};';
    expect(compactManifest(source)).toBe(source);
    expect(compactManifest(MODULE_SOURCE)).toBe(MODULE_SOURCE);
  });
});

describe("the loader", () => {
  function run(readyState: "loading" | "complete") {
    const appended: { parent: string; el: Record<string, unknown> }[] = [];
    const listeners: Record<string, () => void> = {};
    const timers: (() => void)[] = [];
    let observer: ((list: { getEntriesByName(name: string): unknown[] }, o: { disconnect(): void }) => void) | null = null;
    const node = (parent: string) => ({ appendChild: (el: Record<string, unknown>) => appended.push({ parent, el }) });
    const context = vm.createContext({
      document: { readyState, currentScript: { nonce: "n0nce" }, createElement: (tag: string) => ({ tag }), head: node("head"), body: node("body") },
      addEventListener: (type: string, fn: () => void) => (listeners[type] = fn),
      setTimeout: (fn: () => void) => timers.push(fn),
      PerformanceObserver: class {
        constructor(callback: typeof observer) {
          observer = callback;
        }
        observe() {}
      },
    });
    const source = /<script nonce="n0nce">(\(function[\s\S]*?)<\/script>$/.exec(deferHydrationMarkup(SCRIPTS)!)![1];
    vm.runInContext(source, context);
    const paint = () => observer!({ getEntriesByName: (name) => (name === "first-contentful-paint" ? [{}] : []) }, { disconnect() {} });
    const tick = () => timers.splice(0).forEach((fn) => fn());
    return { appended, listeners, paint, tick };
  }

  test("adds the modulepreload links and the module script once the page has loaded and painted", () => {
    const page = run("loading");
    page.paint();
    page.tick();
    expect(page.appended).toHaveLength(0);
    page.listeners.load();
    page.tick();
    expect(page.appended.map((a) => [a.parent, a.el.tag, a.el.rel ?? a.el.type, a.el.href ?? a.el.nonce])).toEqual([
      ["head", "link", "modulepreload", "/assets/entry.client-B.js"],
      ["head", "link", "modulepreload", "/assets/root-A.js"],
      ["body", "script", "module", "n0nce"],
    ]);
    expect(page.appended[2].el.textContent).toBe(MODULE_SOURCE);
    page.tick();
    expect(page.appended).toHaveLength(3);
  });

  test("a page that has loaded but not painted (a background tab) goes ahead on the fallback timer", () => {
    const page = run("complete");
    expect(page.appended).toHaveLength(0);
    page.tick();
    expect(page.appended).toHaveLength(3);
  });
});

describe("deferHydrationMarkup on a whole page", () => {
  test("rewrites the <Scripts> stretch and leaves the rest of the page as it is", () => {
    expect(deferHydrationMarkup(PAGE)).toBe(PAGE.replace(SCRIPTS, deferHydrationMarkup(SCRIPTS)!));
  });

  test("each page keeps its own nonce and modules, the loader being built once per set of modules", () => {
    const other = SCRIPTS.replace(/root-A/g, "root-C").replace(/n0nce/g, "0ther");
    const first = deferHydrationMarkup(PAGE)!;
    expect(deferHydrationMarkup(PAGE.replace(/n0nce/g, "0ther"))).toBe(first.replace(/n0nce/g, "0ther"));
    const second = deferHydrationMarkup(PAGE.replace(SCRIPTS, other))!;
    expect(second).toContain("root-C");
    expect(second).not.toContain("root-A");
    expect(second).not.toContain("n0nce");
    expect(deferHydrationMarkup(PAGE)).toBe(first);
  });

  test("finds nothing to rewrite in a page without <Scripts>", () => {
    expect(deferHydrationMarkup("<!DOCTYPE html><html><body><p>Plain — page</p></body></html>")).toBeNull();
  });
});
