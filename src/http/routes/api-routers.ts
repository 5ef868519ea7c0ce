// The routers the service mounts beside the read path: the Git host's webhook, the REST
// writes (crud mode), the events the clusters send, rollouts' progress and the peer paths.
import type { Router } from 'express';
import type { Logger } from 'pino';
import type { Peers } from '../../peers/peers.ts';
import type { ClusterEvents } from '../../serving/cluster-events.ts';
import { EventRateLimit, type EventRateSettings } from '../../serving/event-rate-limit.ts';
import type { FleetPolls } from '../../serving/fleet-polls.ts';
import type { RolloutProgressService } from '../../serving/rollouts/rollout-progress-service.ts';
import type { ApiMode } from '../../store/backends/shared-settings.ts';
import type { StoreRunner } from '../../store/runner/store-runner.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import { eventRoutes } from '../events/event-routes.ts';
import { changePreviewRoutes } from '../rest/change-preview-routes.ts';
import { changeSetRoutes } from '../rest/change-set-routes.ts';
import { restRoutes } from '../rest/rest-routes.ts';
import { webhookRoutes } from '../webhook/webhook-routes.ts';
import { peerRoutes } from './peer-routes.ts';
import { rolloutRoutes } from './rollout-routes.ts';

export interface ApiRouterDeps {
  apiMode: ApiMode;
  /** WEBHOOK_SECRET: POST /hooks/git, for a store that follows a remote. */
  webhookSecret: string | undefined;
  maxBodyBytes: number;
  clusterTokenKeys: readonly string[];
  eventRate: EventRateSettings;
  store: StoreRunner;
  auth: Authenticator;
  log: Logger;
  peers: { peers: Peers; token: string } | undefined;
  events: ClusterEvents;
  /** Absent with METRICS=off. */
  polls: FleetPolls | undefined;
  rollouts: RolloutProgressService | undefined;
}

export function apiRouters(deps: ApiRouterDeps): Router[] {
  const { store, auth, log, events, rollouts } = deps;
  const routers: Router[] = [];
  if (deps.webhookSecret) {
    if (store.describe().followsRemote) {
      const target = {
        branch: () => store.describe().pushBranch,
        sync: (reason: string) => {
          // The Git host calls one URL: the other replicas fetch at once too.
          deps.peers?.peers.forwardSync();
          return store.reload(reason);
        },
      };
      routers.push(webhookRoutes({ secret: deps.webhookSecret, target, log }));
    } else {
      log.warn('WEBHOOK_SECRET is set, but CONFIG_REPO is not a remote repository: POST /hooks/git stays off');
    }
  }
  if (deps.apiMode === 'crud') {
    routers.push(restRoutes({ store, auth, log, maxBodyBytes: deps.maxBodyBytes }));
    routers.push(changePreviewRoutes({ store, auth, maxBodyBytes: deps.maxBodyBytes }));
    routers.push(changeSetRoutes({ store, auth, maxBodyBytes: deps.maxBodyBytes }));
  }
  const limit = new EventRateLimit(deps.eventRate);
  routers.push(eventRoutes({ auth, clusterTokenKeys: deps.clusterTokenKeys, events, limit, log }));
  routers.push(
    rolloutRoutes({
      auth,
      tracker: rollouts?.tracker,
      polls: rollouts?.polls ?? (() => Promise.reject(new Error('no poll records'))),
      events: rollouts?.events ?? (async () => events),
    }),
  );
  if (deps.peers) {
    routers.push(peerRoutes({ peers: deps.peers.peers, token: deps.peers.token, polls: deps.polls, events }));
  }
  return routers;
}
