// What authenticating one poll costs in the service's own code, measured in this process: the
// Authenticator on a snapshot of `clusters` clusters, fed the requests of a fleet polling
// with the fleet token and with each cluster's own token. The figures do not depend on a
// network, a load generator or the other load of a shared machine the way req/s does.
import type { IncomingMessage } from 'node:http';
import { signClusterToken } from '../../src/domain/cluster-token.ts';
import type { Cluster } from '../../src/domain/records.ts';
import { createSnapshot } from '../../src/domain/snapshot.ts';
import { Authenticator } from '../../src/http/auth/authenticator.ts';
import { median } from './stats.ts';

export interface AuthCost {
  /** Nanoseconds per authenticate() call, median of the repetitions. */
  fleetTokenNs: number;
  clusterTokenNs: number;
}

export function measureAuthCost(
  clusters: number,
  key: string,
  repetitions = 7,
  callsPerRepetition = 200_000,
): AuthCost {
  const records: Cluster[] = Array.from({ length: clusters }, (_, i) => ({
    id: `cluster-${i}`,
    cluster_name: `k8s-${i}`,
    cluster_dns: `cluster-${i}.fleet.example.com`,
    environment: 'prod',
    credential_generation: 0,
    receiver_url: null,
    platform_components: [],
    namespaces: [],
    rolebindings: [],
    patches: {},
  }));
  const built = createSnapshot(
    { clusters: records, platform_components: [], namespaces: [], rolebindings: [], rollouts: [] },
    'bench',
  );
  if (!built.ok) throw new Error('the snapshot of the authentication benchmark is not valid');
  const snapshot = built.snapshot;
  const fleetToken = 'bench-fleet-read-token-0123456789';
  const auth = new Authenticator({
    readToken: fleetToken,
    writeToken: 'bench-fleet-write-token-0123456789',
    clusterTokenKeys: [key],
    currentSnapshot: () => snapshot,
  });
  // A new header string per request, as a parsed request has: nothing is shared with the last call but the content.
  const asRequests = (headers: string[]) =>
    headers.map((authorization) => ({ headers: { authorization }, socket: {} }) as unknown as IncomingMessage);
  const fleet = asRequests(records.map(() => `Bearer ${fleetToken}`));
  const own = asRequests(records.map((c) => `Bearer ${signClusterToken(Buffer.from(key), c.id, 0)}`));
  const timeOne = (requests: IncomingMessage[]): number => {
    const started = process.hrtime.bigint();
    for (let i = 0; i < callsPerRepetition; i++) {
      const req = requests[i % requests.length];
      // A fresh string of the same content, as each poll's header is.
      (req.headers as { authorization: string }).authorization =
        `${req.headers.authorization!.slice(0, 1)}${req.headers.authorization!.slice(1)}`;
      void auth.authenticate(req);
    }
    return Number(process.hrtime.bigint() - started) / callsPerRepetition;
  };
  timeOne(own); // every token verified once, as after a fleet's first poll
  const fleetRuns: number[] = [];
  const ownRuns: number[] = [];
  for (let r = 0; r < repetitions; r++) {
    fleetRuns.push(timeOne(fleet));
    ownRuns.push(timeOne(own));
  }
  return { fleetTokenNs: median(fleetRuns), clusterTokenNs: median(ownRuns) };
}
