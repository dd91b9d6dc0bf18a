import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { sourceStamp, STAMP_FILE } from "./source-stamp.mjs";

/**
 * Builds the production bundle unless the build in `BUILD_DIR` (default `build`) was made from exactly
 * these sources. `npm start` and `npm run test:e2e` go through it: never a stale build, and never a
 * second build of the same sources (CI's build-dependent suite has just made one).
 */
export function ensureBuild(root = path.resolve(import.meta.dirname, "..")) {
  const buildDir = path.join(root, process.env.BUILD_DIR ?? "build");
  const built = ["server.js", "server/index.js"].every((f) => fs.existsSync(path.join(buildDir, f)));
  const stampPath = path.join(buildDir, STAMP_FILE);
  const current = built && fs.existsSync(stampPath) ? fs.readFileSync(stampPath, "utf8").trim() : "";
  if (current === sourceStamp(root)) return buildDir;
  console.log(built ? "Sources changed since the last build: rebuilding…" : "No production build yet: building (about a minute)…");
  // Always the production bundle: a build started from a test run (NODE_ENV=test) would otherwise be
  // made with Vite's development flags (import.meta.env.DEV), unlike what `npm start` serves.
  const result = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
  if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status})`);
  return buildDir;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  try {
    ensureBuild();
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
