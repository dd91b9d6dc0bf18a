import { spawn } from "node:child_process";

import { ensureBuild } from "./ensure-build.mjs";

/*
 * `npm run test:e2e`: the production build (made once, unless it is of these very sources), then the
 * main suite (playwright.config.ts) and the two-node delivery story (playwright.nodes.config.ts)
 * side by side. The main suite's second worker is idle while its no-JavaScript runs go one at a
 * time, which is about when the two-node story runs. Its output is held and printed after the main
 * suite's, so the log reads as two runs; the exit code is non-zero if either fails.
 */
try {
  ensureBuild();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}

const extra = process.argv.slice(2);
const main = spawn("npx", ["playwright", "test", ...extra], { stdio: "inherit" });
const nodes = spawn("npx", ["playwright", "test", "-c", "playwright.nodes.config.ts", ...extra], { stdio: ["ignore", "pipe", "pipe"] });
const held = [];
nodes.stdout.on("data", (chunk) => held.push(chunk));
nodes.stderr.on("data", (chunk) => held.push(chunk));

const exited = (child) => new Promise((resolve) => child.on("close", (code, signal) => resolve(code ?? (signal ? 1 : 0))));
const [mainCode, nodesCode] = await Promise.all([exited(main), exited(nodes)]);
process.stdout.write("\n=== the two-node story (playwright.nodes.config.ts) ===\n");
process.stdout.write(Buffer.concat(held));
console.log(`main suite exit ${mainCode}, two-node story exit ${nodesCode}`);
process.exit(mainCode !== 0 ? mainCode : nodesCode);
