import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";

import { sourceStamp, STAMP_FILE } from "./source-stamp.mjs";

// server.ts → build/server.js; node_modules stay external (they are runtime dependencies).
await build({
  entryPoints: ["server.ts"],
  outfile: `${process.env.BUILD_DIR ?? "build"}/server.js`,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  tsconfig: "tsconfig.json",
  logLevel: "warning",
});

// Written last: a build that failed half-way has no stamp, so `npm start` builds again.
const root = path.resolve(import.meta.dirname, "..");
fs.writeFileSync(path.join(root, process.env.BUILD_DIR ?? "build", STAMP_FILE), sourceStamp(root));
