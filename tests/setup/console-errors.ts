import { afterEach, beforeEach, vi } from "vitest";

/**
 * console.error during a test fails it. Every project's setup file calls this: a setup file runs
 * again before each test file, but a module it imports is evaluated once per worker where the worker
 * runs many files (`isolate: false`), so hooks registered at an import's top level would guard only
 * the worker's first file.
 */
export function failTestsOnConsoleError() {
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
}
