import path from "node:path";

import { ensureBuild } from "./ensure-build.mjs";

// `npm start`: (re)build whenever the sources differ from those the build was made from, then run it.
const root = path.resolve(import.meta.dirname, "..");
const buildDir = ensureBuild(root);
process.env.NODE_ENV ??= "production";
process.chdir(root);
await import(path.join(buildDir, "server.js"));
