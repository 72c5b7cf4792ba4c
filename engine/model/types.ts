/**
 * @module The values a formula computes with, and the runtime a compiled formula reads from.
 */
import type { Dec } from '../values/decimal.js'
import type { Currency } from '../values/money.js'
import type { DatasetStore } from '../data/store.js'
import type { DatasetEntry, Dated, LookupEntry, ParameterEntry, Scalar, ScheduleEntry, SeriesEntry, Bracket, LookupRow, TableEntry, TableFamily } from '../data/tables.js'

/** A value in a formula: amounts are decimals, never binary floats. */
export type Value = Dec | string | boolean | null | Value[] | { [key: string]: Value }

/** Where a dated table is read: on the calculation date (no `date`) or on another date of the case. */
export interface TableReadAt {
  date?: string
}

/** What a table read gives, whatever its kind. */
export type TableValue = Scalar | Bracket[] | Map<string, LookupRow> | Dec | DatasetStore

/** Where a table of this kind is read: a series at a point, a dated table on a date, a data set whole. */
export type TableReadOn<E extends TableEntry> = E extends SeriesEntry ? { key: string } : E extends DatasetEntry ? undefined : TableReadAt | undefined

/** What reading a table of this kind gives. */
export type TableValueOf<E extends TableEntry> = E extends ParameterEntry
  ? Scalar
  : E extends ScheduleEntry
    ? Bracket[]
    : E extends LookupEntry
      ? Map<string, LookupRow>
      : E extends SeriesEntry
        ? Dec
        : E extends DatasetEntry
          ? DatasetStore
          : TableValue

/** The one read path of every table kind, typed by the kind read. */
export type TableRead = <E extends TableEntry>(entry: E, on?: TableReadOn<E>) => TableValueOf<E>

/** What a compiled formula may ask of the evaluation it runs in. @api private */
export interface Runtime {
  get(name: string): Value
  /** The value in slot `index` of the scope `depth` levels out (0: the formula's own scope). */
  slot(depth: number, index: number): Value
  /**
   * A table's value: a dated table's on the calculation date, or `on.date` (another date of the
   * case: a date of birth, a family member's year); a series' point `on.key`; a data set's queries.
   * The one read path of every table kind: it cites the table and the value read, dates the answer
   * by the table's retrieval, notes a caveat, and records the read in an explanation.
   */
  read: TableRead
  /** Whether a dated table has a value in force on a date. */
  inForce(entry: TableEntry, date: string): boolean
  /** A table family of the catalog, by its folder id. */
  family(id: string): TableFamily | undefined
  /** Cite a dated value listed in the answer (a family member's history): its table's and its own references, its caveat as a note. */
  citeValue(entry: ParameterEntry, dated: Dated<Scalar>): void
  /** Date the answer by a file it describes without reading a figure of it (a coverage report). */
  dataDate(asOf: string): void
  /**
   * Count `units` steps of work against the request's limits (engine/run/collector.ts): what a library
   * function that loops charges for the work it does. Absent in a runtime without limits (a test's
   * or a tool's stand-in), which then counts nothing.
   */
  work?(units: number): void
  /** How a declared text prints money (`{$x}`), as a note does: the endpoint's currency. */
  currency(): Currency
  /**
   * A costly pure result kept for the rest of the request under `key` (a fractional power: a
   * discount factor read again at every step of a search), computed by `compute` the first time.
   * Absent in a runtime without a request (a test's stand-in), which then computes every time.
   */
  keep?<T extends Value>(key: string, compute: () => T): T
}

export type Compiled = (rt: Runtime) => Value
