// What a caller may do, and the refusal that says so when it asks for more. A cluster
// credential (a cluster token, or a client certificate naming a cluster) reads its own
// cluster's three endpoints and nothing else: the listing, the fleet view and every REST path
// are fleet-wide. A valid credential that asks for more than its scope gets 403 with what it
// may do; a missing or invalid one gets 401 (see ./authenticator.ts). One exception, from the
// contract: the shared read token (AUTH_TOKEN) on a write keeps the 401 the contract gives it,
// with the same message and a challenge saying the token is valid but its scope too small.
import { PER_CLUSTER_ENDPOINTS } from '../../domain/projections/index.ts';
import type { Snapshot } from '../../domain/snapshot.ts';
import type { Caller } from './caller.ts';
import type { Role } from '../../domain/writes/write-request.ts';
import { ApiError, insufficientScope } from '../errors.ts';
import { READ_PREFIX } from '../paths.ts';

const ENDPOINT_NAMES = Object.keys(PER_CLUSTER_ENDPOINTS).join(',');

/** How each caller's credential is named in a refusal ("this cluster token"); set where the caller is made. */
const credentialNames = new WeakMap<Caller, string>();

export function nameCredential<C extends Caller>(caller: C, name: string): C {
  credentialNames.set(caller, name);
  return caller;
}

function credentialName(caller: Caller): string {
  const named = credentialNames.get(caller);
  if (named !== undefined) return named;
  switch (caller.kind) {
    case 'cluster':
      return 'this cluster credential';
    case 'person':
      return `the token of ${caller.name || 'this person'}`;
    default:
      return 'this credential';
  }
}

/** Whether the caller may read the endpoints of the cluster with this id. */
export function mayReadCluster(caller: Caller, clusterId: string): boolean {
  return caller.roles.has('read') && (caller.clusters === undefined || caller.clusters.includes(clusterId));
}

/** Throws 403 unless the caller may use a fleet-wide path (the listing, the fleet view, REST) with `role`. */
export function requireFleetWide(caller: Caller, role: Role, snapshot: Snapshot | undefined): void {
  if (caller.clusters !== undefined) throw outsideScope(caller, snapshot);
  if (!caller.roles.has(role)) throw missingRole(caller, role);
}

/** The 403 of a request outside the caller's scope: what it may do instead. */
export function outsideScope(caller: Caller, snapshot: Snapshot | undefined): ApiError {
  if (caller.clusters === undefined) return missingRole(caller, 'read');
  const who = credentialName(caller);
  if (caller.clusters.length === 0) {
    return new ApiError(
      'forbidden',
      `${who} may read nothing: the client certificate and the token name different clusters`,
    );
  }
  const endpoints = caller.clusters.map((id) => {
    const dns = snapshot?.clusters.get(id)?.cluster_dns;
    return dns === undefined ? `cluster "${id}"` : `${READ_PREFIX}clusters/${dns}/{${ENDPOINT_NAMES}}`;
  });
  const clusters = caller.clusters.map((id) => `"${id}"`).join(', ');
  const whose = caller.clusters.length === 1 ? `cluster ${clusters}'s` : `clusters ${clusters}'`;
  return new ApiError(
    'forbidden',
    `${who} reads only ${whose} three endpoints (${endpoints.join('; ')}); this path is not one of them`,
  );
}

/** The service's shared read token (AUTH_TOKEN), as ./authenticator.ts names its caller. */
function isSharedReadToken(caller: Caller): boolean {
  return caller.kind === 'service' && caller.name === 'read-token';
}

function missingRole(caller: Caller, role: Role): ApiError {
  const who = credentialName(caller);
  if (role === 'write') {
    const how =
      caller.kind === 'person' ? 'membership of a group in OIDC_WRITE_GROUPS' : 'the write token (CRUD_AUTH_TOKEN)';
    const message = `${who} may read but not write; writes need ${how}`;
    // The contract gives the read token's write 401, and clients written against it expect
    // that (docs/decisions/0042-read-token-writes-401.md).
    return isSharedReadToken(caller) ? insufficientScope(message) : new ApiError('forbidden', message);
  }
  const how = caller.kind === 'person' ? 'membership of a group in OIDC_READ_GROUPS' : 'the read token (AUTH_TOKEN)';
  return new ApiError('forbidden', `${who} may not read; reading needs ${how}`);
}
