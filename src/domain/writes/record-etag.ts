// The ETag of one stored record: a hash of its canonical JSON (the same bytes the REST
// endpoints send), so every backend and every replica gives one record the same tag.
import { createHash } from 'node:crypto';
import type { AnyRecord } from '../records.ts';

const etags = new WeakMap<AnyRecord, string>();

/** Kept per record object once worked out: a stored record is frozen, so its tag never changes. */
export function recordEtag(record: AnyRecord): string {
  let etag = etags.get(record);
  if (etag === undefined) {
    etag = `"${createHash('sha256').update(JSON.stringify(record)).digest('base64url').slice(0, 27)}"`;
    if (Object.isFrozen(record)) etags.set(record, etag);
  }
  return etag;
}

/**
 * Whether an If-Match header matches the record's ETag. `*` matches any existing record;
 * weak tags (W/"...") never match, since If-Match uses the strong comparison.
 */
export function ifMatchSatisfied(header: string, etag: string): boolean {
  const trimmed = header.trim();
  if (trimmed === '*') return true;
  return trimmed
    .split(',')
    .map((tag) => tag.trim())
    .some((tag) => tag === etag);
}
