import { expect, test } from "vitest";

import { teamUnreadCounts } from "./unread.server";

test("staff's unread counts are read once per request: the layout and a customer's page share one answer", async () => {
  const document = new Request("http://localhost/dashboard/users/x");
  const first = teamUnreadCounts(document);
  expect(teamUnreadCounts(document)).toBe(first);
  expect(await first).toEqual({ total: expect.any(Number), byCustomer: expect.any(Object) });
  // The next request reads the counts again (they change with every message).
  expect(teamUnreadCounts(new Request("http://localhost/dashboard/users/x"))).not.toBe(first);
});
