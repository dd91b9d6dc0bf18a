import { BaseSequencer, type TestSpecification } from "vitest/node";

/*
 * The order `npm test` starts its files in. Vitest runs the files it has timed before (its cache in
 * node_modules/.vite) longest first within each project, projects by name, and files it has not, as in
 * CI's clean clone, largest first: the shards of the authorization table and of the hostile-input
 * suite are three-line files, and the run ended with one worker on the backup file and the Stripe
 * files while the others had nothing left. Here the longest files start first, whatever their
 * project: the backup file (its own process and the command-line processes it starts) beside the
 * shards. Then the projects follow one another, each whole: a worker that ends a file is kept for
 * the next only when that file is of its project, and is stopped otherwise, so a project's files
 * interleaved with another's start its workers (a process, its PGlite and the app's import) again.
 * The rest of `unit` follows its shards in the workers that ran them; then the fake Stripe and S3
 * files (`unit-fakes`) and the files of their own process (`unit-env`); `pure`'s many short files
 * fill the end. Decisions 312 and 315.
 */

/** The longest files of the run, in the order they start: their size on disk says nothing of their cost. */
const FIRST = [
  /tests\/integration\/backup\.test\.ts$/,
  /tests\/integration\/hostile-input-\d+\.test\.ts$/,
  /tests\/integration\/authorization-(\d+|setup-only)\.test\.ts$/,
  /tests\/integration\/conformance\.test\.ts$/,
];
const PROJECT_ORDER = ["unit", "unit-fakes", "unit-env", "pure"];

export default class CostFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const position = new Map(sorted.map((spec, index) => [spec, index]));
    const rank = (order: number) => (order === -1 ? Number.MAX_SAFE_INTEGER : order);
    const firstRank = (spec: TestSpecification) => rank(FIRST.findIndex((pattern) => pattern.test(spec.moduleId)));
    const projectRank = (spec: TestSpecification) => rank(PROJECT_ORDER.indexOf(spec.project.name));
    return sorted.sort((a, b) => firstRank(a) - firstRank(b) || projectRank(a) - projectRank(b) || position.get(a)! - position.get(b)!);
  }
}
