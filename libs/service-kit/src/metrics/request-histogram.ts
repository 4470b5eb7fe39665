/**
 * The request-latency histogram of every app, as a prom-client metric of its own making. prom-client's
 * Histogram validates the label names and hashes the sorted label set on every observe (its `labels()`
 * children do the same), ~3% of the single-log ingestion path. Here the caller keeps the series it looked up
 * once per label set (by a string key) and an observation is a bucket search and three additions.
 *
 * The registry renders it exactly as prom-client renders its own Histogram (test: the same observations give
 * byte-identical scrape text): `get`/`getForPromString` answer the same shapes.
 */
import type { Registry } from 'prom-client';

type Labels = Readonly<Record<string, string>>;

/** One label set's counts: a count per bucket (not cumulative), the sum and the count of observations. */
export interface HistogramSeries {
  readonly labels: Labels;
  readonly buckets: number[];
  sum: number;
  count: number;
}

interface ExportedValue {
  labels: Record<string, string | number>;
  sharedLabels?: Labels;
  value: number;
  metricName: string;
  /** Buckets only, as prom-client's: this histogram records no exemplars. */
  exemplar?: null;
}

export interface RequestHistogramConfig {
  readonly name: string;
  readonly help: string;
  /** Upper bounds in ascending order (seconds); +Inf is implied. */
  readonly buckets: readonly number[];
  readonly registry: Registry;
}

export class RequestHistogram {
  readonly name: string;
  readonly help: string;
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #bounds: readonly number[];
  readonly #series = new Map<string, HistogramSeries>();

  constructor(config: RequestHistogramConfig) {
    this.name = config.name;
    this.help = config.help;
    this.#bounds = config.buckets;
    // The registry reads any object with prom-client's metric shape (name, help, type, get).
    config.registry.registerMetric(this as unknown as Parameters<Registry['registerMetric']>[0]);
  }

  /** The series of `key`, created with `labels()` the first time (the key stands for the label set). */
  series(key: string, labels: () => Labels): HistogramSeries {
    let series = this.#series.get(key);
    if (series === undefined) {
      series = { labels: labels(), buckets: new Array<number>(this.#bounds.length).fill(0), sum: 0, count: 0 };
      this.#series.set(key, series);
    }
    return series;
  }

  observe(series: HistogramSeries, value: number): void {
    const bounds = this.#bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]!) {
        series.buckets[i]! += 1;
        break;
      }
    }
    series.sum += value;
    series.count += 1;
  }

  reset(): void {
    this.#series.clear();
  }

  /** What the registry's text rendering reads (prom-client's Histogram#getForPromString shape). */
  async getForPromString(): Promise<{ name: string; help: string; type: string; aggregator: string; values: ExportedValue[] }> {
    const values: ExportedValue[] = [];
    const bucketName = `${this.name}_bucket`;
    for (const series of this.#series.values()) {
      let cumulative = 0;
      for (let i = 0; i < this.#bounds.length; i++) {
        cumulative += series.buckets[i]!;
        values.push({ labels: { le: this.#bounds[i]! }, sharedLabels: series.labels, value: cumulative, metricName: bucketName, exemplar: null });
      }
      values.push({ labels: { le: '+Inf' }, sharedLabels: series.labels, value: series.count, metricName: bucketName, exemplar: null });
      values.push({ labels: {}, sharedLabels: series.labels, value: series.sum, metricName: `${this.name}_sum` });
      values.push({ labels: {}, sharedLabels: series.labels, value: series.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  /** The JSON form (registry.getMetricsAsJSON): the series labels spread into each value's labels. */
  async get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: ExportedValue[] }> {
    const data = await this.getForPromString();
    data.values = data.values.map(({ sharedLabels, ...value }) => ({ ...value, labels: { ...value.labels, ...sharedLabels } }));
    return data;
  }
}
