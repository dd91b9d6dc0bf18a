// Remix's client single fetch, as patched (patches/@remix-run+react+2.17.5.patch, decision 252).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

type Strategy = (args: { request: Request; matches: unknown[]; fetcherKey: string | null }) => Promise<Record<string, unknown>>;
/** The browser build's copy (the package ships no types for it). */
const singleFetch = "@remix-run/react/dist/esm/single-fetch.js";
const { getSingleFetchDataStrategy } = (await import(singleFetch)) as {
  getSingleFetchDataStrategy: (manifest: object, routeModules: object, getRouter: () => object) => Strategy;
};

/** A page-data answer whose headers came and whose body stalls until `stall` is aborted (or errors with `failWith`). */
function stallingAnswer(signal: AbortSignal, failWith?: Error) {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (failWith) controller.error(failWith);
      else signal.addEventListener("abort", () => controller.error(signal.reason));
    },
  });
  return new Response(body, { status: 200, headers: { "Content-Type": "text/x-script" } });
}

/** One fetcher load of route `routes/x` through the strategy Remix's browser build uses. */
function load(request: Request) {
  const strategy = getSingleFetchDataStrategy({}, {}, () => ({}));
  const match = {
    shouldLoad: true,
    route: { id: "routes/x" },
    resolve: (callback: (handler: (override: () => Promise<unknown>) => Promise<unknown>) => Promise<unknown>) => callback((override) => override()),
  };
  return strategy({ request, matches: [match], fetcherKey: "k" });
}

describe("page data whose load is interrupted mid-body", () => {
  const realFetch = globalThis.fetch;
  let fetched: AbortSignal | undefined;
  beforeEach(() => {
    vi.stubGlobal("window", { location: { origin: "http://shop.test" } });
    fetched = undefined;
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    globalThis.fetch = realFetch;
  });

  it("rejects with the abort itself and logs nothing (the suite's console check would fail on a log)", async () => {
    globalThis.fetch = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
      fetched = init?.signal ?? undefined;
      return stallingAnswer(init!.signal!);
    });
    const controller = new AbortController();
    const loading = load(new Request("http://shop.test/dashboard/users?search=a", { signal: controller.signal }));
    await vi.waitFor(() => expect(fetched).toBeDefined());
    controller.abort();
    await expect(loading).rejects.toMatchObject({ name: "AbortError" });
    expect(vi.mocked(console.error)).not.toHaveBeenCalled();
  });

  it("a body that breaks while nobody interrupted it is still logged and reported as before", async () => {
    const logged: unknown[][] = [];
    vi.mocked(console.error).mockImplementation((...args: unknown[]) => void logged.push(args));
    globalThis.fetch = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => stallingAnswer(init!.signal!, new TypeError("network error")));
    const loading = load(new Request("http://shop.test/dashboard/users"));
    await expect(loading).rejects.toThrow("Unable to decode turbo-stream response");
    expect(logged.map((args) => String(args[0]))).toEqual(["TypeError: network error"]);
  });
});
