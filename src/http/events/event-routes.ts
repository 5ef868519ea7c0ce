// POST /api/v2/gitops/events: the events Flux's notification-controller sends through a Provider
// of type `generic` or `generic-hmac` (docs/rollouts.md, "Gating on what clusters report").
// In order, each refusal before anything is kept: who sends it, from the headers alone (401, 403:
// ./event-sender.ts); the body, at most 64 KiB (413: ./event-body.ts), JSON (400), an event
// (400 naming each field: domain/events/flux-event.ts); the cluster it is about, and the
// signature (401, 403); the cluster's allowance (429 with Retry-After:
// serving/event-rate-limit.ts). Then the event is kept (serving/cluster-events.ts) and the
// answer is 202 — also for an event kept before, which is not kept twice.
import { Router } from 'express';
import type { Logger } from 'pino';
import { parseFluxEvent } from '../../domain/events/flux-event.ts';
import type { ClusterEvents } from '../../serving/cluster-events.ts';
import type { EventRateLimit } from '../../serving/event-rate-limit.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import { clusterCaller } from '../auth/cluster-tokens.ts';
import { ApiError, otherMethodsRefused } from '../errors.ts';
import { EVENTS_PATH } from '../paths.ts';
import { eventJson, readEventBody } from './event-body.ts';
import { EventSenders } from './event-sender.ts';

export interface EventRouteDeps {
  auth: Authenticator;
  /** CLUSTER_TOKEN_KEYS: the tokens signatures are checked with. */
  clusterTokenKeys: readonly string[];
  events: ClusterEvents;
  limit: EventRateLimit;
  log: Logger;
  now?: () => number;
}

export function eventRoutes(deps: EventRouteDeps): Router {
  const router = Router();
  const senders = new EventSenders(deps.auth, deps.clusterTokenKeys);
  const now = deps.now ?? Date.now;
  router.post(EVENTS_PATH, async (req, res) => {
    const signature = senders.signature(req);
    const caller = await senders.caller(req, signature);
    if (caller !== undefined) res.locals.caller = caller;
    const body = await readEventBody(req);
    const parsed = parseFluxEvent(eventJson(body));
    if (!parsed.ok) {
      const said = parsed.problems.map((p) => `${p.path || '(body)'}: ${p.message}`).join('; ');
      throw new ApiError('bad_request', `the body is not a Flux event: ${said}`, { details: parsed.problems });
    }
    const clusterId = senders.sender(parsed.event, body, caller, signature);
    // A signed event's sender is a cluster too, for the request log and the request series.
    res.locals.caller ??= clusterCaller(clusterId);
    deps.limit.take(clusterId);
    const outcome = deps.events.keep(clusterId, parsed.event, now());
    const { kind, namespace, name } = parsed.event;
    deps.log.debug(
      { cluster: clusterId, object: `${kind}/${namespace}/${name}`, reason: parsed.event.reason, outcome },
      'event received',
    );
    if (outcome === 'duplicate') {
      res.status(202).json({ status: 'duplicate', message: 'this event was received before; it is kept once' });
      return;
    }
    res.status(202).json({ status: 'accepted' });
  });
  router.all(EVENTS_PATH, otherMethodsRefused('POST'));
  return router;
}
