// The OpenAPI document is valid, and what the service really answers matches it.
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../helpers/http.ts';
import { expectMatchesOpenApi } from '../helpers/openapi.ts';
import { READ_TOKEN, startTestService, type TestService } from '../helpers/service.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ CONFIG_REPO: 'config-repo-example' });
});
afterAll(() => service?.close());

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.0 document', async () => {
    const api = (await SwaggerParser.validate('openapi/openapi.yaml')) as { openapi: string; paths: object };
    expect(api.openapi).toMatch(/^3\.0\./);
    for (const path of [
      '/api/v2/gitops/clusters/{cluster_dns}/platform-components',
      '/health',
      '/ready',
      '/openapi.yaml',
      '/clusters/{id}',
    ]) {
      expect(Object.keys(api.paths)).toContain(path);
    }
  });

  it('is the document served at /openapi.yaml', async () => {
    const { readFileSync } = await import('node:fs');
    expect((await request(service.url, '/openapi.yaml')).text).toBe(readFileSync('openapi/openapi.yaml', 'utf8'));
  });

  const dnsNames = [
    'dev-eu-1.k8s.example.com',
    'qa-eu-1.k8s.example.com',
    'uat-us-1.k8s.example.com',
    'prod-eu-1.k8s.example.com',
  ];
  it.each(['platform-components', 'namespaces', 'rolebindings'])(
    'describes the %s responses of every example cluster',
    async (endpoint) => {
      for (const dns of dnsNames) {
        const res = await request(service.url, `/api/v2/gitops/clusters/${dns}/${endpoint}`, { token: READ_TOKEN });
        expect(res.status).toBe(200);
        expect(res.json().inputs.length).toBeGreaterThan(0);
        await expectMatchesOpenApi('get', `/api/v2/gitops/clusters/{cluster_dns}/${endpoint}`, 200, res.json());
      }
    },
  );

  it('describes the clusters listing, the errors and the probes', async () => {
    const list = await request(service.url, '/api/v2/gitops/clusters', { token: READ_TOKEN });
    await expectMatchesOpenApi('get', '/api/v2/gitops/clusters', 200, list.json());
    const missing = await request(service.url, '/api/v2/gitops/clusters/none.example.com/namespaces', {
      token: READ_TOKEN,
    });
    await expectMatchesOpenApi('get', '/api/v2/gitops/clusters/{cluster_dns}/namespaces', 404, missing.json());
    const denied = await request(service.url, '/api/v2/gitops/clusters', {});
    await expectMatchesOpenApi('get', '/api/v2/gitops/clusters', 401, denied.json());
    await expectMatchesOpenApi('get', '/health', 200, (await request(service.url, '/health')).json());
    await expectMatchesOpenApi('get', '/ready', 200, (await request(service.url, '/ready')).json());
  });

  it('fails a response that does not match (the check can fail)', async () => {
    await expect(expectMatchesOpenApi('get', '/api/v2/gitops/clusters', 200, { inputs: [{ id: 1 }] })).rejects.toThrow(
      /does not match/,
    );
  });
});
