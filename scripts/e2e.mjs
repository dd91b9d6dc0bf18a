import { spawn } from "node:child_process";

import { ensureBuild } from "./ensure-build.mjs";

/*
 * `npm run test:e2e`: the production build (made once, unless it is of these very sources), then the
 * main suite (playwright.config.ts) and the two-node delivery story (playwright.nodes.config.ts)
 * side by side. The main suite's second worker is idle while its no-JavaScript runs go one at a
 * time, which is about when the two-node story runs. Its output is held and printed once the main
 * suite ends, so the log reads as two runs: a line says when it finished earlier, and if it is still
 * running then, what it printed so far comes at once and the rest as it comes (a hang shows as it
 * happens, not only when its timeouts fire). The exit code is non-zero if either fails.
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
const started = Date.now();
let held = [];
const keep = (chunk) => (held ? held.push(chunk) : process.stdout.write(chunk));
nodes.stdout.on("data", keep);
nodes.stderr.on("data", keep);

const exited = (child) => new Promise((resolve) => child.on("close", (code, signal) => resolve(code ?? (signal ? 1 : 0))));
const nodesDone = exited(nodes).then((code) => {
  if (held)
    console.log(`\n[the two-node story finished after ${Math.round((Date.now() - started) / 1000)} s, exit ${code}: its output follows the main suite's]`);
  return code;
});
const mainCode = await exited(main);
process.stdout.write("\n=== the two-node story (playwright.nodes.config.ts) ===\n");
process.stdout.write(Buffer.concat(held));
held = null;
const nodesCode = await nodesDone;
console.log(`main suite exit ${mainCode}, two-node story exit ${nodesCode}`);
process.exit(mainCode !== 0 ? mainCode : nodesCode);
