import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/*
 * A fingerprint of everything that goes into the production build: the sources, the lockfile, the
 * patches to dependencies (patches/) and the build configuration. `npm start` rebuilds whenever it
 * differs from the one the build was made from, so a pull never serves the old code (mtimes are not
 * enough: a checkout can make a file older).
 */
const INPUTS = [
  "app",
  "db",
  "public",
  "server",
  "server.ts",
  "package-lock.json",
  "patches",
  "vite.config.ts",
  "tsconfig.json",
  "package.json",
  "scripts/build-server.mjs",
  "scripts/compress-assets.mjs",
  // How the build is made (its NODE_ENV) is part of what it was made from.
  "scripts/ensure-build.mjs",
];

function walk(root, rel, out) {
  const full = path.join(root, rel);
  if (!fs.existsSync(full)) return;
  const stat = fs.statSync(full);
  if (stat.isDirectory()) {
    for (const name of fs.readdirSync(full).sort()) {
      if (name === "node_modules" || /\.test\.tsx?$/.test(name)) continue;
      walk(root, path.join(rel, name), out);
    }
  } else out.push(rel);
}

export function sourceStamp(root) {
  const files = [];
  for (const input of INPUTS) walk(root, input, files);
  const hash = crypto.createHash("sha256");
  for (const file of files)
    hash
      .update(file)
      .update("\0")
      .update(fs.readFileSync(path.join(root, file)))
      .update("\0");
  return hash.digest("hex");
}

export const STAMP_FILE = ".source-stamp";
