import { failTestsOnConsoleError } from "./console-errors";

failTestsOnConsoleError();

/*
 * Setup of the `pure` project: test files of isomorphic rules and views that never reach the
 * database. Should one start to (through an import), db.server.ts fails at import with this message
 * instead of opening a database of its own: move the file out of the `pure` list in vitest.config.ts.
 */
(globalThis as Record<symbol, unknown>)[Symbol.for("brandlift.test-database")] = new Proxy(
  {},
  {
    get() {
      throw new Error("This test file reaches the database: list it under the `unit` project, not `pure` (vitest.config.ts).");
    },
  },
);
