// The deliveries a push webhook has handled lately, so that one delivered again (a Git host
// retrying, a person pressing "redeliver", or anyone replaying a captured request) is
// answered without another sync. Bounded: the oldest are forgotten first.
import type { IncomingHttpHeaders } from 'node:http';

/** About the last thousand deliveries (a GitLab one may be known by two keys). */
const REMEMBERED_KEYS = 2_000;
/** A longer id is no host's; it is not remembered (each key is kept in memory). */
const MAX_KEY_LENGTH = 200;

export class RecentDeliveries {
  readonly #keys = new Set<string>();
  readonly #capacity: number;

  constructor(capacity = REMEMBERED_KEYS) {
    this.#capacity = capacity;
  }

  /** True when one of `keys` was seen before; remembers them all either way. */
  seenBefore(keys: readonly string[]): boolean {
    const seen = keys.some((k) => this.#keys.has(k));
    for (const key of keys) {
      if (this.#keys.has(key)) continue;
      this.#keys.add(key);
      // A Set iterates in insertion order: the first is the oldest.
      if (this.#keys.size > this.#capacity) this.#keys.delete(this.#keys.values().next().value!);
    }
    return seen;
  }
}

/**
 * What tells a delivery apart: GitHub's X-GitHub-Delivery (kept on a redelivery), GitLab's
 * Idempotency-Key (kept across its retries) and X-Gitlab-Event-UUID (one per event). The
 * body is no key: a host that sends no timestamps sends the same bytes for a branch forced
 * back to a commit it named before, and that push must not be ignored. A replay under a new
 * id costs one fetch at most, shared with every other sync asked for meanwhile.
 */
export function deliveryKeys(headers: IncomingHttpHeaders): string[] {
  const keys: string[] = [];
  const add = (kind: string, value: unknown) => {
    if (typeof value === 'string' && value !== '' && value.length <= MAX_KEY_LENGTH) keys.push(`${kind}:${value}`);
  };
  add('github-delivery', headers['x-github-delivery']);
  add('idempotency-key', headers['idempotency-key']);
  add('gitlab-event', headers['x-gitlab-event-uuid']);
  return keys;
}
