// The served responses (./served-response.ts) of one published revision. A poll of a path seen
// before costs a map lookup: the path names the number of its answer in the store
// (./answer-store.ts), which outlives the revision: a response whose cluster and referenced
// definitions did not change keeps the bytes it had, and only its headers (which carry the
// revision) are written anew.
import { dnsKey } from '../domain/cluster-dns.ts';
import { clusterSummaryInputs, type FleetListFilter, type PerClusterEndpoint } from '../domain/projections/index.ts';
import type { Snapshot } from '../domain/snapshot.ts';
import { EncodedBodyCache, MAX_LISTS } from './encoded-body-cache.ts';
import { forRevision, ServedBody, type ServedResponse } from './served-response.ts';
import { StoredBody } from './stored-body.ts';

export class ResponseTable {
  readonly snapshot: Snapshot;
  /** Request paths already resolved -> their answer's number, so that a repeated poll skips parsing its path. */
  readonly #byPath = new Map<string, number>();
  /** Fleet listings by their filter ("" for the whole fleet, "env=prod shard=0/4"). */
  readonly #lists = new Map<string, ServedResponse>();
  readonly #bodies: EncodedBodyCache;
  /** This table's serial in the answer store: which answers it confirmed. */
  readonly #serial: number;

  /** `bodies` is shared with the revisions before and after this one; by default this revision has its own. */
  constructor(snapshot: Snapshot, bodies: EncodedBodyCache = new EncodedBodyCache()) {
    this.snapshot = snapshot;
    this.#bodies = bodies;
    this.#serial = bodies.follow(snapshot);
  }

  get revision(): string {
    return this.snapshot.revision;
  }

  /** The response for one cluster and endpoint, or undefined when no cluster has that DNS name. */
  forCluster(endpoint: PerClusterEndpoint, clusterDns: string): ServedResponse | undefined {
    const cluster = this.snapshot.clustersByDns.get(dnsKey(clusterDns));
    if (!cluster) return undefined;
    const answer = this.#bodies.answers.resolve(this.#serial, this.snapshot, cluster, endpoint);
    if (typeof answer === 'number') return this.#served(answer);
    return forRevision(answer, this.revision, { clusterId: cluster.id, endpoint });
  }

  /**
   * The response for a request path seen before. Only canonical spellings (lowercase DNS, no
   * trailing dot, no percent-encoding) are remembered, so the map cannot grow past three
   * entries per cluster however clients spell their paths.
   */
  byPath(path: string): ServedResponse | undefined {
    const answer = this.#byPath.get(path);
    if (answer === undefined || !this.#bodies.answers.confirmed(answer, this.#serial)) return undefined;
    return this.#served(answer);
  }

  rememberPath(path: string, clusterDns: string, prepared: ServedResponse): void {
    const answer =
      prepared.kind === 'body' && prepared.encoded instanceof StoredBody ? prepared.encoded.answer : undefined;
    if (answer !== undefined && dnsKey(clusterDns) === clusterDns && !path.includes('%'))
      this.#byPath.set(path, answer);
  }

  #served(answer: number): ServedResponse {
    const answers = this.#bodies.answers;
    const bytes = answers.oversizedBytes(answer);
    if (bytes !== undefined) return { kind: 'oversized', bytes };
    const body = new StoredBody(answers, answer);
    return new ServedBody(body, this.revision, body);
  }

  /** The fleet listing, whole or filtered; each filter's bytes are prepared once. */
  clustersList(filter: FleetListFilter = {}): ServedResponse {
    const key = `${filter.environment ?? ''} ${filter.shard ? `${filter.shard.index}/${filter.shard.count}` : ''}`;
    let prepared = this.#lists.get(key);
    if (!prepared) {
      prepared = forRevision(
        this.#bodies.list(this.snapshot, key, () => clusterSummaryInputs(this.snapshot, filter)),
        this.revision,
      );
      if (this.#lists.size >= MAX_LISTS) this.#lists.delete(this.#lists.keys().next().value!);
      this.#lists.set(key, prepared);
    }
    return prepared;
  }
}
