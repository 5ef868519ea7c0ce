// Cluster tokens checked against the snapshot served now: the token's cluster must have a
// record there, and the MAC must be the one of that record's credential_generation under one
// of the keys. A verified token is remembered with the record it was checked against, so a
// poll costs two map lookups and an identity comparison, not an HMAC per key: the record
// object stays the same across revisions while its file or row does not change, and any
// change to it (a raised generation, a removal) makes the next poll check again.
import {
  clusterMacMatches,
  type ClusterTokenKey,
  clusterTokenKey,
  parseClusterToken,
} from '../../domain/cluster-token.ts';
import type { Cluster } from '../../domain/records.ts';
import type { Snapshot } from '../../domain/snapshot.ts';
import type { Caller } from './caller.ts';
import type { Role } from '../../domain/writes/write-request.ts';
import { nameCredential } from './scopes.ts';

/**
 * How many verified tokens are remembered: every cluster of a large fleet, twice (the old and
 * the new token while keys rotate). Only tokens that verified are kept, so a flood of forged
 * ones cannot push the fleet's out; past the bound the oldest goes first.
 */
export const VERIFIED_TOKENS_KEPT = 131_072;

const READ_ONLY: ReadonlySet<Role> = Object.freeze(new Set<Role>(['read']));

interface Verified {
  cluster: Cluster;
  caller: Caller;
}

export class ClusterTokens {
  readonly #keys: readonly ClusterTokenKey[];
  readonly #verified = new Map<string, Verified>();
  readonly #limit: number;

  /** `keys` as configured (CLUSTER_TOKEN_KEYS); every one of them verifies. */
  constructor(keys: readonly string[], limit = VERIFIED_TOKENS_KEPT) {
    this.#keys = keys.map(clusterTokenKey);
    this.#limit = limit;
  }

  /** The cluster caller the token stands for in `snapshot`, or undefined when it is not valid there. */
  verify(token: string, snapshot: Snapshot): Caller | undefined {
    const known = this.#verified.get(token);
    if (known !== undefined && snapshot.clusters.get(known.cluster.id) === known.cluster) return known.caller;
    const parsed = parseClusterToken(token);
    if (parsed === undefined) return undefined;
    const cluster = snapshot.clusters.get(parsed.clusterId);
    // The MAC is computed and compared whether or not the cluster exists, so that a forged
    // token takes as long for an id that is a cluster's as for one that is not: the time of a
    // refusal says nothing about which ids exist. Only a verified token skips it, remembered.
    const matches = clusterMacMatches(this.#keys, parsed.clusterId, cluster?.credential_generation ?? 0, parsed.mac);
    if (cluster === undefined || !matches) {
      if (known !== undefined) this.#verified.delete(token);
      return undefined;
    }
    const caller = known?.caller ?? nameCredential(clusterCaller(cluster.id), 'this cluster token');
    this.#remember(token, { cluster, caller });
    return caller;
  }

  /** How many verified tokens are remembered now. */
  get size(): number {
    return this.#verified.size;
  }

  #remember(token: string, verified: Verified): void {
    this.#verified.delete(token);
    if (this.#verified.size >= this.#limit) this.#verified.delete(this.#verified.keys().next().value!);
    this.#verified.set(token, verified);
  }
}

/** A caller that may read the named clusters' endpoints and nothing else. */
export function clusterCaller(name: string, clusters: readonly string[] = [name]): Caller {
  return Object.freeze({ kind: 'cluster', name, roles: READ_ONLY, clusters: Object.freeze([...clusters]) });
}
