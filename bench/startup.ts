/**
 * @module One cold start-up, measured in a fresh process: bench/micro.ts runs this file several
 * times and takes the median, because only a new process shows what the service pays when it starts
 * (no warm JIT, no cached modules).
 *
 * Prints one JSON line: the time from process start to the engine imported, and the time
 * `loadCatalog` takes to read, validate and compile every rule and table file.
 */
const { loadCatalog } = await import('../service/index.js')
const { RULES_DIR, TABLES_DIR } = await import('../service/project/paths.js')
const imported = performance.now()
const catalog = loadCatalog({ rulesDir: RULES_DIR, tablesDir: TABLES_DIR })
const loaded = performance.now()

export interface StartupSample {
  /** Process start to the engine modules imported (node's own boot included). */
  boot_and_import_ms: number
  /** loadCatalog: load, validate and compile every rule and table. */
  load_ms: number
  rule_sets: number
  tables: number
}

const sample: StartupSample = {
  // performance.now() counts from the process's time origin, so this includes node's own boot.
  boot_and_import_ms: imported,
  load_ms: loaded - imported,
  rule_sets: catalog.ruleSets.size,
  tables: catalog.tables.size,
}
process.stdout.write(JSON.stringify(sample) + '\n')
