// GET /metrics: every series of the service in the Prometheus text format, public like the
// probes (docs/decisions/0007-authentication-and-transport.md). With METRICS=off the path answers 404, saying why.
import { Router } from 'express';
import type { ServiceMetrics } from '../../observability/service-metrics.ts';
import { ApiError, otherMethodsRefused } from '../errors.ts';

export const METRICS_PATH = '/metrics';

export function metricsRoutes(metrics: ServiceMetrics | undefined): Router {
  const router = Router();
  router.get(METRICS_PATH, async (_req, res) => {
    if (!metrics) throw new ApiError('not_found', 'metrics are off in this service (METRICS=off)');
    const text = await metrics.text();
    res.set({ 'content-type': metrics.contentType, 'cache-control': 'no-store' }).send(text);
  });
  router.all(METRICS_PATH, otherMethodsRefused('GET, HEAD'));
  return router;
}
