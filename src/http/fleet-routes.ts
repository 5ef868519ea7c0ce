// GET /api/v2/gitops/fleet: which cluster polled what and when, and whether it has the
// current bodies (serving/fleet-view.ts). Read token, like the other read endpoints; an
// operator's request, not a poll, so Express serves it rather than the read path.
import { Router } from 'express';
import { FLEET_STATES, type FleetState, type FleetStates } from '../serving/fleet-view.ts';
import type { Authenticator } from './auth.ts';
import { ApiError, type ErrorDetail } from './errors.ts';
import { FLEET_PATH } from './read-handler.ts';

export interface FleetRouteDeps {
  auth: Authenticator;
  /** Absent with METRICS=off: the path then answers 404, saying why. */
  fleet: FleetStates | undefined;
}

export function fleetRoutes({ auth, fleet }: FleetRouteDeps): Router {
  const router = Router();
  router.get(FLEET_PATH, async (req, res) => {
    await auth.requireCaller(req, 'read');
    if (!fleet) throw new ApiError('not_found', 'the fleet view is off in this service (METRICS=off)');
    const queryAt = req.originalUrl.indexOf('?');
    const state = parseFleetViewQuery(queryAt === -1 ? '' : req.originalUrl.slice(queryAt + 1));
    const view = await fleet.view(state);
    if (!view) throw new ApiError('unavailable', 'no configuration has been loaded yet; see /ready', { headers: { 'retry-after': '5' } });
    res.set('cache-control', 'no-store').json(view);
  });
  router.all(FLEET_PATH, (req) => {
    throw new ApiError('method_not_allowed', `${req.method} is not allowed here; the fleet view answers GET and HEAD`, { headers: { allow: 'GET, HEAD' } });
  });
  return router;
}

/** ?state=up_to_date|behind|never_seen, at most once; anything else is refused by name (a typo never shows the whole fleet). */
export function parseFleetViewQuery(query: string): FleetState | undefined {
  const params = new URLSearchParams(query);
  const details: ErrorDetail[] = [];
  let state: FleetState | undefined;
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name);
    if (name !== 'state') details.push({ path: name, message: `unknown query parameter "${name}"; allowed: state` });
    else if (values.length > 1) details.push({ path: name, message: 'must be given once' });
    else if ((FLEET_STATES as readonly string[]).includes(values[0]!)) state = values[0] as FleetState;
    else details.push({ path: name, message: `must be one of: ${FLEET_STATES.join(', ')}` });
  }
  if (details.length > 0) {
    throw new ApiError('bad_request', `invalid query: ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}`, { details });
  }
  return state;
}
