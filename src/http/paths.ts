// The paths under /api/v2/gitops/ and who answers them. The prepared answers (the listing and
// each cluster's endpoints) are the read path's (./read/read-handler.ts), which takes every
// path under the prefix but those named here: Express serves these, so that the read path
// stays a lookup and an operator's request or a write never reaches it.
export const READ_PREFIX = '/api/v2/gitops/';
/** The fleet view (./routes/fleet-routes.ts). */
export const FLEET_PATH = `${READ_PREFIX}fleet`;
/** Who the caller is (./routes/whoami-routes.ts). */
export const WHOAMI_PATH = `${READ_PREFIX}whoami`;
/** Change sets, and every path below: their preview (./rest/change-set-routes.ts, change-preview-routes.ts). */
export const CHANGES_PATH = `${READ_PREFIX}changes`;
export const CHANGES_PREVIEW_PATH = `${CHANGES_PATH}/preview`;
/** Where each rollout stands, and every path below: one rollout (./routes/rollout-routes.ts). */
export const ROLLOUTS_STATUS_PATH = `${READ_PREFIX}rollouts`;
/** Events the clusters' notification-controllers send (./events/event-routes.ts). */
export const EVENTS_PATH = `${READ_PREFIX}events`;
/** The revisions judged (./routes/revision-routes.ts). */
export const REVISIONS_PATH = `${READ_PREFIX}revisions`;

/**
 * The query of a request's URL, without its `?` ('' when there is none). Read from the raw
 * URL rather than from Express's parsed `req.query`, which folds `a[]` into `a` and keeps one
 * of two values: a query is checked as it was sent.
 */
export function queryOf(url: string): string {
  const at = url.indexOf('?');
  return at === -1 ? '' : url.slice(at + 1);
}

/** The per-cluster endpoints and the listing are under this; no Express route is. */
const CLUSTERS_PATH = `${READ_PREFIX}clusters`;

/** Whether a path under the read prefix is an Express route's, not a prepared answer. */
export function servedByExpress(path: string): boolean {
  // A poll's path: answered at once, without the comparisons below.
  if (path.startsWith(CLUSTERS_PATH)) return false;
  return (
    path === FLEET_PATH ||
    path === WHOAMI_PATH ||
    path === REVISIONS_PATH ||
    path === EVENTS_PATH ||
    path === ROLLOUTS_STATUS_PATH ||
    path.startsWith(`${ROLLOUTS_STATUS_PATH}/`) ||
    path === CHANGES_PATH ||
    path.startsWith(`${CHANGES_PATH}/`)
  );
}
