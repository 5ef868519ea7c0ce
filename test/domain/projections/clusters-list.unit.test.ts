// The fleet listing (src/domain/projections/clusters-list.ts): every cluster's four summary
// fields in id order, optionally one environment or one shard, against the cases of ./cases/
// (./projection-cases.ts says how they are laid out); and the shard of an id as the API
// document defines it for clients (openapi/openapi.yaml, parameter `shard`).
import { describe, expect, it } from 'vitest';
import { clusterSummaryInputs, MAX_SHARDS, shardOf } from '../../../src/domain/projections/clusters-list.ts';
import { asText, listingRows, projectionCases } from './projection-cases.ts';

describe('clusterSummaryInputs', () => {
  it('has a case for the whole fleet, one environment and a shard', () => {
    const filters = listingRows().map((row) => row.filter);
    expect(filters).toContainEqual({});
    expect(filters.some((filter) => filter.environment)).toBe(true);
    expect(filters.some((filter) => filter.shard)).toBe(true);
  });

  it.each(listingRows())('$name', ({ snapshot, filter, expected }) => {
    expect(asText(clusterSummaryInputs(snapshot, filter))).toBe(expected);
  });

  it('cuts a fleet into shards that do not overlap and together are the whole of it', () => {
    const { snapshot } = projectionCases().find((c) => c.name === 'shared-definitions')!;
    const all = clusterSummaryInputs(snapshot).map((input) => input.id);
    for (const count of [1, 2, 3, 7]) {
      const shards = Array.from({ length: count }, (_, index) =>
        clusterSummaryInputs(snapshot, { shard: { index, count } }).map((input) => input.id),
      );
      expect(shards.flat().sort(), `${count} shards`).toEqual(all);
    }
  });
});

describe('shardOf', () => {
  // The first 4 bytes of the SHA-256 of the id, as `printf '%s' <id> | sha256sum` prints them,
  // read as an unsigned big-endian number, modulo n.
  it.each([
    ['c1', 'd0f631ca', 3505795530],
    ['prod-eu-1', 'c228ff7d', 3257466749],
    ['dev-1', '0388fb62', 59308898],
  ])('%s (%s…)', (id, prefix, value) => {
    expect(Number.parseInt(prefix, 16)).toBe(value);
    for (const count of [1, 2, 3, 64, MAX_SHARDS]) expect(shardOf(id, count), `${count} shards`).toBe(value % count);
  });

  it('hashes the id as UTF-8', () => {
    // printf '%s' 'grüße-1' | sha256sum: 62f3b864…
    expect(shardOf('grüße-1', MAX_SHARDS)).toBe(0x62f3b864 % MAX_SHARDS);
  });
});
