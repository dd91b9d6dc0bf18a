import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

// `npm start`: build once if there is no production build yet, then run it.
const root = path.resolve(import.meta.dirname, "..");
const built = ["build/server.js", "build/server/index.js"].every((f) => fs.existsSync(path.join(root, f)));
if (!built) {
  console.log("No production build yet: building (about a minute)…");
  const result = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
process.env.NODE_ENV ??= "production";
process.chdir(root);
await import(path.join(root, "build/server.js"));
