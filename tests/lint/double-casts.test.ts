import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";

/**
 * `as unknown as` tells the compiler to believe anything. Product code uses it only where a
 * library's types cannot say what the code does; everywhere else a value gets a type of its own
 * (an apiRoute's JsonAnswer, the Stripe events the dispatcher reads). A new one is a decision: it
 * goes in this list with its reason.
 */
const ALLOWED: Record<string, { count: number; why: string }> = {
  "db/client.ts": {
    count: 3,
    why: "drizzle's per-driver database types have no common supertype with our Db; postgres.js's query type hides the resolve its result goes through",
  },
  "server.ts": { count: 1, why: "a header-only middleware run against a stand-in response" },
  "server/tracing.ts": { count: 1, why: "wrapping a prototype's methods by name" },
  "app/utils/redis.server.ts": { count: 1, why: "wrapping a client's methods by name" },
  "app/utils/read-together.server.ts": { count: 2, why: "drizzle keeps an expression's decoder and a select's left-join map out of its types" },
  "app/utils/webhook-request.server.ts": { count: 1, why: "Node's lookup callback type lacks its `all` form" },
  "app/models/passkeys.server.ts": { count: 2, why: "the schema checks the answer's outline, the library the whole of it" },
  "app/models/payments.server.ts": { count: 1, why: "test mode's Stripe stand-ins hold only the fields the handlers read" },
  "app/routes/_index.tsx": { count: 1, why: "a client action's 503 Response where its data is typed (single fetch would wrap data() again)" },
  "app/routes/_auth+/login.tsx": { count: 1, why: "a client action's 503 Response where its data is typed (single fetch would wrap data() again)" },
};

const root = path.resolve(import.meta.dirname, "../..");
const files = [
  "server.ts",
  ...["app", "db", "server"].flatMap((dir) =>
    readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
      .map((file) => path.join(dir, file)),
  ),
];

it("product code casts through unknown only where a library's types leave no other way", () => {
  const found: Record<string, number> = {};
  for (const file of files) {
    const count = readFileSync(path.join(root, file), "utf8").split("as unknown as").length - 1;
    if (count > 0) found[file] = count;
  }
  expect(found).toEqual(Object.fromEntries(Object.entries(ALLOWED).map(([file, { count }]) => [file, count])));
});
