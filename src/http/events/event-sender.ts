// Which cluster sent an event, and whether it may say what it says. Two ways, as a Provider of
// notification-controller can send it:
//   - a credential of the cluster as the caller (a cluster token in the Provider's `headers`
//     Secret, Bearer or Basic; or a client certificate naming the cluster): the event is about
//     that cluster; a `metadata.cluster` naming another one is refused (403);
//   - no Authorization, but `X-Signature` (a Provider of type generic-hmac): the HMAC keyed by
//     the token of the cluster the event names in `metadata.cluster` (the Alert's
//     eventMetadata). A signature that does not verify, or no cluster named, is 401.
// A caller that is not a cluster (a service token, a person) sends no events (403). A signature
// sent with a credential must verify too.
import type { IncomingMessage } from 'node:http';
import { type ClusterTokenKey, clusterTokenKey } from '../../domain/cluster-token.ts';
import type { FluxEvent } from '../../domain/events/flux-event.ts';
import type { Snapshot } from '../../domain/snapshot.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import type { Caller } from '../auth/caller.ts';
import { ApiError, notLoaded, unauthorized } from '../errors.ts';
import { SIGNATURE_SHAPE, signedByCluster } from './event-signature.ts';

export class EventSenders {
  readonly #auth: Authenticator;
  readonly #keys: readonly ClusterTokenKey[];

  constructor(auth: Authenticator, clusterTokenKeys: readonly string[]) {
    this.#auth = auth;
    this.#keys = clusterTokenKeys.map(clusterTokenKey);
  }

  /** The signature sent, checked for its form; undefined when none was. */
  signature(req: IncomingMessage): string | undefined {
    const header = req.headers['x-signature'];
    if (header === undefined) return undefined;
    if (typeof header !== 'string' || !SIGNATURE_SHAPE.test(header)) {
      throw unauthorized(
        'X-Signature is not sha256=<64 hex digits> (the signature of a Provider of type generic-hmac)',
      );
    }
    return header;
  }

  /**
   * The caller, before the body is read, when the request has a credential (or nothing else):
   * 401 without any, 403 for a caller that is not a cluster. Undefined: the signature decides.
   */
  async caller(req: IncomingMessage, signature: string | undefined): Promise<Caller | undefined> {
    if (req.headers.authorization === undefined && signature !== undefined) return undefined;
    const caller = await this.#auth.authenticate(req);
    if (caller.kind !== 'cluster' || caller.clusters === undefined || caller.clusters.length === 0) {
      throw new ApiError(
        'forbidden',
        'events are sent by clusters: with a cluster token or a client certificate naming a cluster, or signed ' +
          '(X-Signature) with the token of the cluster named in metadata.cluster; this credential is none of those',
      );
    }
    return caller;
  }

  /** The id of the cluster that sent `event`, or the refusal that says why it is not taken. */
  sender(event: FluxEvent, body: Buffer, caller: Caller | undefined, signature: string | undefined): string {
    const snapshot = this.#auth.currentSnapshot();
    if (snapshot === undefined) throw notLoaded();
    const named = event.metadata.cluster;
    if (caller !== undefined) {
      const allowed = caller.clusters!;
      const id = named ?? (allowed.length === 1 ? allowed[0] : undefined);
      if (id === undefined) {
        throw new ApiError(
          'bad_request',
          `this credential stands for several clusters (${allowed.join(', ')}): name one in metadata.cluster`,
        );
      }
      if (!allowed.includes(id)) {
        throw new ApiError(
          'forbidden',
          `the event is about cluster "${id}" (metadata.cluster), but it comes with the credential of ` +
            allowed.map((c) => `"${c}"`).join(', '),
        );
      }
      if (signature !== undefined) this.#verify(body, signature, id, snapshot);
      return id;
    }
    if (named === undefined) {
      throw unauthorized(
        "a signed event (X-Signature) names its cluster in metadata.cluster (the Alert's eventMetadata); " +
          'this one names none',
      );
    }
    this.#verify(body, signature!, named, snapshot);
    return named;
  }

  #verify(body: Buffer, signature: string, clusterId: string, snapshot: Snapshot): void {
    if (this.#keys.length === 0)
      throw unauthorized(
        'this service takes no cluster tokens (CLUSTER_TOKEN_KEYS is not set), so no signature verifies',
      );
    const cluster = snapshot.clusters.get(clusterId);
    const verified = signedByCluster(body, signature, this.#keys, clusterId, cluster?.credential_generation ?? 0);
    if (!verified || cluster === undefined) {
      throw unauthorized(
        `X-Signature does not verify with the token of cluster "${clusterId}" (metadata.cluster): ` +
          "the Provider's Secret " +
          "holds another token (another cluster's, or one revoked), the body was changed, or no cluster has that id",
      );
    }
  }
}
