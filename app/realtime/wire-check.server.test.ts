import { describe, expect, it, onTestFinished, vi, type TestContext } from "vitest";
import { z } from "zod";

import { logger } from "~/utils/logger.server";

import { fitsWireSchema } from "./wire-check.server";

const thread = z.object({ _id: z.string(), name: z.string() });
const drifted = { _id: "t1", name: "Acme", internalNote: "not for the customer" };

describe("a socket event held to its schema, under test", () => {
  it("a matching event is sent without a word", () => {
    const said = vi.spyOn(console, "error");
    expect(fitsWireSchema("threadUpdated", thread, { _id: "t1", name: "Acme" })).toBe(true);
    expect(said).not.toHaveBeenCalled();
  });

  it("a drifted event is not sent and is said on the console with the schema's message, not in the log (silent under test)", () => {
    const said = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const logged = vi.spyOn(logger, "error");
    onTestFinished(() => logged.mockRestore());
    expect(fitsWireSchema("threadUpdated", thread, drifted)).toBe(false);
    expect(fitsWireSchema("threadUpdated", thread, { _id: "t1" })).toBe(false);
    expect(said.mock.calls).toEqual([
      [expect.stringMatching(/^threadUpdated not sent, it drifted from its schema: it sends .*"internalNote"/)],
      [expect.stringMatching(/^threadUpdated not sent, it drifted from its schema: .*name/s)],
    ]);
    expect(logged).not.toHaveBeenCalled();
  });

  // What the next test reads: how the test that sent a drifted event ended.
  let failures: string[] = [];

  it.fails("so the test that sends a drifted event fails", ({ task }: TestContext) => {
    onTestFinished(() => {
      failures = (task.result?.errors ?? []).map((error) => String(error.message));
    });
    fitsWireSchema("threadUpdated", thread, drifted);
  });

  it("with the console guard's failure, naming the event and the key its schema does not declare", () => {
    expect(failures).toEqual([
      expect.stringMatching(/^console\.error was called during the test:\nthreadUpdated not sent, it drifted from its schema: .*"internalNote"/s),
    ]);
  });
});
