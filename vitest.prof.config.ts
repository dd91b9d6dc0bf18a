import base from "./vitest.config";
const b = base as any;
for (const p of b.test.projects) {
  if (process.env.PROF_CPU) p.test.execArgv = ["--cpu-prof", "--cpu-prof-dir=/work/prof/cpu"];
  if (process.env.PROF_Q && p.test.setupFiles) p.test.setupFiles = ["/work/prof/queryhook.ts", ...p.test.setupFiles];
}
export default base;
