import { expect, test } from "vitest";

import { oncePerRequest, requestContext } from "./request-context.server";

const page = () => new Request("http://localhost/dashboard/services");

test("a reading request's loaders share one answer, though Remix gives each its own Request object", () => {
  let reads = 0;
  const read = () => ++reads;
  requestContext.run({ requestId: "r1", method: "GET" }, () => {
    expect(oncePerRequest(page(), "identity", read)).toBe(1);
    expect(oncePerRequest(page(), "identity", read)).toBe(1);
    // Another key is another read.
    expect(oncePerRequest(page(), "unread", read)).toBe(2);
  });
  // The next HTTP request reads again.
  requestContext.run({ requestId: "r2", method: "HEAD" }, () => {
    expect(oncePerRequest(page(), "identity", read)).toBe(3);
  });
});

test("a request that writes shares nothing across its Request objects: the action may change what a loader reads", () => {
  let reads = 0;
  const read = () => ++reads;
  requestContext.run({ requestId: "r3", method: "POST" }, () => {
    const actionRequest = page();
    expect(oncePerRequest(actionRequest, "identity", read)).toBe(1);
    expect(oncePerRequest(actionRequest, "identity", read)).toBe(1);
    expect(oncePerRequest(page(), "identity", read)).toBe(2);
  });
});

test("outside a server request (a test, a socket) the Request object is the scope", () => {
  let reads = 0;
  const read = () => ++reads;
  const request = page();
  expect(oncePerRequest(request, "identity", read)).toBe(1);
  expect(oncePerRequest(request, "identity", read)).toBe(1);
  expect(oncePerRequest(page(), "identity", read)).toBe(2);
});
