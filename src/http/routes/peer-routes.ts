// The paths replicas call on each other (PEERS): announce a revision about to be published,
// pass on a push webhook, hand over the poll registry for a merged fleet view and the events
// the clusters sent for the rollouts
// (src/peers/peers.ts does the work). They take PEER_TOKEN and nothing else: a cluster's or a
// person's token is refused here, and the peer token is refused everywhere else (it is none
// of the tokens http/auth/authenticator.ts knows). Without PEERS these paths do not exist.
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { type Request, Router } from 'express';
import { PEER_PATHS } from '../../peers/peer-paths.ts';
import type { Peers } from '../../peers/peers.ts';
import type { ClusterEvents } from '../../serving/cluster-events.ts';
import type { FleetPolls } from '../../serving/fleet-polls.ts';
import { bearerToken, tokenEquals } from '../auth/credentials.ts';
import { ApiError } from '../errors.ts';
import { queryOf } from '../paths.ts';

const gzipAsync = promisify(gzip);

export interface PeerRouteDeps {
  peers: Peers;
  token: string;
  /** This replica's poll registry; absent with METRICS=off. */
  polls: FleetPolls | undefined;
  /** The events the clusters sent this replica. */
  events: ClusterEvents;
}

export function peerRoutes({ peers, token, polls, events }: PeerRouteDeps): Router {
  const router = Router();
  router.use('/peers', (req, _res, next) => {
    const presented = bearerToken(req.headers.authorization);
    if (presented === undefined || !tokenEquals(presented, token)) {
      throw new ApiError(
        'unauthorized',
        "the peer paths take only the replicas' PEER_TOKEN, as Authorization: Bearer <token>",
        {
          headers: { 'www-authenticate': 'Bearer realm="gitops-config-api peers"' },
        },
      );
    }
    next();
  });
  router.post(PEER_PATHS.announce, async (req, res) => {
    const query = peerQuery(req, ['revision', 'from']);
    // The allowance goes by the address the announcement came from: `from` is the sender's to choose.
    const peer = req.socket.remoteAddress ?? 'unknown';
    res.set('cache-control', 'no-store').json(await peers.announced(query.revision, query.from, peer));
  });
  router.post(PEER_PATHS.sync, (req, res) => {
    const query = peerQuery(req, ['from']);
    res.set('cache-control', 'no-store').json(peers.synced(query.from));
  });
  router.get(PEER_PATHS.polls, async (req, res) => {
    peerQuery(req, ['from']);
    if (!polls) throw new ApiError('not_found', 'the fleet poll registry is off in this replica (METRICS=off)');
    // The fastest level: the ETags (hashes) hardly shrink, the rest shrinks at any level.
    const body = await gzipAsync(JSON.stringify(peers.pollsOf(polls)), { level: 1 });
    res.set({ 'content-type': 'application/json', 'content-encoding': 'gzip', 'cache-control': 'no-store' }).send(body);
  });
  router.get(PEER_PATHS.events, async (req, res) => {
    peerQuery(req, ['from']);
    const body = await gzipAsync(JSON.stringify(peers.eventsOf(events)), { level: 1 });
    res.set({ 'content-type': 'application/json', 'content-encoding': 'gzip', 'cache-control': 'no-store' }).send(body);
  });
  return router;
}

/** The query words a peer path needs, each once and short; anything else is a 400. */
function peerQuery(req: Request, names: readonly string[]): Record<string, string> {
  const params = new URLSearchParams(queryOf(req.originalUrl));
  const values: Record<string, string> = {};
  for (const name of names) {
    const given = params.getAll(name);
    if (given.length !== 1 || given[0] === '' || given[0].length > 200)
      throw new ApiError('bad_request', `?${name}= must be given once, 1 to 200 characters`);
    values[name] = given[0]!;
  }
  return values;
}
