// A response the consumer would cut at 900 KiB is refused with a clear 5xx, never truncated.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { asSeedFile, fixtureData } from './helpers/fixture-data.ts';
import { request } from './helpers/http.ts';
import { READ_TOKEN, startTestService, type TestService } from './helpers/service.ts';

let service: TestService;
beforeAll(async () => {
  // One cluster whose patches for one component are ~1 MiB of values.
  const big = Object.fromEntries(Array.from({ length: 1100 }, (_, i) => [`key.${i}`, 'v'.repeat(1000)]));
  const clusters = fixtureData.clusters.map((c: any) => (c.id === 'c1' ? { ...c, patches: { ...c.patches, podinfo: big } } : c));
  service = await startTestService({ STORE_BACKEND: 'memory', SEED_FILE: asSeedFile({ ...fixtureData, clusters }) });
});
afterAll(() => service?.close());

it('answers 500 with a clear message for a response over 900 KiB, and other endpoints still work', async () => {
  const res = await request(service.url, '/api/v2/gitops/clusters/c1.k8s.example.com/platform-components', { token: READ_TOKEN });
  expect(res.status).toBe(500);
  expect(res.json().error).toBe('internal_error');
  expect(res.json().message).toMatch(/would be \d+ bytes, over the consumer's limit of 921600 bytes/);
  const ns = await request(service.url, '/api/v2/gitops/clusters/c1.k8s.example.com/namespaces', { token: READ_TOKEN });
  expect(ns.status).toBe(200);
});
