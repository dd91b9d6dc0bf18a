import base from "./vitest.config";
const b = base as any;
for (const p of b.test.projects) {
  if (p.test.name === "pure" && process.env.PURE_SHARED) { p.test.isolate = false; }
  if (process.env.LIFTOFF && p.test.name !== "pure") p.test.execArgv = process.env.LIFTOFF.split(" ");
}
export default base;
