// Notices to clusters' Flux Receivers by how they ended (serving/receivers/): sent, failed
// (after its retries) or skipped, with the reason — never a label per cluster. Read from the
// notifier's counts at scrape time.
import { Counter, type Registry } from 'prom-client';
import type { NoticeCounts } from '../serving/receivers/receiver-notifier.ts';

export function registerReceiverSeries(
  prefix: string,
  registers: Registry[],
  counts: () => NoticeCounts | undefined,
): void {
  new Counter({
    name: `${prefix}receiver_notices_total`,
    help:
      "Notices to clusters' Flux Receivers after a revision that changed their answers, by outcome " +
      '(sent; failed after its retries; skipped: a URL refused, an address of this host or loopback, ' +
      'a redirect) and reason; none while receivers are off.',
    labelNames: ['outcome', 'reason'] as const,
    registers,
    collect() {
      this.reset();
      for (const [key, value] of counts() ?? []) {
        const [outcome, reason = ''] = key.split(':');
        this.inc({ outcome, reason }, value);
      }
    },
  });
}
