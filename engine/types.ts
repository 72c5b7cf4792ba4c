/**
 * @module The values a formula computes with, and the runtime a compiled formula reads from.
 */
import type { Dec } from './decimal.js'
import type { Currency } from './money.js'
import type { DatasetStore } from './data/store.js'
import type { DatasetEntry, Dated, LookupEntry, ParameterEntry, Scalar, ScheduleEntry, SeriesEntry, Bracket, LookupRow, TableEntry, TableFamily } from './tables.js'

/** A value in a formula: amounts are decimals, never binary floats. */
export type Value = Dec | string | boolean | null | Value[] | { [key: string]: Value }

/** What a compiled formula may ask of the evaluation it runs in. @api private */
export interface Runtime {
  get(name: string): Value
  /** The value in slot `index` of the scope `depth` levels out (0: the formula's own scope). */
  slot(depth: number, index: number): Value
  parameter(entry: ParameterEntry): Scalar
  /** A parameter in force on another date than the calculation date. */
  parameterAt(entry: ParameterEntry, date: string): Scalar
  schedule(entry: ScheduleEntry): Bracket[]
  lookup(entry: LookupEntry): Map<string, LookupRow>
  /** A lookup's rows in force on another date than the calculation date (a family member's), cited. */
  lookupAt(entry: LookupEntry, date: string): Map<string, LookupRow>
  series(entry: SeriesEntry, key: string): Dec
  /** A data set's queries; reading it cites its source and dates the answer by its retrieval. */
  dataset(entry: DatasetEntry): DatasetStore
  /** Whether a dated table has a value in force on a date. */
  inForce(entry: TableEntry, date: string): boolean
  /** A table family of the catalog, by its folder id. */
  family(id: string): TableFamily | undefined
  /** Cite a dated value listed in the answer (a family member's history): its table's and its own references, its caveat as a note. */
  citeValue(entry: ParameterEntry, dated: Dated<Scalar>): void
  /** Date the answer by a file it describes without reading a figure of it (a coverage report). */
  dataDate(asOf: string): void
  /**
   * Count `units` steps of work against the request's limits (engine/collector.ts): what a library
   * function that loops charges for the work it does. Absent in a runtime without limits (a test's
   * or a tool's stand-in), which then counts nothing.
   */
  work?(units: number): void
  /** How a declared text prints money (`{$x}`), as a note does: the endpoint's currency. */
  currency(): Currency
}

export type Compiled = (rt: Runtime) => Value
