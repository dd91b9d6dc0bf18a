import { describe, expect, test } from "vitest";

import { BASE_URL } from "./authorization/helpers";
import { hostileInputSuite, invoke, rows, watchQueryReads } from "./hostile-input/suite";

hostileInputSuite(1, 3);

describe("the watch on query reads", () => {
  test("names each parameter read, and every name when the query is read whole", async () => {
    const originalGet = URLSearchParams.prototype.get;
    const url = new URL(`${BASE_URL}/x?page=2&q=a`);
    expect((await watchQueryReads(async () => url.searchParams.get("page") && url.searchParams.has("status"))).read).toEqual(new Set(["page", "status"]));
    expect((await watchQueryReads(async () => Object.fromEntries(url.searchParams))).read).toBe("all");
    expect((await watchQueryReads(async () => `${url.pathname}${url.search}`)).read).toBe("all");
    expect((await watchQueryReads(async () => url.pathname)).read).toEqual(new Set());
    // The prototypes are put back: nothing is watched outside a call.
    expect(URLSearchParams.prototype.get).toBe(originalGet);
  });

  test("sees what real loaders read: the customer list its search and page, the orders list all it is given", async () => {
    const users = rows.find((r) => r.method === "GET" && r.route === "dashboard+/_staff+/users+/_index.tsx")!;
    expect((await invoke(users, "/dashboard/users?search=a", undefined, "team")).read).toEqual(new Set(["search", "page"]));
    const orders = rows.find((r) => r.method === "GET" && r.route === "dashboard+/_staff+/orders+/_index.tsx")!;
    expect((await invoke(orders, "/dashboard/orders", undefined, "team")).read).toBe("all");
  });
});
