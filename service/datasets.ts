/**
 * @module Keeping a serving process's data sets current: every `every` seconds, the data sets whose
 * installed copy (`npm run data -- update`, engine/data/updates.ts) changed are reopened and swapped
 * in, so a new copy serves without a restart. A copy that fails its checks is said once on stderr
 * and the last good data keeps serving.
 */
import { DATASET_CACHE_DIR } from '../engine/data/store.js'
import { refreshDatasets } from '../engine/data/updates.js'
import type { DatasetEntry } from '../engine/data/tables.js'
import type { Law } from '../engine/load/load.js'

export function keepDatasetsCurrent(law: Law, datasetsDir: string, every: number, log: (line: string) => void = console.log): NodeJS.Timeout | undefined {
  if (!(every > 0)) return undefined
  const datasets = [...law.tables.values()].filter((t): t is DatasetEntry => t.kind === 'dataset')
  let failed = ''
  const timer = setInterval(() => {
    const { swapped, problems } = refreshDatasets(datasets, datasetsDir, DATASET_CACHE_DIR)
    if (swapped.length > 0) log(`data sets reopened from their installed copies: ${swapped.join(', ')}`)
    const said = problems.map((p) => `${p.file}:${p.line}: ${p.message}`).join('; ')
    if (said && said !== failed) log(`an installed data set copy was refused, the last good data keeps serving: ${said}`)
    failed = said
  }, every * 1000)
  timer.unref()
  return timer
}
