import { afterEach, beforeEach, vi } from "vitest";

/** console.error during a test fails it (every project's setup imports this). */
let consoleErrors: unknown[][] = [];
beforeEach(() => {
  consoleErrors = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    consoleErrors.push(args);
  });
});
afterEach(() => {
  vi.mocked(console.error).mockRestore();
  if (consoleErrors.length > 0) {
    throw new Error(`console.error was called during the test:\n${consoleErrors.map((a) => a.map(String).join(" ")).join("\n")}`);
  }
});
