// GET /api/v2/gitops/fleet: which cluster polled what and when, and whether it has the
// current bodies (serving/fleet-view.ts). Fleet-wide: a caller that reads everything (a
// cluster credential gets 403); an operator's request, not a poll, so Express serves it
// rather than the read path. Among replicas (PEERS) every peer's polls are merged in, and the
// answer names the peers that did not answer.
import { Router } from 'express';
import type { Peers } from '../../peers/peers.ts';
import { FLEET_STATES, type FleetState, type FleetStates } from '../../serving/fleet-view.ts';
import { MergedPolls } from '../../serving/merged-polls.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import { requireRole } from '../auth/authorize.ts';
import { ApiError, type ErrorDetail, invalidQuery, notLoaded, otherMethodsRefused } from '../errors.ts';
import { FLEET_PATH, queryOf } from '../paths.ts';

export interface FleetRouteDeps {
  auth: Authenticator;
  /** Absent with METRICS=off: the path then answers 404, saying why. */
  fleet: FleetStates | undefined;
  /** The other replicas; absent without PEERS (the view is then this replica's alone). */
  peers?: Peers;
}

export function fleetRoutes({ auth, fleet, peers }: FleetRouteDeps): Router {
  const router = Router();
  router.get(FLEET_PATH, requireRole(auth, 'read'), async (req, res) => {
    if (!fleet) throw new ApiError('not_found', 'the fleet view is off in this service (METRICS=off)');
    const state = parseFleetViewQuery(queryOf(req.originalUrl));
    if (!peers) {
      const view = await fleet.view(state);
      if (!view) throw notLoaded();
      res.set('cache-control', 'no-store').json(view);
      return;
    }
    const gathered = await peers.gatherPolls();
    const view = await fleet.view(state, new MergedPolls(fleet.polls, gathered.polls));
    if (!view) throw notLoaded();
    const { answered, missing } = gathered;
    res
      .set('cache-control', 'no-store')
      .json({ revision: view.revision, summary: view.summary, peers: { answered, missing }, clusters: view.clusters });
  });
  router.all(FLEET_PATH, otherMethodsRefused('GET, HEAD'));
  return router;
}

/**
 * ?state=up_to_date|behind|never_seen, at most once; anything else is refused by name (a typo never shows the whole
 * fleet).
 */
export function parseFleetViewQuery(query: string): FleetState | undefined {
  const params = new URLSearchParams(query);
  const details: ErrorDetail[] = [];
  let state: FleetState | undefined;
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name);
    if (name !== 'state') details.push({ path: name, message: `unknown query parameter "${name}"; allowed: state` });
    else if (values.length > 1) details.push({ path: name, message: 'must be given once' });
    else if ((FLEET_STATES as readonly string[]).includes(values[0])) state = values[0] as FleetState;
    else details.push({ path: name, message: `must be one of: ${FLEET_STATES.join(', ')}` });
  }
  if (details.length > 0) {
    throw invalidQuery(details);
  }
  return state;
}
