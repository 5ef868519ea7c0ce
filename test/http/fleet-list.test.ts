// GET /api/v2/gitops/clusters for a fleet of any size: environment= and shard=<i>/<n> cut it
// into lists under the 900 KiB limit; the shards are disjoint and together the whole fleet;
// an unfiltered list over the limit answers 422 naming the filters; validate warns at 80 %.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeConfigRepo, type RepoFiles, tempDir } from '../helpers/git-fixture.ts';
import { request } from '../helpers/http.ts';
import { expectMatchesOpenApi } from '../helpers/openapi.ts';
import { READ_TOKEN, startTestService, type TestService } from '../helpers/service.ts';
import { runTool } from '../helpers/run-tool.ts';

const LIST = '/api/v2/gitops/clusters';
const ENVIRONMENTS = ['dev', 'qa', 'uat', 'prod'];

function fleetSeed(size: number): string {
  const clusters = Array.from({ length: size }, (_, i) => ({
    _id: `cluster-${String(i).padStart(5, '0')}`,
    cluster_name: `k8s-cluster-${String(i).padStart(5, '0')}`,
    cluster_dns: `cluster-${String(i).padStart(5, '0')}.fleet.example.com`,
    environment: ENVIRONMENTS[i % 4],
  }));
  const file = join(tempDir('fleet-'), 'seed.json');
  writeFileSync(file, JSON.stringify({ clusters }));
  return file;
}

describe('a fleet of 10,000 clusters', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ STORE_BACKEND: 'memory', SEED_FILE: fleetSeed(10_000) });
  });
  afterAll(() => service?.close());

  it('answers the unfiltered list with 422 response_too_large, naming the filters', async () => {
    const res = await request(service.url, LIST, { token: READ_TOKEN });
    expect(res.status).toBe(422);
    expect(res.json()).toEqual({
      error: 'response_too_large',
      message: expect.stringMatching(/over the 900 KiB limit .*\?shard=<i>\/<n> \(n = \d+ or more\) or \?environment=/),
    });
    await expectMatchesOpenApi('get', LIST, 422, res.json());
  });

  it('serves 4 shards, each under 900 KiB, disjoint, and together the whole fleet in id order', async () => {
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await request(service.url, `${LIST}?shard=${i}/4`, { token: READ_TOKEN });
      expect(res.status).toBe(200);
      expect(res.body.length).toBeLessThan(900 * 1024);
      const ids = res.json().inputs.map((c: { id: string }) => c.id);
      expect(ids).toEqual([...ids].sort());
      // The documented hash: the first 4 bytes of SHA-256 of the id, big-endian, modulo n.
      for (const id of ids) expect(createHash('sha256').update(id).digest().readUInt32BE(0) % 4).toBe(i);
      seen.push(...ids);
      await expectMatchesOpenApi('get', LIST, 200, res.json());
    }
    expect(seen).toHaveLength(10_000);
    expect(new Set(seen).size).toBe(10_000);
  });

  it('filters by environment, alone or with a shard, and gives the same bytes every time', async () => {
    const prod = await request(service.url, `${LIST}?environment=prod&shard=1/2`, { token: READ_TOKEN });
    expect(prod.status).toBe(200);
    const items = prod.json().inputs as { environment: string }[];
    expect(items.length).toBeGreaterThan(1000);
    expect(items.every((c) => c.environment === 'prod')).toBe(true);
    const again = await request(service.url, `${LIST}?shard=1/2&environment=prod`, { token: READ_TOKEN });
    expect(again.body.equals(prod.body)).toBe(true);
    expect(again.headers.etag).toBe(prod.headers.etag);
  });

  it.each([
    ['shard=4/4', 'shard'],
    ['shard=0/0', 'shard'],
    ['shard=x', 'shard'],
    ['environment=staging', 'environment'],
    ['environment=dev&environment=qa', 'environment'],
    ['envirnoment=dev', 'envirnoment'],
  ])('refuses ?%s with 400 bad_request naming the parameter', async (query, name) => {
    const res = await request(service.url, `${LIST}?${query}`, { token: READ_TOKEN });
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ error: 'bad_request', details: [expect.objectContaining({ path: name })] });
  });
});

it('validate warns when the unfiltered list passes 80 % of the limit', async () => {
  const files: RepoFiles = {};
  // Long names: ~500 bytes per cluster in the list, 1,600 clusters ≈ 790 KiB.
  for (let i = 0; i < 1600; i++) {
    const id = `c${i}`;
    files[`clusters/${id}.yaml`] = {
      cluster_name: `${'n'.repeat(240)}-${i}`,
      cluster_dns: `${'d'.repeat(60)}.${'e'.repeat(60)}.${'f'.repeat(60)}.c${i}.example.com`,
      environment: 'dev',
    };
  }
  const dir = makeConfigRepo(files, { git: false });
  const result = await runTool(['validate', dir]);
  expect(result.status).toBe(0);
  expect(result.lines[0]).toMatch(
    /^warning: the unfiltered clusters listing is \d+ bytes, 8\d% of the 900 KiB limit; read it with \?shard=<i>\/<n> or \?environment=$/,
  );
});
