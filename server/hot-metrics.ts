/**
 * @module Counters and histograms for the request path, served through prom-client's registry.
 *
 * prom-client's own `inc` and `observe` take a label object on every call, validate it and hash it
 * into a key: about as much work per request as a state tax answer's whole envelope. Here a series
 * (one set of label values) is looked up once and kept; counting into it is an addition, and
 * observing a duration a bucket search over a dozen bounds. The registry reads the same exposition
 * format from `get()` as from its own metrics, so /metrics and the cluster's sum are unchanged.
 */
import type { Registry } from 'prom-client'

type Labels = Record<string, string | number>

/** One counter series: a set of label values and its count. */
export interface CounterSeries {
  inc(by?: number): void
}

/** One histogram series: a set of label values, its buckets, sum and count. */
export interface HistogramSeries {
  observe(value: number): void
}

interface MetricValue {
  value: number
  labels: Labels
  metricName?: string
}

/** What prom-client's registry reads of a metric (its `get()`), as its own metrics give it. */
interface Exposed {
  name: string
  help: string
  type: 'counter' | 'histogram'
  values: MetricValue[]
  aggregator: 'sum'
}

abstract class HotMetric<S> {
  protected readonly series = new Map<string, S>()
  readonly aggregator = 'sum' as const

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[],
    registers: Registry[],
  ) {
    for (const registry of registers) registry.registerMetric(this as never)
  }

  /** The series of these label values, made on first use; keep it to count into it without a lookup. */
  labels(labels: Labels): S {
    let key = ''
    for (const name of this.labelNames) key += `${labels[name] ?? ''}\u0000`
    let s = this.series.get(key)
    if (!s) this.series.set(key, (s = this.create(this.pick(labels))))
    return s
  }

  private pick(labels: Labels): Labels {
    const out: Labels = {}
    for (const name of this.labelNames) if (labels[name] !== undefined) out[name] = labels[name]!
    return out
  }

  protected abstract create(labels: Labels): S
  abstract get(): Promise<Exposed>

  reset(): void {
    this.series.clear()
  }
}

class CounterCell implements CounterSeries {
  value = 0
  constructor(readonly labels: Labels) {}
  inc(by = 1): void {
    this.value += by
  }
}

/** A counter whose series are kept by the caller (`labels(...)` once, then `inc()`). */
export class HotCounter extends HotMetric<CounterCell> {
  constructor(options: { name: string; help: string; labelNames: readonly string[]; registers: Registry[] }) {
    super(options.name, options.help, options.labelNames, options.registers)
  }
  /** Count once (or `by`) in the series of these label values. */
  inc(labels: Labels, by = 1): void {
    this.labels(labels).inc(by)
  }
  protected create(labels: Labels): CounterCell {
    return new CounterCell(labels)
  }
  async get(): Promise<Exposed> {
    return { name: this.name, help: this.help, type: 'counter', aggregator: 'sum', values: [...this.series.values()].map((c) => ({ value: c.value, labels: c.labels })) }
  }
}

class HistogramCell implements HistogramSeries {
  readonly counts: Float64Array
  sum = 0
  count = 0
  constructor(
    readonly labels: Labels,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length)
  }
  observe(value: number): void {
    if (!Number.isFinite(value)) return
    this.sum += value
    this.count++
    const b = this.bounds
    for (let i = 0; i < b.length; i++) {
      if (value <= b[i]!) {
        this.counts[i]!++
        return
      }
    }
  }
}

/** A histogram whose series are kept by the caller; buckets are upper bounds, as prom-client's. */
export class HotHistogram extends HotMetric<HistogramCell> {
  private readonly bounds: readonly number[]
  constructor(options: { name: string; help: string; labelNames: readonly string[]; buckets: readonly number[]; registers: Registry[] }) {
    super(options.name, options.help, options.labelNames, options.registers)
    this.bounds = [...options.buckets].sort((a, b) => a - b)
  }
  /** Observe one value in the series of these label values. */
  observe(labels: Labels, value: number): void {
    this.labels(labels).observe(value)
  }
  protected create(labels: Labels): HistogramCell {
    return new HistogramCell(labels, this.bounds)
  }
  async get(): Promise<Exposed> {
    const values: MetricValue[] = []
    for (const cell of this.series.values()) {
      // Buckets are cumulative in the exposition format, ending with +Inf (every observation).
      let cumulative = 0
      this.bounds.forEach((le, i) => {
        cumulative += cell.counts[i]!
        values.push({ metricName: `${this.name}_bucket`, labels: { le, ...cell.labels }, value: cumulative })
      })
      values.push({ metricName: `${this.name}_bucket`, labels: { le: '+Inf', ...cell.labels }, value: cell.count })
      values.push({ metricName: `${this.name}_sum`, labels: cell.labels, value: cell.sum })
      values.push({ metricName: `${this.name}_count`, labels: cell.labels, value: cell.count })
    }
    return { name: this.name, help: this.help, type: 'histogram', aggregator: 'sum', values }
  }
}
