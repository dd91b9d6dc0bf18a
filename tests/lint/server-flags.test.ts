import fs from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";

import { SERVER_NODE_FLAGS } from "../../scripts/server-flags.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");

// The test and bench servers take the flags from scripts/server-flags.mjs; the two places that
// cannot import it must carry the same ones, so what is measured is what runs.
test("`npm start` and the Dockerfile start the server with the flags the tests and benches use", () => {
  const start = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts.start!;
  const cmd = /^CMD (\[.*\])$/m.exec(read("Dockerfile"))?.[1];
  expect(cmd).toBeDefined();
  const dockerArgs = JSON.parse(cmd!) as string[];
  expect(SERVER_NODE_FLAGS.length).toBeGreaterThan(0);
  for (const flag of SERVER_NODE_FLAGS) {
    expect(start.split(" ")).toContain(flag);
    expect(dockerArgs.slice(0, dockerArgs.indexOf("build/server.js"))).toContain(flag);
  }
});
