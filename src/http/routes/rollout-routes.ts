// GET /api/v2/gitops/rollouts and /api/v2/gitops/rollouts/{id}: where each rollout stands, per
// step and per cluster (serving/rollouts/rollout-tracker.ts), in the shapes every client reads
// (domain/rollouts/rollout-shapes.ts). Fleet-wide, like the fleet view: a caller that reads
// everything (a cluster credential gets 403). Among replicas (PEERS) every peer's polls and
// events are merged in. Worked out as asked, in slices, so the polls answered meanwhile do not wait.
import { Router } from 'express';
import { rolloutListItem } from '../../domain/rollouts/rollout-shapes.ts';
import type { EventLookup } from '../../serving/cluster-events.ts';
import type { PollLookup } from '../../serving/fleet-polls.ts';
import type { RolloutTracker } from '../../serving/rollouts/rollout-tracker.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import { requireRole } from '../auth/authorize.ts';
import { ApiError, type ErrorDetail, invalidQuery, notLoaded, otherMethodsRefused } from '../errors.ts';
import { queryOf, ROLLOUTS_STATUS_PATH } from '../paths.ts';
import { rolloutDetailJson } from './rollout-json.ts';

export interface RolloutRouteDeps {
  auth: Authenticator;
  /** Absent with METRICS=off (no poll records): the paths then answer 404, saying why. */
  tracker: RolloutTracker | undefined;
  /** The poll records to judge by: this replica's, or merged with the other replicas'. */
  polls: () => Promise<PollLookup>;
  /** The events the clusters sent: this replica's, or merged with the other replicas'. */
  events: () => Promise<EventLookup>;
}

export function rolloutRoutes({ auth, tracker, polls, events }: RolloutRouteDeps): Router {
  const router = Router();
  const one = `${ROLLOUTS_STATUS_PATH}/:id`;
  const available = (): RolloutTracker => {
    if (!tracker)
      throw new ApiError('not_found', 'rollout progress is off in this service (METRICS=off: no poll records)');
    return tracker;
  };
  router.get(ROLLOUTS_STATUS_PATH, requireRole(auth, 'read'), async (req, res) => {
    const rollouts = available();
    refuseQuery(queryOf(req.originalUrl));
    const [known, reported] = await Promise.all([polls(), events()]);
    const evaluated = await rollouts.evaluate(known, undefined, reported);
    if (!evaluated) throw notLoaded();
    res.set('cache-control', 'no-store').json({ rollouts: evaluated.rollouts.map(rolloutListItem) });
  });
  router.get(one, requireRole(auth, 'read'), async (req, res) => {
    const rollouts = available();
    refuseQuery(queryOf(req.originalUrl));
    const id = req.params.id as string;
    const [known, reported] = await Promise.all([polls(), events()]);
    const evaluated = await rollouts.evaluate(known, id, reported);
    if (!evaluated) throw notLoaded();
    const progress = evaluated.rollouts[0];
    if (progress === undefined)
      throw new ApiError('not_found', `no rollout "${id}" is served (revision ${evaluated.revision})`);
    res
      .set({ 'cache-control': 'no-store', 'content-type': 'application/json; charset=utf-8' })
      .send(await rolloutDetailJson(progress));
  });
  router.all([ROLLOUTS_STATUS_PATH, one], otherMethodsRefused('GET, HEAD'));
  return router;
}

/** The status paths take no query: a parameter is refused by name rather than ignored. */
function refuseQuery(query: string): void {
  const details: ErrorDetail[] = [...new Set(new URLSearchParams(query).keys())].map((name) => ({
    path: name,
    message: `unknown query parameter "${name}"; this path takes none`,
  }));
  if (details.length > 0) throw invalidQuery(details);
}
