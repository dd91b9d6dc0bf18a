import { BaseSequencer, type TestSpecification } from "vitest/node";

/*
 * The order `npm test` starts its files in. Vitest runs the files it has timed before (its cache in
 * node_modules/.vite) longest first, and files it has not, as in CI's clean clone, largest first: the
 * shards of the authorization table and of the hostile-input suite are three-line files, so they came
 * last, and the run ended with one or two workers busy on them while the third had nothing left.
 * Here those files go first in their project when vitest has no time for them, and the projects whose
 * files are few and long (their own processes, the fake Stripe and S3) start before the many short
 * ones. Decision 312.
 */

/** Files that run a large shared suite: their size on disk says nothing of their cost. */
const HEAVY = [
  /tests\/integration\/hostile-input-\d+\.test\.ts$/,
  /tests\/integration\/authorization-(\d+|setup-only)\.test\.ts$/,
  /tests\/integration\/conformance\.test\.ts$/,
];
/** Projects with few, long files first; `pure`'s many short ones fill the end. */
const PROJECT_ORDER = ["unit-env", "unit-fakes", "unit", "pure"];

export default class CostFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const position = new Map(sorted.map((spec, index) => [spec, index]));
    const projectRank = (spec: TestSpecification) => {
      const rank = PROJECT_ORDER.indexOf(spec.project.name);
      return rank === -1 ? PROJECT_ORDER.length : rank;
    };
    const untimedHeavy = (spec: TestSpecification) =>
      HEAVY.some((pattern) => pattern.test(spec.moduleId)) &&
      !this.ctx.cache.getFileTestResults(`${spec.project.name}:${spec.moduleId.slice(this.ctx.config.root.length + 1)}`);
    return sorted.sort((a, b) => projectRank(a) - projectRank(b) || Number(untimedHeavy(b)) - Number(untimedHeavy(a)) || position.get(a)! - position.get(b)!);
  }
}
