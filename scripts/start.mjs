import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

import { sourceStamp, STAMP_FILE } from "./source-stamp.mjs";

// `npm start`: (re)build whenever the sources differ from those the build was made from, then run it.
const root = path.resolve(import.meta.dirname, "..");
const buildDir = path.join(root, process.env.BUILD_DIR ?? "build");
const stampPath = path.join(buildDir, STAMP_FILE);
const wanted = sourceStamp(root);
const built = ["server.js", "server/index.js"].every((f) => fs.existsSync(path.join(buildDir, f)));
const current = built && fs.existsSync(stampPath) ? fs.readFileSync(stampPath, "utf8").trim() : "";
if (current !== wanted) {
  console.log(built ? "Sources changed since the last build: rebuilding…" : "No production build yet: building (about a minute)…");
  const result = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
process.env.NODE_ENV ??= "production";
process.chdir(root);
await import(path.join(buildDir, "server.js"));
