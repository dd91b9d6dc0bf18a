import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";

/** One way to start a Redis of one's own: every suite and bench that needs a Redis of its own starts it through privateRedis() in tests/support/private-services.ts. */
const root = path.resolve(import.meta.dirname, "../..");

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.(?:[cm]?[jt]s)$/.test(entry.name) ? [file] : [];
  });
}

it("only tests/support/private-services.ts spawns a redis-server", () => {
  const spawners = [...sources("tests"), ...sources("bench")].filter((file) => /spawn\(\s*["'`]redis-server/.test(readFileSync(path.join(root, file), "utf8")));
  expect(spawners).toEqual([path.join("tests", "support", "private-services.ts")]);
});
