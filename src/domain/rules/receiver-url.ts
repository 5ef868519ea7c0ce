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
import type { Snapshot } from '../snapshot.ts';

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

/** The problems of every cluster's receiver_url. */
export function receiverUrlProblems(snapshot: Snapshot, hosts: ReceiverHosts | undefined): Problem[] {
  const problems: Problem[] = [];
  for (const cluster of snapshot.clusters.values()) {
    const found = receiverUrlProblem(cluster, hosts);
    if (found) problems.push(found);
  }
  return problems;
}
