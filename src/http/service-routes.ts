// Public probes and the API document: /health, /ready, /openapi.yaml.
import { Router } from 'express';
import type { BackendName } from '../config.ts';
import type { LoadReport, StoreRunner } from '../store/store-runner.ts';
import { formatLocation, type Problem } from '../domain/problem.ts';
import { VERSION } from '../version.ts';

export interface ServiceRouteDeps {
  store: StoreRunner;
  backend: BackendName;
  openapiDocument: Buffer;
  /** True once shutdown has begun: the replica must leave the Service's endpoints. */
  shuttingDown?: () => boolean;
}

export function serviceRoutes(deps: ServiceRouteDeps): Router {
  const router = Router();

  router.get('/health', (_req, res) => {
    res.json({ status: 'ok', version: VERSION });
  });

  router.get('/ready', (_req, res) => {
    const { published, lastLoad, details } = deps.store.status();
    const last_load = lastLoad ? loadReport(lastLoad) : null;
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
    if (!published) {
      res.status(503).json({
        status: 'unavailable',
        error: 'unavailable',
        message:
          lastLoad?.ok === false
            ? `no configuration is served yet: ${lastLoad.error}`
            : 'no configuration is served yet: the first load has not finished',
        backend: deps.backend,
        ...(last_load ? { last_load } : {}),
        ...details,
      });
      return;
    }
    res.json({
      status: 'ok',
      backend: deps.backend,
      revision: published.snapshot.revision,
      loaded_at: published.publishedAt.toISOString(),
      clusters: published.snapshot.clusters.size,
      // The last load failed, or was refused, but an earlier revision is still served.
      stale: lastLoad?.ok === false,
      last_load,
      ...details,
    });
  });

  router.get('/openapi.yaml', (_req, res) => {
    res.type('application/yaml').send(deps.openapiDocument);
  });

  return router;
}

/** The load report as /ready shows it: each problem with its code, severity, place and message. */
function loadReport(report: LoadReport): Record<string, unknown> {
  return { ...report, ...(report.problems ? { problems: report.problems.map(problemView) } : {}) };
}

function problemView(p: Problem): Record<string, unknown> {
  return {
    code: p.code,
    severity: p.severity,
    at: formatLocation(p.at),
    ...(p.at.file !== undefined ? { file: p.at.file } : {}),
    ...(p.at.record ? { record: `${p.at.record.collection}/${p.at.record.id}` } : {}),
    field: p.at.field,
    message: p.message,
  };
}
