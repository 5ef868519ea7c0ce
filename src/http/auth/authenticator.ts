// Who is asking (./caller.ts), from the request's credentials:
// - the service tokens: AUTH_TOKEN reads, CRUD_AUTH_TOKEN (crud mode only) writes and reads;
// - a cluster token (gcc1.<id>.<mac>, ./cluster-tokens.ts), checked against the snapshot
//   served now;
// - a person's OIDC token (a JWT), checked by the PersonVerifier when OIDC is configured;
// - a verified client certificate whose DNS name is a cluster's cluster_dns: alone it is that
//   cluster's credential, and with a token it limits the token to that cluster.
// A token comes as `Authorization: Bearer <token>`, or as the password of HTTP Basic (the Flux
// Operator sends Basic when its Secret holds username and password rather than token; for a
// cluster token the user name must be the cluster id, for the others it is not checked).
// Service tokens and cluster tokens are answered without a promise: the read path stays
// synchronous for polls. Tokens are compared in constant time and never logged.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { looksLikeClusterToken } from '../../domain/cluster-token.ts';
import type { Snapshot } from '../../domain/snapshot.ts';
import type { Caller, PersonVerifier } from './caller.ts';
import type { Role } from '../../domain/writes/write-request.ts';
import { clientCertificateNames } from './client-certificate.ts';
import { clusterCaller, ClusterTokens } from './cluster-tokens.ts';
import { notLoaded, unauthorized } from '../errors.ts';
import { nameCredential } from './scopes.ts';
import { basicCredentials, bearerToken, tokenEquals } from './credentials.ts';

export interface AuthenticatorOptions {
  readToken: string;
  /** The write token (crud mode); undefined: nothing writes. */
  writeToken?: string | undefined;
  /** CLUSTER_TOKEN_KEYS; empty: cluster tokens are refused. */
  clusterTokenKeys?: readonly string[];
  /** Client certificates are verified by TLS (TLS_CLIENT_CA_FILE): one naming a cluster limits the request to it. */
  clientCertificates?: boolean;
  /** Checks a person's OIDC token; undefined: OIDC is off and a JWT is refused like any unknown token. */
  persons?: PersonVerifier | undefined;
  /** The snapshot served now: cluster credentials are checked against it. */
  currentSnapshot: () => Snapshot | undefined;
}

const MISSING =
  'an Authorization header is required: Bearer <token>, or Basic with the token as the password (for a cluster ' +
  'token, the cluster id as the user name)';
const INVALID = 'the token is not valid (Bearer, or the password of Basic)';

/** Three base64url segments separated by dots: the form of a JWT (a person's OIDC token). */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

interface CertificateScope {
  /** The served clusters-by-DNS map the ids were found in: a new revision looks again. */
  byDns: ReadonlyMap<string, unknown>;
  ids: readonly string[] | undefined;
  /** The caller made last on this connection from a token's caller (null: no token) and these ids. */
  limited?: { from: Caller | null; caller: Caller };
}

export class Authenticator {
  readonly #read: string;
  readonly #write: string | undefined;
  readonly #clusterTokens: ClusterTokens | undefined;
  readonly #clientCertificates: boolean;
  readonly #persons: PersonVerifier | undefined;
  readonly #currentSnapshot: () => Snapshot | undefined;
  readonly #readService: Caller;
  readonly #writeService: Caller;
  readonly #certificateScopes = new WeakMap<Socket, CertificateScope>();

