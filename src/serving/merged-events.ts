// The events of a replica among others: per cluster, every event any replica received, each
// once (an event delivered to two replicas — a retry that reached another one — counts from the
// first moment any of them received it), in the order received. Merged as the rollouts ask for
// each cluster, so nothing is copied for a cluster only one replica heard from.
import { eventKey, type ReceivedEvent } from '../domain/events/flux-event.ts';
import type { EventLookup } from './cluster-events.ts';

export class MergedEvents implements EventLookup {
  readonly #sources: readonly EventLookup[];

  constructor(local: EventLookup, others: readonly EventLookup[]) {
    this.#sources = [local, ...others];
  }

  of(clusterId: string): readonly ReceivedEvent[] | undefined {
    const lists = this.#sources.map((s) => s.of(clusterId)).filter((l) => l !== undefined && l.length > 0);
    if (lists.length <= 1) return lists[0];
    const first = new Map<string, ReceivedEvent>();
    for (const list of lists) {
      for (const event of list!) {
        const key = eventKey(event);
        const known = first.get(key);
        if (known === undefined || event.receivedAt < known.receivedAt) first.set(key, event);
      }
    }
    return [...first.values()].sort((a, b) => a.receivedAt - b.receivedAt);
  }
}
