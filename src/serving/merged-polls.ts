// The fleet view of a replica among others: per cluster and endpoint, the newest poll any
// replica answered wins, with the ETag that poll got. Merged as the view asks for each
// cluster, so nothing is copied for a cluster only one replica saw.
import { PER_CLUSTER_ENDPOINTS, type PerClusterEndpoint } from '../domain/projections/index.ts';
import { ClusterPolls, type PollLookup } from './fleet-polls.ts';

const ENDPOINTS = Object.keys(PER_CLUSTER_ENDPOINTS) as PerClusterEndpoint[];

export class MergedPolls implements PollLookup {
  readonly #sources: readonly PollLookup[];

  /** `local` first: on equal times its poll is kept. */
  constructor(local: PollLookup, others: readonly PollLookup[]) {
    this.#sources = [local, ...others];
  }

  of(clusterId: string): ClusterPolls | undefined {
    let merged: ClusterPolls | undefined;
    let only: ClusterPolls | undefined;
    for (const source of this.#sources) {
      const polls = source.of(clusterId);
      if (polls === undefined) continue;
      if (only === undefined) {
        only = polls;
        continue;
      }
      if (merged === undefined) {
        merged = new ClusterPolls();
        takeNewer(merged, only);
      }
      takeNewer(merged, polls);
    }
    return merged ?? only;
  }
}

function takeNewer(into: ClusterPolls, from: ClusterPolls): void {
  for (const endpoint of ENDPOINTS) {
    if (from.at[endpoint] > into.at[endpoint]) {
      into.at[endpoint] = from.at[endpoint];
      into.etag[endpoint] = from.etag[endpoint];
    }
  }
}