  constructor(options: AuthenticatorOptions) {
    this.#read = options.readToken;
    this.#write = options.writeToken;
    const keys = options.clusterTokenKeys ?? [];
    this.#clusterTokens = keys.length > 0 ? new ClusterTokens(keys) : undefined;
    this.#clientCertificates = options.clientCertificates ?? false;
    this.#persons = options.persons;
    this.#currentSnapshot = options.currentSnapshot;
    this.#readService = nameCredential(serviceCaller('read-token', ['read']), 'the read token (AUTH_TOKEN)');
    this.#writeService = nameCredential(
      serviceCaller('write-token', ['read', 'write']),
      'the write token (CRUD_AUTH_TOKEN)',
    );
  }

  /**
   * The caller, or a promise of it for a person's token. Throws 401 (ApiError) without a
   * valid credential; whether the caller may do what it asks is the route's to check (./scopes.ts).
   */
  authenticate(req: IncomingMessage): Caller | Promise<Caller> {
    const header = req.headers.authorization;
    const certified = this.#clientCertificates ? this.#certificateScope(req.socket) : undefined;
    if (header === undefined || header === '') {
      if (certified?.ids !== undefined) return this.#limited(certified, undefined);
      throw unauthorized(MISSING);
    }
    const caller = this.#tokenCaller(header);
    if (certified?.ids === undefined) return caller;
    return caller instanceof Promise
      ? caller.then((c) => this.#limited(certified, c))
      : this.#limited(certified, caller);
  }

  /**
   * The snapshot served now, which cluster credentials are checked against (and refusals name the cluster's endpoints
   * from).
   */
  currentSnapshot(): Snapshot | undefined {
    return this.#currentSnapshot();
  }

  /** The caller, or undefined without a valid credential (or when it cannot be checked now); never throws. */
  async identify(req: IncomingMessage): Promise<Caller | undefined> {
    try {
      return await this.authenticate(req);
    } catch {
      return undefined;
    }
  }

  #tokenCaller(header: string): Caller | Promise<Caller> {
    const bearer = bearerToken(header);
    const basic = bearer === undefined ? basicCredentials(header) : undefined;
    const token = bearer ?? basic?.password;
    if (token === undefined) throw unauthorized(INVALID);
    if (this.#write !== undefined && tokenEquals(token, this.#write)) return this.#writeService;
    if (tokenEquals(token, this.#read)) return this.#readService;
    if (looksLikeClusterToken(token)) return this.#clusterCaller(token, basic?.user);
    if (bearer !== undefined && this.#persons !== undefined && JWT_SHAPE.test(bearer))
      return this.#persons.verify(bearer);
    throw unauthorized(INVALID);
  }

  #clusterCaller(token: string, basicUser: string | undefined): Caller {
    if (this.#clusterTokens === undefined)
      throw unauthorized('this service takes no cluster tokens (CLUSTER_TOKEN_KEYS is not set)');
    const snapshot = this.#currentSnapshot();
    if (snapshot === undefined) throw notLoaded();
    const caller = this.#clusterTokens.verify(token, snapshot);
    if (caller === undefined) {
      throw unauthorized(
        "the cluster token is not valid: not signed by a configured key, revoked (its cluster's " +
          'credential_generation was raised), or its cluster is gone',
      );
    }
    if (basicUser !== undefined && basicUser !== caller.name) {
      throw unauthorized(
        'with a cluster token as the password of Basic, the user name must be the id of the cluster it was issued for',
      );
    }
    return caller;
  }

  /**
   * The clusters the connection's client certificate names in the served revision; ids undefined when it names none.
   */
  #certificateScope(socket: Socket): CertificateScope | undefined {
    const names = clientCertificateNames(socket);
    if (names.length === 0) return undefined;
    const byDns = this.#currentSnapshot()?.clustersByDns;
    if (byDns === undefined) return undefined;
    const known = this.#certificateScopes.get(socket);
    if (known?.byDns === byDns) return known;
    const ids = [...new Set(names.flatMap((name) => byDns.get(name)?.id ?? []))];
    const scope: CertificateScope = { byDns, ids: ids.length > 0 ? Object.freeze(ids) : undefined };
    this.#certificateScopes.set(socket, scope);
    return scope;
  }

  /**
   * What a certificate naming clusters leaves of a caller: those clusters, read only, and of
   * them only those the token may read too (a cluster token of another cluster: none).
   */
  #limited(scope: CertificateScope, from: Caller | undefined): Caller {
    const ids = scope.ids!;
    if (scope.limited !== undefined && scope.limited.from === (from ?? null)) return scope.limited.caller;
    const allowed = from?.clusters === undefined ? ids : from.clusters.filter((id) => ids.includes(id));
    const name = from?.kind === 'cluster' ? from.name : ids.join(',');
    const caller = nameCredential(clusterCaller(name, allowed), 'this client certificate');
    scope.limited = { from: from ?? null, caller };
    return caller;
  }
}

function serviceCaller(name: string, roles: Role[]): Caller {
  return Object.freeze({ kind: 'service', name, roles: Object.freeze(new Set(roles)) });
}
