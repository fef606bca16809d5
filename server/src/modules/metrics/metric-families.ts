import type { Metric, Registry } from 'prom-client';

/**
 * Metric families recorded as plain numbers and read by prom-client only when Prometheus scrapes.
 *
 * prom-client's own Counter and Histogram hash the label object on every `inc`/`observe` (a few µs a
 * call with five labels); on the relay's hot path that is more than the rest of the bookkeeping. Here a
 * caller finds its series once per distinct label set (one Map lookup on a string key it builds), then
 * adds to a number or a bucket array. The registry calls `get()` at scrape time, which renders the same
 * objects prom-client's own metrics produce, so the exposition format is prom-client's.
 */

export type Labels = Record<string, string>;

interface SampleValue {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

interface Family {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'gauge' | 'histogram';
  get(): { name: string; help: string; type: string; aggregator: 'sum'; values: SampleValue[] };
}

/** Registers a family with a prom-client registry (the registry only needs `name` and `get()`). */
export function register(registry: Registry, family: Family): void {
  registry.registerMetric(family as unknown as Metric);
}

/** One counter series: `value` only grows. */
export interface CounterSeries {
  readonly labels: Labels;
  value: number;
}

/** A counter (or, with type 'gauge', a value that may go down) per label set, keyed by the caller's string or number. */
export class CounterFamily implements Family {
  private readonly series = new Map<string | number, CounterSeries>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: 'counter' | 'gauge' = 'counter',
  ) {}

  /** The series for `key`; `labels` is called only the first time the key is seen. */
  at(key: string | number, labels: () => Labels): CounterSeries {
    let s = this.series.get(key);
    if (s === undefined) this.series.set(key, (s = { labels: labels(), value: 0 }));
    return s;
  }

  get size(): number {
    return this.series.size;
  }

  get() {
    const values: SampleValue[] = [];
    for (const s of this.series.values()) values.push({ value: s.value, labels: s.labels });
    return { name: this.name, help: this.help, type: this.type, aggregator: 'sum' as const, values };
  }
}

/** One histogram series: per-bucket (not cumulative) counts, the last one for +Inf. */
export interface HistogramSeries {
  readonly labels: Labels;
  readonly counts: Float64Array;
  sum: number;
  count: number;
}

export class HistogramFamily implements Family {
  readonly type = 'histogram' as const;
  private readonly series = new Map<string | number, HistogramSeries>();

  /** `buckets`: upper bounds in seconds, ascending. */
  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: readonly number[],
  ) {}

  at(key: string | number, labels: () => Labels): HistogramSeries {
    let s = this.series.get(key);
    if (s === undefined)
      this.series.set(
        key,
        (s = { labels: labels(), counts: new Float64Array(this.buckets.length + 1), sum: 0, count: 0 }),
      );
    return s;
  }

  observe(s: HistogramSeries, seconds: number): void {
    const b = this.buckets;
    let i = 0;
    while (i < b.length && seconds > b[i]) i++;
    s.counts[i]++;
    s.sum += seconds;
    s.count++;
  }

  get size(): number {
    return this.series.size;
  }

  get() {
    const values: SampleValue[] = [];
    const bucket = `${this.name}_bucket`;
    for (const s of this.series.values()) {
      let acc = 0;
      for (let i = 0; i <= this.buckets.length; i++) {
        acc += s.counts[i];
        values.push({
          value: acc,
          labels: { ...s.labels, le: i < this.buckets.length ? this.buckets[i] : '+Inf' },
          metricName: bucket,
        });
      }
      values.push({ value: s.sum, labels: s.labels, metricName: `${this.name}_sum` });
      values.push({ value: s.count, labels: s.labels, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: 'sum' as const, values };
  }
}

/** A family whose samples are computed at scrape time (gauges and counters kept elsewhere as plain fields). */
export class ComputedFamily implements Family {
  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: 'counter' | 'gauge',
    private readonly read: () => Array<[Labels, number]>,
  ) {}

  get() {
    const values = this.read().map(([labels, value]) => ({ labels, value }));
    return { name: this.name, help: this.help, type: this.type, aggregator: 'sum' as const, values };
  }
}
