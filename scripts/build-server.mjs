import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";

import { sourceStamp, STAMP_FILE } from "./source-stamp.mjs";

// server/entry.ts → build/server.js, and what it imports on demand (server.ts, tracing) → build/server-*.js
// chunks beside it, loaded only when imported; node_modules stay external (runtime dependencies).
const outdir = process.env.BUILD_DIR ?? "build";
fs.mkdirSync(outdir, { recursive: true });
for (const file of fs.readdirSync(outdir)) if (/^server-.*\.js$/.test(file)) fs.rmSync(path.join(outdir, file));
await build({
  entryPoints: { server: "server/entry.ts" },
  outdir,
  splitting: true,
  chunkNames: "server-[name]-[hash]",
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
