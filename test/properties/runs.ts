/**
 * @module How many cases each property test runs, in one place.
 *
 * Every property names its own default, sized so the whole property suite stays within a few
 * seconds of `npm test` (an optimizer property gets fewer runs than a cheap validation one).
 * `FUZZ_RUNS=N` raises them all in proportion: a property whose default is DEFAULT_RUNS runs N
 * cases, one whose default is a tenth of that runs N/10, and none runs fewer than its default.
 *
 * A failure prints fast-check's seed and path. `FUZZ_SEED=<seed>` generates the same cases again;
 * with `FUZZ_PATH=<path>` as well, run only the file of the failed property
 * (`node dist/test/properties/<file>.test.js`): the path is that property's.
 */
import * as fc from 'fast-check'

/** The default of a cheap property: the reference that FUZZ_RUNS scales. */
export const DEFAULT_RUNS = 40

const raised = Number(process.env.FUZZ_RUNS ?? 0)
if (process.env.FUZZ_RUNS !== undefined && !(Number.isInteger(raised) && raised > 0)) {
  throw new Error(`FUZZ_RUNS must be a positive whole number, not ${JSON.stringify(process.env.FUZZ_RUNS)}`)
}

/** The run count of a property whose default is `defaultRuns`. */
export function runs(defaultRuns = DEFAULT_RUNS): number {
  if (!raised) return defaultRuns
  return Math.max(defaultRuns, Math.round((raised * defaultRuns) / DEFAULT_RUNS))
}

/** fast-check parameters: the run count, and the seed and path to replay when given. */
export function params<T>(defaultRuns = DEFAULT_RUNS): fc.Parameters<T> {
  const seed = process.env.FUZZ_SEED
  const path = process.env.FUZZ_PATH
  return {
    numRuns: runs(defaultRuns),
    ...(seed !== undefined ? { seed: Number(seed) } : {}),
    ...(path !== undefined ? { path } : {}),
    // The failed assertion's message in the report itself (uvu prints no error cause).
    includeErrorInReport: true,
  }
}
