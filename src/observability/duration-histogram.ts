// gitops_config_http_request_duration_seconds, read from the request counts at scrape time.
// prom-client's Histogram can only be fed one observation at a time (hashing its label object
// each time); the counts are already aggregated in buckets, so this metric hands the registry
// their cumulative form itself, in the shape the registry asks every metric for (get()).
import type { Metric } from 'prom-client';
import { DURATION_BUCKETS, type RequestCounts } from './request-counts.ts';

/** One sample line as the registry formats it: name, labels in order, value. */
interface Value {
  metricName: string;
  labels: Record<string, string | number>;
  value: number;
}

export class DurationHistogram {
  readonly name: string;
  readonly help: string;
  readonly type = 'histogram';
  readonly aggregator = 'sum' as const;
  readonly #requests: RequestCounts;

  constructor(name: string, help: string, requests: RequestCounts) {
    this.name = name;
    this.help = help;
    this.#requests = requests;
  }

  /** As the registry registers it (it asks a metric only for its name, get() and reset()). */
  asMetric(): Metric {
    return this as unknown as Metric;
  }

  async get(): Promise<{ name: string; help: string; type: 'histogram'; aggregator: 'sum'; values: Value[] }> {
    const values: Value[] = [];
    const bucket = `${this.name}_bucket`;
    for (const counts of this.#requests.all()) {
      const labels = { route: counts.route, method: counts.method };
      let cumulative = 0;
      for (let i = 0; i < DURATION_BUCKETS.length; i++) {
        cumulative += counts.buckets[i];
        values.push({ metricName: bucket, labels: { ...labels, le: DURATION_BUCKETS[i] }, value: cumulative });
      }
      values.push({ metricName: bucket, labels: { ...labels, le: '+Inf' }, value: counts.count });
      values.push({ metricName: `${this.name}_sum`, labels, value: counts.seconds });
      values.push({ metricName: `${this.name}_count`, labels, value: counts.count });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  /** Counts are never reset: a scrape reads them as they are. */
  reset(): void {}
}
