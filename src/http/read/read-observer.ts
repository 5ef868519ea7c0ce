// What the read path tells the metrics and the fleet registry about each request it answered.
// Every route's counts are resolved here once, so a poll costs a property read to find its
// counts, a few increments, one clock read for its duration and, when it got a body, the
// fleet registry's map lookup.
import type { IncomingMessage } from 'node:http';
import {
  isPerClusterEndpoint,
  PER_CLUSTER_ENDPOINTS,
  type PerClusterEndpoint,
} from '../../domain/projections/index.ts';
import {
  type CallerLabel,
  type RequestCounts,
  type RouteCounts,
  UNMATCHED_ROUTE,
} from '../../observability/request-counts.ts';
import type { FleetPolls } from '../../serving/fleet-polls.ts';
import type { ServedResponse } from '../../serving/served-response.ts';

/**
 * Records one answered read request. `started` is performance.now() when the handler took it;
 * `prepared` is the response looked up, if the lookup got that far; `caller` the kind of caller
 * (anonymous when it had no valid credential).
 */
/** The request header (lower case, as Node gives it) whose value `false` says a GET is not a cluster's poll. */
export const NOT_A_POLL_HEADER = 'gitops-poll';

export type ReadObserver = (
  req: IncomingMessage,
  path: string,
  prepared: ServedResponse | undefined,
  status: number,
  started: number,
  caller: CallerLabel,
) => void;

export function createReadObserver(prefix: string, requests: RequestCounts, polls: FleetPolls): ReadObserver {
  // Constant for the process; read once (it is a getter).
  const timeOrigin = performance.timeOrigin;
  const listPath = `${prefix}clusters`;
  const list = requests.route(listPath);
  const unmatched = requests.route(UNMATCHED_ROUTE);
  const perCluster = {} as Record<PerClusterEndpoint, RouteCounts>;
  for (const endpoint of Object.keys(PER_CLUSTER_ENDPOINTS) as PerClusterEndpoint[]) {
    perCluster[endpoint] = requests.route(`${prefix}clusters/:cluster_dns/${endpoint}`);
  }

  /** The route of a request that found no per-cluster response (an error, or the listing): its path is parsed. */
  const routeOf = (path: string): RouteCounts => {
    if (path === listPath) return list;
    const match = /^clusters\/[^/]+\/([^/]+)$/.exec(path.slice(prefix.length));
    return match && isPerClusterEndpoint(match[1]) ? perCluster[match[1]] : unmatched;
  };

  return (req, path, prepared, status, started, caller) => {
    const body = prepared?.kind === 'body' ? prepared : undefined;
    const subject = body?.subject;
    (subject ? perCluster[subject.endpoint] : routeOf(path))
      .method(req.method)
      .record(status, (performance.now() - started) / 1000, caller);
    // A poll is a GET that got the body (200) or was told the copy it holds is current (304);
    // a HEAD gets no body, so it does not count as having the configuration. A request marked
    // `Gitops-Poll: false` is a person looking at the answer (the web UI), not the cluster
    // taking it: counted as a request, but it must not make the cluster look up to date.
    if (
      subject !== undefined &&
      req.method === 'GET' &&
      (status === 200 || status === 304) &&
      req.headers[NOT_A_POLL_HEADER] !== 'false'
    ) {
      polls.record(subject, body!.etag, timeOrigin + started);
    }
  };
}
