import type http from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";

import { requestOnDemand } from "./api-fast-path";

const incoming = (rawHeaders: string[], method = "GET") => ({ method, rawHeaders }) as unknown as http.IncomingMessage;

describe("the fast path's Request, made on demand", () => {
  const FetchRequest = globalThis.Request;
  let made = 0;
  afterEach(() => {
    vi.unstubAllGlobals();
    made = 0;
  });
  const countingRequests = () =>
    vi.stubGlobal(
      "Request",
      class extends FetchRequest {
        constructor(...args: ConstructorParameters<typeof FetchRequest>) {
          super(...args);
          made += 1;
        }
      },
    );

  it("answers its URL, method and headers without making a Fetch Request", () => {
    countingRequests();
    const request = requestOnDemand(
      "http://shop.test/api/services?x=1",
      incoming(["Accept-Encoding", "br", "Authorization", "Bearer t", "X-Two", "a", "x-two", "b"]),
    );
    expect(request).toBeInstanceOf(FetchRequest);
    expect(request.url).toBe("http://shop.test/api/services?x=1");
    expect(request.method).toBe("GET");
    expect(request.headers.get("authorization")).toBe("Bearer t");
    expect(request.headers.get("x-two")).toBe("a, b");
    expect(new URL(request.url).searchParams.get("x")).toBe("1");
    expect(made).toBe(0);
  });

  it("is the real Request for everything else, made once, with the same URL, method and headers", async () => {
    countingRequests();
    const request = requestOnDemand("http://shop.test/api/reports/my-reports", incoming(["Cookie", "a=1", ":authority", "shop.test"], "HEAD"));
    expect(request.signal).toBeInstanceOf(AbortSignal);
    expect(request.signal.aborted).toBe(false);
    expect(made).toBe(1);
    const copy = request.clone();
    expect(copy).toBeInstanceOf(FetchRequest);
    expect([copy.url, copy.method, copy.headers.get("cookie")]).toEqual(["http://shop.test/api/reports/my-reports", "HEAD", "a=1"]);
    // An HTTP/2 pseudo-header is not a header of the request.
    expect([...request.headers.keys()]).toEqual(["cookie"]);
    expect(request.body).toBeNull();
    expect(await request.text()).toBe("");
    // One real Request for all of it (a clone is made by undici itself).
    expect(made).toBe(1);
  });
});
