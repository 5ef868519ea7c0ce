// The poll registry of one replica in a compact form, for the fleet view of another: one row
// per cluster, [clusterId, at × 3, etag × 3] in the order of `endpoints` (at: ms since the
// epoch, 0 = never; etag: the ETag that poll got, null = never). At 50,000 clusters that is
// about 8 MB of JSON, 3 MB gzipped, made and read in a few tens of milliseconds: no objects
// per endpoint, no ISO dates, nothing the receiving replica does not compare.
import { PER_CLUSTER_ENDPOINTS, type PerClusterEndpoint } from '../domain/projections/index.ts';
import { ClusterPolls, type FleetPolls } from './fleet-polls.ts';

const ENDPOINTS = Object.keys(PER_CLUSTER_ENDPOINTS) as PerClusterEndpoint[];

type PollRow = [string, ...(number | string | null)[]];

export interface PollRecords {
  endpoints: string[];
  polls: PollRow[];
}

export function encodePollRecords(polls: FleetPolls): PollRecords {
  const rows: PollRow[] = [];
  for (const [clusterId, cluster] of polls.entries()) {
    const row: PollRow = [clusterId];
    for (const endpoint of ENDPOINTS) row.push(cluster.at[endpoint]);
    for (const endpoint of ENDPOINTS) row.push(cluster.etag[endpoint] ?? null);
    rows.push(row);
  }
  return { endpoints: ENDPOINTS, polls: rows };
}

/** Thrown for records that are not in the form above (a replica of another version, a proxy's page). */
export class MalformedPollRecords extends Error {}

/** The records as ClusterPolls by cluster id; endpoints this version does not know are left out. */
export function decodePollRecords(value: unknown): Map<string, ClusterPolls> {
  const records = value as Partial<PollRecords> | null;
  if (
    typeof records !== 'object' ||
    records === null ||
    !Array.isArray(records.endpoints) ||
    !Array.isArray(records.polls)
  ) {
    throw new MalformedPollRecords('not {endpoints, polls}');
  }
  const width = records.endpoints.length;
  const known = records.endpoints.map((name) => (ENDPOINTS as string[]).indexOf(name));
  const byCluster = new Map<string, ClusterPolls>();
  for (const row of records.polls as unknown[]) {
    if (!Array.isArray(row) || row.length !== 1 + 2 * width || typeof row[0] !== 'string')
      throw new MalformedPollRecords('a row is not [id, at..., etag...]');
    const cells = row as unknown[];
    const cluster = new ClusterPolls();
    for (let i = 0; i < width; i++) {
      const at = cells[1 + i];
      const etag = cells[1 + width + i];
      if (typeof at !== 'number' || !Number.isFinite(at) || (etag !== null && typeof etag !== 'string'))
        throw new MalformedPollRecords('a poll is not a time and an ETag');
      if (known[i] === -1 || at === 0 || etag === null) continue;
      const endpoint = ENDPOINTS[known[i]];
      cluster.at[endpoint] = at;
      cluster.etag[endpoint] = etag;
    }
    byCluster.set(cells[0] as string, cluster);
  }
  return byCluster;
}
