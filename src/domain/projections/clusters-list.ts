// GET /api/v2/gitops/clusters — every cluster, for provisioners, sorted by id; optionally one
// environment, or one shard of the fleet, so that a fleet of any size can be read in lists
// under the 900 KiB limit.
import { createHash } from 'node:crypto';
import type { ClusterSummaryInput } from './inputs.ts';
import type { Environment } from '../records.ts';
import type { Snapshot } from '../snapshot.ts';

export interface FleetListFilter {
  environment?: Environment;
  /** The clusters whose shard (shardOf) is `index` when the fleet is cut in `count` shards. */
  shard?: { index: number; count: number };
}

/** The most shards a fleet listing may be cut into. */
export const MAX_SHARDS = 4096;

/**
 * The shard of a cluster id when the fleet is cut in `count` shards: the first 4 bytes of the
 * SHA-256 of the id (UTF-8), read as an unsigned big-endian integer, modulo `count`. Stable,
 * and easy to compute anywhere: `count` shards are disjoint and together the whole fleet.
 */
export function shardOf(id: string, count: number): number {
  return createHash('sha256').update(id, 'utf8').digest().readUInt32BE(0) % count;
}

export function clusterSummaryInputs(snapshot: Snapshot, filter: FleetListFilter = {}): ClusterSummaryInput[] {
  const { environment, shard } = filter;
  const inputs: ClusterSummaryInput[] = [];
  // snapshot.clusters iterates in id order.
  for (const c of snapshot.clusters.values()) {
    if (environment !== undefined && c.environment !== environment) continue;
    if (shard !== undefined && shardOf(c.id, shard.count) !== shard.index) continue;
    inputs.push({ id: c.id, cluster_name: c.cluster_name, cluster_dns: c.cluster_dns, environment: c.environment });
  }
  return inputs;
}
