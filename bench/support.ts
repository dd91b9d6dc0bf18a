import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensureBuild, startServer } from "../tests/support/server-process";

/** A production server on a scratch DATA_DIR (embedded defaults) for a benchmark. */
export async function benchServer(env: Record<string, string> = {}) {
  ensureBuild();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "brandlift-bench-"));
  const server = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: "error", ...env });
  return {
    ...server,
    async close() {
      await server.stop("SIGTERM");
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function writeResult(name: string, result: unknown) {
  const dir = path.resolve("bench/results");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(result, null, 2));
}
