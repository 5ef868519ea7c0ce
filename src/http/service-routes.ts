// Public probes and the API document: /health, /ready, /openapi.yaml.
import { Router } from 'express';
import type { SnapshotPublisher } from '../serving/publisher.ts';
import type { ConfigStore } from '../store/config-store.ts';

export function serviceRoutes(deps: { publisher: SnapshotPublisher; store: ConfigStore; openapiDocument: Buffer }): Router {
  const router = Router();

  router.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });

  router.get('/ready', (_req, res) => {
    const status = deps.store.status();
    const current = deps.publisher.current();
    res.set('cache-control', 'no-store');
    if (!current) {
      res.status(503).json({
        status: 'unavailable',
        error: 'unavailable',
        message: status.last_load?.ok === false
          ? `no configuration is served yet: ${status.last_load.error}`
          : 'no configuration is served yet: the first load has not finished',
        backend: status.backend,
        ...(status.last_load ? { last_load: status.last_load } : {}),
        ...status.details,
      });
      return;
    }
    res.json({
      status: 'ok',
      backend: status.backend,
      revision: current.revision,
      loaded_at: deps.publisher.publishedAt?.toISOString(),
      clusters: current.snapshot.clusters.size,
      // The last load failed but an earlier revision is still served.
      stale: status.last_load?.ok === false,
      last_load: status.last_load ?? null,
      ...status.details,
    });
  });

  router.get('/openapi.yaml', (_req, res) => {
    res.type('application/yaml').send(deps.openapiDocument);
  });

  return router;
}
