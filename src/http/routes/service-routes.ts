// Public probes and the API document: /health, /ready (its views: ./ready-view.ts), /openapi.yaml.
import { Router } from 'express';
import type { BackendName } from '../../store/backends/index.ts';
import type { StoreRunner } from '../../store/runner/store-runner.ts';
import { VERSION } from '../../shared/version.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import { readyAnswer } from './ready-view.ts';

export interface ServiceRouteDeps {
  store: StoreRunner;
  backend: BackendName;
  /** /ready shows its full view (problems, paths, error texts) to a caller with a token. */
  auth: Authenticator;
  openapiDocument: Buffer;
  /** True once shutdown has begun: the replica must leave the Service's endpoints. */
  shuttingDown?: () => boolean;
}

export function serviceRoutes(deps: ServiceRouteDeps): Router {
  const router = Router();

  router.get('/health', (_req, res) => {
    res.json({ status: 'ok', version: VERSION });
  });

  router.get('/ready', async (req, res) => {
    res.set('cache-control', 'no-store');
    if (deps.shuttingDown?.()) {
      res.status(503).json({
        status: 'shutting_down',
        error: 'unavailable',
        message: 'the service is shutting down: it finishes the requests in flight and takes no new connections',
        backend: deps.backend,
      });
      return;
    }
    // A missing or wrong token is no error here: the probe's answer must not depend on it. The
    // full view names problems of the whole fleet, so it needs a caller that reads all of it: a
    // cluster credential, or a person in no read group, gets the public one. A person's token
    // is awaited (its keys may have to be fetched); an issuer that cannot be reached leaves
    // the public view, never a failed probe.
    const caller = req.headers.authorization ? await deps.auth.identify(req) : undefined;
    const view = caller !== undefined && caller.clusters === undefined && caller.roles.has('read') ? 'full' : 'public';
    const answer = readyAnswer(deps.store.status(), deps.backend, view);
    res.status(answer.status).json(answer.body);
  });

  router.get('/openapi.yaml', (_req, res) => {
    res.type('application/yaml').send(deps.openapiDocument);
  });

  return router;
}
