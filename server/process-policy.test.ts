import { afterEach, describe, expect, test, vi } from "vitest";

import { logger } from "~/utils/logger.server";

import { onUncaughtException, onUnhandledRejection, unhandledRejectionCount } from "./process-policy";
import { requestContext } from "./request-context";

const spies: { mockRestore(): void }[] = [];
afterEach(() => {
  for (const spy of spies.splice(0)) spy.mockRestore();
});

describe("the process policy", () => {
  test("an unhandled rejection is logged with the id of the request that started it, and nothing exits", async () => {
    const error = vi.spyOn(logger, "error").mockImplementation(() => undefined);
    const exit = vi.spyOn(process, "exit").mockImplementation((() => undefined) as never);
    spies.push(error, exit);
    const before = unhandledRejectionCount();
    // The handler runs in the async context of the rejected promise, as Node calls it.
    await requestContext.run({ requestId: "req-123", method: "GET" }, async () => {
      await Promise.resolve();
      onUnhandledRejection(new Error("nobody caught me"));
    });
    expect(error).toHaveBeenCalledWith(
      expect.objectContaining({ requestId: "req-123", err: expect.objectContaining({ message: "nobody caught me" }) }),
      "unhandled promise rejection: serving on",
    );
    expect(unhandledRejectionCount()).toBe(before + 1);
    expect(exit).not.toHaveBeenCalled();
  });

  test("an uncaught exception is logged as fatal and the node drains and exits 1", () => {
    const fatal = vi.spyOn(logger, "fatal").mockImplementation(() => undefined);
    spies.push(fatal);
    const drainAndExit = vi.fn();
    requestContext.run({ requestId: "req-456", method: "GET" }, () => onUncaughtException(new Error("thrown in a handler"), "uncaughtException", drainAndExit));
    expect(fatal).toHaveBeenCalledWith(expect.objectContaining({ requestId: "req-456" }), "uncaught exception: draining and exiting");
    expect(drainAndExit).toHaveBeenCalledWith("uncaughtException", 1);
  });
});
