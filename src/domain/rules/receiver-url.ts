// Rule: a cluster's receiver_url is an https URL with a host RECEIVER_HOSTS allows, and no
// user or password in it (the notice is signed; a credential in a URL ends up in logs). The
// schema holds "https only" for every reader; the host needs the deployment's setting, which
// the service, `validate` and `diff` each take from RECEIVER_HOSTS and hand in here
// (docs/decisions/0043-receiver-hosts-are-a-setting.md). Without the setting receivers are
// off: a receiver_url is a warning then, never told. As for oci_url, a value a revision
// already had is a warning while it stays (the judge and the writes' ratchet compare the
// value): narrowing RECEIVER_HOSTS never stops publication; the notifier checks again
// before it sends, so a warned URL is skipped, never called.
import { type Problem, problem } from '../problem.ts';
import type { Cluster } from '../records.ts';
import type { ReceiverHosts } from '../receiver-hosts.ts';
import { LayeredMap } from '../layered-map.ts';
import { compareIds, type Snapshot } from '../snapshot.ts';

/** Why `url` may not be told, or undefined when it may: the notifier asks this too. */
export function receiverUrlRefusal(url: string, hosts: ReceiverHosts | undefined): string | undefined {
  if (!URL.canParse(url)) return 'is not a URL';
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:') return 'is not an https URL';
  if (parsed.username !== '' || parsed.password !== '') {
    return 'carries a user or password; the notice is signed with the cluster token instead';
  }
  if (hosts === undefined) return 'is not told: RECEIVER_HOSTS is not set, so receivers are off';
  if (!hosts.allows(parsed.hostname)) {
    return `has the host ${parsed.hostname}, which RECEIVER_HOSTS (${hosts.patterns.join(', ')}) does not allow`;
  }
  return undefined;
}

/** The problem of a cluster whose receiver_url may not be told, or undefined. */
export function receiverUrlProblem(cluster: Cluster, hosts: ReceiverHosts | undefined): Problem | undefined {
  const url = cluster.receiver_url;
  if (url === null || url === undefined) return undefined;
  const refusal = receiverUrlRefusal(url, hosts);
  if (refusal === undefined) return undefined;
  const shown = url.length > 100 ? `${JSON.stringify(url.slice(0, 100))}...` : JSON.stringify(url);
  return problem(
    'receiver_url_host',
    { record: { collection: 'clusters', id: cluster.id }, field: '/receiver_url' },
    `${shown} ${refusal}`,
    // Off, the rule only informs; on, the same record with the same value is the same problem.
    { identity: `receiver_url:${url}`, ...(hosts === undefined ? { severity: 'warning' as const } : {}) },
  );
}

/** The clusters of the revision judged last, with the problems of their receiver_urls by cluster id. */
let last:
  { clusters: ReadonlyMap<string, Cluster>; hosts: ReceiverHosts | undefined; found: Map<string, Problem> } | undefined;

/**
 * The problems of every cluster's receiver_url, in cluster id order. A revision made from the
 * one judged last (its clusters a layer over the same map) is looked at only where its clusters
 * differ: a walk of 100,000 clusters held the event loop some 18 ms in every judgement.
 */
export function receiverUrlProblems(snapshot: Snapshot, hosts: ReceiverHosts | undefined): Problem[] {
  const clusters = snapshot.clusters;
  const before = last?.hosts === hosts ? last : undefined;
  const differing = before && LayeredMap.differingKeys(before.clusters, clusters);
  let found: Map<string, Problem>;
  if (before !== undefined && differing !== undefined) {
    found = new Map(before.found);
    for (const id of differing) {
      const cluster = clusters.get(id);
      const problem = cluster && receiverUrlProblem(cluster, hosts);
      if (problem) found.set(id, problem);
      else found.delete(id);
    }
  } else {
    found = new Map();
    for (const cluster of clusters.values()) {
      const problem = receiverUrlProblem(cluster, hosts);
      if (problem) found.set(cluster.id, problem);
    }
  }
  last = { clusters, hosts, found };
  return [...found.keys()].sort(compareIds).map((id) => found.get(id)!);
}
