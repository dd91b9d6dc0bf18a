import { expect, test } from "vitest";

import { requestContext } from "~/utils/request-context.server";

import { teamUnreadCounts } from "./unread.server";

const page = () => new Request("http://localhost/dashboard/users/x");

test("a document's loaders share one read of staff's unread counts, though Remix gives each its own Request object", async () => {
  const [layout, customerPage] = requestContext.run({ requestId: "read", method: "GET" }, () => [teamUnreadCounts(page()), teamUnreadCounts(page())]);
  expect(customerPage).toBe(layout);
  expect(await layout).toEqual({ total: expect.any(Number), byCustomer: expect.any(Object) });
  // The next request reads the counts again (they change with every message).
  const next = requestContext.run({ requestId: "next", method: "GET" }, () => teamUnreadCounts(page()));
  expect(next).not.toBe(layout);
  await next;
});

test("a request that writes reads them again for each Request object: its action may have changed them", async () => {
  const [action, loader] = requestContext.run({ requestId: "write", method: "POST" }, () => [teamUnreadCounts(page()), teamUnreadCounts(page())]);
  expect(loader).not.toBe(action);
  await Promise.all([action, loader]);
});
