// The events clusters report (POST /api/v2/gitops/events) as the alert rules ask about them,
// service-wide (never a label per cluster): how many are kept and what they hold, and when the
// last one was received. Counts by answer (202, 401, 429...) are the request series' of the
// route. Read at scrape time from the events kept (serving/cluster-events.ts).
import { type Gauge, Gauge as GaugeMetric, type Registry } from 'prom-client';
import type { ClusterEvents } from '../serving/cluster-events.ts';

type Kept = Pick<ClusterEvents, 'size' | 'bytes' | 'lastKeptAt'>;

export class EventSeries {
  #events: Kept | undefined;

  constructor(prefix: string, registers: Registry[]) {
    const events = (): Kept | undefined => this.#events;
    new GaugeMetric({
      name: `${prefix}events_kept`,
      help: 'Events the clusters sent that this replica keeps in memory (at most 64 a cluster, within EVENTS_MEMORY).',
      registers,
      collect(this: Gauge) {
        this.set(events()?.size ?? 0);
      },
    });
    new GaugeMetric({
      name: `${prefix}events_kept_bytes`,
      help: 'About how much memory the events kept hold, in bytes (bounded by EVENTS_MEMORY).',
      registers,
      collect(this: Gauge) {
        this.set(events()?.bytes ?? 0);
      },
    });
    new GaugeMetric({
      name: `${prefix}events_last_received_timestamp_seconds`,
      help: 'When this replica last kept an event a cluster sent, in seconds since the epoch; 0 before the first.',
      registers,
      collect(this: Gauge) {
        this.set((events()?.lastKeptAt ?? 0) / 1000);
      },
    });
  }

  follow(events: Kept): void {
    this.#events = events;
  }
}
