// What the served revision's answers come to against the consumer's limits, as the alert rules
// ask about it: answers within 10 % of the 900 KiB limit and answers over the 100 inputs the
// consumer keeps by default, counted per endpoint from the rules' own warnings
// (domain/rules/response-size.ts), and the fleet listing's size beside the limit. Read from the
// analysis the rules keep of the served revision, so a scrape costs no walk over the fleet.
import { type Gauge, Gauge as GaugeMetric, type Registry } from 'prom-client';
import { MAX_RESPONSE_BYTES, PER_CLUSTER_ENDPOINTS } from '../domain/projections/index.ts';
import type { ProblemCode } from '../domain/problem.ts';
import { analyzeFleet } from '../domain/rules/index.ts';
import type { StoreRunner } from '../store/runner/store-runner.ts';

const ENDPOINTS = Object.keys(PER_CLUSTER_ENDPOINTS);

type Published = Pick<StoreRunner, 'published'>;

export function registerAnswerLimitSeries(prefix: string, registers: Registry[], store: Published): void {
  /** Answers with a warning `code`, by endpoint (the problem's identity). */
  const countByEndpoint = (gauge: Gauge<'endpoint'>, code: ProblemCode): void => {
    const counts = new Map(ENDPOINTS.map((endpoint) => [endpoint, 0]));
    const published = store.published();
    if (published) {
      for (const p of analyzeFleet(published.snapshot).problems) {
        if (p.code === code && p.identity !== undefined) counts.set(p.identity, (counts.get(p.identity) ?? 0) + 1);
      }
    }
    for (const [endpoint, count] of counts) gauge.set({ endpoint }, count);
  };
  new GaugeMetric({
    name: `${prefix}answers_near_size_limit`,
    help:
      "Answers of the served revision (one per cluster and endpoint) within 10 % of the consumer's 900 KiB limit " +
      '(the warning response_near_limit), by endpoint.',
    labelNames: ['endpoint'] as const,
    registers,
    collect(this: Gauge<'endpoint'>) {
      countByEndpoint(this, 'response_near_limit');
    },
  });
  new GaugeMetric({
    name: `${prefix}answers_over_input_limit`,
    help:
      'Answers of the served revision (one per cluster and endpoint) with more inputs than the consumer keeps ' +
      'by default (100; the warning too_many_inputs), by endpoint.',
    labelNames: ['endpoint'] as const,
    registers,
    collect(this: Gauge<'endpoint'>) {
      countByEndpoint(this, 'too_many_inputs');
    },
  });
  new GaugeMetric({
    name: `${prefix}fleet_list_bytes`,
    help:
      'The bytes of the unfiltered fleet listing (GET /api/v2/gitops/clusters) of the served revision; ' +
      'past the limit it answers 422.',
    registers,
    collect(this: Gauge) {
      const published = store.published();
      this.set(published ? analyzeFleet(published.snapshot).listBytes : 0);
    },
  });
  new GaugeMetric({
    name: `${prefix}response_limit_bytes`,
    help: "The consumer's limit on an answer's body (900 KiB of JSON): no answer is served at or over it.",
    registers,
    collect(this: Gauge) {
      this.set(MAX_RESPONSE_BYTES);
    },
  });
}
