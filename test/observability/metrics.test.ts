// GET /metrics on the real server: a strictly well-formed exposition with exactly the series
// and labels of the service, request counters that rise by exactly the requests made,
// labelled by route template (never a cluster name) and kind of caller (never its name), and the reload and write
// counters
// following what the store did.
import { afterEach, describe, expect, it } from 'vitest';
import { prepareBackend } from '../helpers/backends.ts';
import { asRepoFiles } from '../helpers/fixture-data.ts';
import { commitAll, writeFiles } from '../helpers/git-fixture.ts';
import { request } from '../helpers/http.ts';
import { type Family, parsePrometheusText, sampleValue } from '../helpers/prometheus-text.ts';
import { READ_TOKEN, startTestService, type TestService, WRITE_TOKEN } from '../helpers/service.ts';
import { signClusterToken } from '../../src/domain/cluster-token.ts';
import { watchLoads } from '../helpers/store-events.ts';

const PREFIX = '/api/v2/gitops';
const PC = `${PREFIX}/clusters/c1.k8s.example.com/platform-components`;
const PC_ROUTE = `${PREFIX}/clusters/:cluster_dns/platform-components`;
const NS_ROUTE = `${PREFIX}/clusters/:cluster_dns/namespaces`;
const RB_ROUTE = `${PREFIX}/clusters/:cluster_dns/rolebindings`;

let service: TestService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function scrape(url: string): Promise<Map<string, Family>> {
  const res = await request(url, '/metrics');
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  return parsePrometheusText(res.text);
}

/** Every sample of a family as "labels -> value", labels in a fixed order. */
function series(families: Map<string, Family>, name: string, sampleName = name): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of families.get(name)?.samples ?? []) {
    if (s.name === sampleName) out.set(JSON.stringify(Object.entries(s.labels).sort()), s.value);
  }
  return out;
}

function delta(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, value] of after) {
    const d = value - (before.get(key) ?? 0);
    if (d !== 0) out[key] = d;
  }
  return out;
}

const key = (labels: Record<string, string>): string => JSON.stringify(Object.entries(labels).sort());

/** Series and label names (le aside), with their types. */
const OURS: Record<string, [Family['type'], string[]]> = {
  gitops_config_http_requests_total: ['counter', ['caller', 'code', 'method', 'route']],
  gitops_config_http_request_duration_seconds: ['histogram', ['method', 'route']],
  gitops_config_revision_info: ['gauge', ['revision']],
  gitops_config_reloads_total: ['counter', ['result']],
  gitops_config_last_publish_timestamp_seconds: ['gauge', []],
  gitops_config_clusters: ['gauge', []],
  gitops_config_fleet_clusters: ['gauge', ['state']],
  gitops_config_writes_total: ['counter', ['action', 'collection', 'result']],
  // What the alert rules read (deploy/prometheus/; test/alert-series.test.ts checks every series they name).
  gitops_config_stale_since_timestamp_seconds: ['gauge', []],
  gitops_config_refused_revision_info: ['gauge', ['collection', 'problem', 'revision']],
  gitops_config_write_failures_total: ['counter', ['reason']],
  gitops_config_answers_near_size_limit: ['gauge', ['endpoint']],
  gitops_config_answers_over_input_limit: ['gauge', ['endpoint']],
  gitops_config_fleet_list_bytes: ['gauge', []],
  gitops_config_response_limit_bytes: ['gauge', []],
  gitops_config_fleet_merged_clusters: ['gauge', ['state']],
  gitops_config_fleet_silent_clusters: ['gauge', ['environment']],
  // Per rollout (test/observability/rollout-series.test.ts); no samples while there is none.
  gitops_config_rollout_released_steps: ['gauge', ['rollout']],
  gitops_config_rollout_steps: ['gauge', ['rollout']],
  gitops_config_rollout_clusters: ['gauge', ['rollout', 'state']],
  gitops_config_rollout_state: ['gauge', ['rollout', 'state']],
  gitops_config_rollout_approval_waiting_since_timestamp_seconds: ['gauge', ['rollout']],
  gitops_config_rollout_require_reports: ['gauge', ['rollout']],
  // The events clusters report (test/http/events.test.ts), service-wide.
  gitops_config_events_kept: ['gauge', []],
  gitops_config_receiver_notices_total: ['counter', ['outcome', 'reason']],
  gitops_config_events_kept_bytes: ['gauge', []],
  gitops_config_events_last_received_timestamp_seconds: ['gauge', []],
};

describe('GET /metrics', () => {
  it(
    'is public and strictly well-formed, with exactly the series and labels of the service and the standard process ' +
      'and Node.js series',
    async () => {
      service = await startTestService((await prepareBackend('git')).env);
      const poll = await request(service.url, PC, { token: READ_TOKEN });
      await request(service.url, '/health');
      const families = await scrape(service.url);

      const ours = [...families.keys()].filter((name) => name.startsWith('gitops_config_')).sort();
      expect(ours).toEqual(Object.keys(OURS).sort());
      for (const [name, [type, labels]] of Object.entries(OURS)) {
        const family = families.get(name)!;
        expect(family.type, name).toBe(type);
        expect(family.help.length, name).toBeGreaterThan(10);
        for (const sample of family.samples) {
          expect(
            Object.keys(sample.labels)
              .filter((l) => l !== 'le')
              .sort(),
            `${sample.name}`,
          ).toEqual(labels);
        }
      }
      // prom-client's standard series, under their standard names (not prefixed).
      expect(families.get('process_cpu_seconds_total')?.type).toBe('counter');
      expect(families.get('process_start_time_seconds')?.type).toBe('gauge');
      expect(families.get('nodejs_heap_size_used_bytes')?.type).toBe('gauge');
      expect(families.get('nodejs_eventloop_lag_seconds')?.type).toBe('gauge');
      expect(families.get('nodejs_version_info')?.type).toBe('gauge');

      expect([...series(families, 'gitops_config_revision_info')]).toEqual([
        [key({ revision: poll.headers['x-config-revision'] as string }), 1],
      ]);
      expect([...series(families, 'gitops_config_reloads_total').keys()].sort()).toEqual(
        ['failed', 'published', 'refused'].map((result) => key({ result })),
      );
      expect(sampleValue(families, 'gitops_config_reloads_total', { result: 'published' })).toBe(1);
      expect([...series(families, 'gitops_config_fleet_clusters').keys()].sort()).toEqual(
        ['behind', 'never_seen', 'up_to_date'].map((state) => key({ state })),
      );
      expect(sampleValue(families, 'gitops_config_clusters')).toBe(2);
      const publishedAt = sampleValue(families, 'gitops_config_last_publish_timestamp_seconds');
      expect(Math.abs(Date.now() / 1000 - publishedAt)).toBeLessThan(60);
    },
  );

  it(
    'counts every request exactly once by route template, method, code and kind of caller, and never puts a cluster ' +
      'name in a label',
    async () => {
      const key0 = 'metrics-test-cluster-token-key-0123456789';
      service = await startTestService({ ...(await prepareBackend('git')).env, CLUSTER_TOKEN_KEYS: key0 });
      const clusterToken = signClusterToken(Buffer.from(key0), 'c1', 0);
      const before = await scrape(service.url);

      const first = await request(service.url, PC, { token: READ_TOKEN });
      await request(service.url, PC, { token: READ_TOKEN, headers: { 'accept-encoding': 'gzip' } });
      await request(service.url, PC, { token: READ_TOKEN, headers: { 'if-none-match': first.headers.etag as string } });
      await request(service.url, `${PREFIX}/clusters/Bare.Example.COM/namespaces`, {
        token: READ_TOKEN,
        method: 'HEAD',
      });
      await request(service.url, `${PREFIX}/clusters/secret-cluster.example.com/rolebindings`, { token: READ_TOKEN });
      await request(service.url, `${PREFIX}/clusters/secret-cluster.example.com/rolebindings`, { token: READ_TOKEN });
      await request(service.url, PC, {});
      await request(service.url, `${PREFIX}/clusters/c1.k8s.example.com/rolebindings`, {
        token: READ_TOKEN,
        method: 'POST',
      });
      await request(service.url, `${PREFIX}/clusters`, { token: READ_TOKEN });
      await request(service.url, `${PREFIX}/clusters?colour=c1.k8s.example.com`, { token: READ_TOKEN });
      await request(service.url, `${PREFIX}/secret-cluster.example.com/anything`, { token: READ_TOKEN });
      await request(service.url, '/secret-cluster.example.com', {});
      await request(service.url, '/health');
      await request(service.url, `${PREFIX}/fleet`, { token: READ_TOKEN });
      // A cluster's own token: its poll, then the listing and the fleet view outside its scope.
      expect((await request(service.url, PC, { token: clusterToken })).status).toBe(200);
      expect((await request(service.url, `${PREFIX}/clusters`, { token: clusterToken })).status).toBe(403);
      expect((await request(service.url, `${PREFIX}/fleet`, { token: clusterToken })).status).toBe(403);
      expect((await request(service.url, `${PREFIX}/fleet`, { token: 'gcc1.c1.forged' })).status).toBe(401);
      const after = await scrape(service.url);

      expect(
        delta(series(before, 'gitops_config_http_requests_total'), series(after, 'gitops_config_http_requests_total')),
      ).toEqual({
        [key({ route: PC_ROUTE, method: 'GET', code: '200', caller: 'service' })]: 2,
        [key({ route: PC_ROUTE, method: 'GET', code: '200', caller: 'cluster' })]: 1,
        [key({ route: PC_ROUTE, method: 'GET', code: '304', caller: 'service' })]: 1,
        [key({ route: PC_ROUTE, method: 'GET', code: '401', caller: 'anonymous' })]: 1,
        [key({ route: NS_ROUTE, method: 'HEAD', code: '200', caller: 'service' })]: 1,
        [key({ route: RB_ROUTE, method: 'GET', code: '404', caller: 'service' })]: 2,
        // Refused before the credential is looked at.
        [key({ route: RB_ROUTE, method: 'POST', code: '405', caller: 'anonymous' })]: 1,
        [key({ route: `${PREFIX}/clusters`, method: 'GET', code: '200', caller: 'service' })]: 1,
        [key({ route: `${PREFIX}/clusters`, method: 'GET', code: '400', caller: 'service' })]: 1,
        [key({ route: `${PREFIX}/clusters`, method: 'GET', code: '403', caller: 'cluster' })]: 1,
        [key({ route: 'unmatched', method: 'GET', code: '404', caller: 'service' })]: 1,
        [key({ route: 'unmatched', method: 'GET', code: '404', caller: 'anonymous' })]: 1,
        [key({ route: '/health', method: 'GET', code: '200', caller: 'anonymous' })]: 1,
        [key({ route: `${PREFIX}/fleet`, method: 'GET', code: '200', caller: 'service' })]: 1,
        [key({ route: `${PREFIX}/fleet`, method: 'GET', code: '403', caller: 'cluster' })]: 1,
        [key({ route: `${PREFIX}/fleet`, method: 'GET', code: '401', caller: 'anonymous' })]: 1,
        // The scrape before.
        [key({ route: '/metrics', method: 'GET', code: '200', caller: 'anonymous' })]: 1,
      });
      const count = 'gitops_config_http_request_duration_seconds';
      expect(delta(series(before, count, `${count}_count`), series(after, count, `${count}_count`))).toEqual({
        [key({ route: PC_ROUTE, method: 'GET' })]: 5,
        [key({ route: NS_ROUTE, method: 'HEAD' })]: 1,
        [key({ route: RB_ROUTE, method: 'GET' })]: 2,
        [key({ route: RB_ROUTE, method: 'POST' })]: 1,
        [key({ route: `${PREFIX}/clusters`, method: 'GET' })]: 3,
        [key({ route: 'unmatched', method: 'GET' })]: 2,
        [key({ route: '/health', method: 'GET' })]: 1,
        [key({ route: `${PREFIX}/fleet`, method: 'GET' })]: 3,
        [key({ route: '/metrics', method: 'GET' })]: 1,
      });

      const names = ['c1.k8s.example.com', 'bare.example.com', 'secret-cluster.example.com', 'cluster-one', 'c1', 'c0'];
      for (const family of after.values()) {
        for (const sample of family.samples) {
          for (const [label, value] of Object.entries(sample.labels)) {
            if (label === 'revision' || label === 'version') continue; // a commit id, Node's version
            for (const name of names) expect(value.toLowerCase(), `${sample.name} ${label}`).not.toContain(name);
          }
        }
      }
    },
  );

  it(
    'names the served revision as X-Config-Revision does, ' + 'and counts a refused revision and a published one',
    async () => {
      const prepared = await prepareBackend('git');
      service = await startTestService(prepared.env);
      const loads = watchLoads(service);
      const before = await scrape(service.url);
      const served = (await request(service.url, PC, { token: READ_TOKEN })).headers['x-config-revision'] as string;
      expect([...series(before, 'gitops_config_revision_info').keys()]).toEqual([key({ revision: served })]);

      const podinfo = asRepoFiles()['platform_components/podinfo.yaml'] as Record<string, unknown>;
      writeFiles(prepared.dir!, { 'platform_components/podinfo.yaml': { ...podinfo, depends_on: ['ghost'] } });
      const bad = commitAll(prepared.dir!, 'depend on a component that does not exist');
      expect(await loads.until(bad)).toEqual({ result: 'refused', revision: bad });
      const refused = await scrape(service.url);
      // The uncommitted edit may have been loaded (and refused) before the commit: each load counts once.
      const counted = (families: Map<string, Family>, result: string) =>
        sampleValue(families, 'gitops_config_reloads_total', { result });
      expect(counted(refused, 'refused') - counted(before, 'refused')).toBe(
        loads.outcomes.filter((o) => o.result === 'refused').length,
      );
      expect(counted(refused, 'refused') - counted(before, 'refused')).toBeGreaterThanOrEqual(1);
      expect(counted(refused, 'published')).toBe(counted(before, 'published'));
      expect([...series(refused, 'gitops_config_revision_info').keys()]).toEqual([key({ revision: served })]);

      writeFiles(prepared.dir!, { 'platform_components/podinfo.yaml': { ...podinfo, component_version: '6.7.3' } });
      const fix = commitAll(prepared.dir!, 'the fix');
      expect(await loads.until(fix)).toEqual({ result: 'published', revision: fix });
      const fixed = await scrape(service.url);
      expect(counted(fixed, 'published') - counted(before, 'published')).toBe(
        loads.outcomes.filter((o) => o.result === 'published').length,
      );
      expect(counted(fixed, 'failed')).toBe(0);
      const header = (await request(service.url, PC, { token: READ_TOKEN })).headers['x-config-revision'];
      expect(header).toBe(fix);
      expect([...series(fixed, 'gitops_config_revision_info')]).toEqual([[key({ revision: fix }), 1]]);
    },
  );

  it('counts each write that reaches the store by collection, action and result', async () => {
    service = await startTestService({
      ...(await prepareBackend('memory')).env,
      API_MODE: 'crud',
      CRUD_AUTH_TOKEN: WRITE_TOKEN,
    });
    const write = (method: string, path: string, body?: unknown) =>
      request(service!.url, path, {
        method,
        token: WRITE_TOKEN,
        headers: { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const before = await scrape(service.url);
    expect((await write('PATCH', '/namespaces/team-b', { labels: { counted: 'yes' } })).status).toBe(200);
    expect((await write('PATCH', '/namespaces/team-b', { labels: { counted: 'yes' } })).status).toBe(200);
    expect((await write('PATCH', '/namespaces/team-b', { colour: 'red' })).status).toBe(400);
    expect((await write('DELETE', '/namespaces/team-a')).status).toBe(409);
    expect((await write('POST', '/rolebindings', { id: 'auditors', role: 'view', subjects: [] })).status).toBe(201);
    expect((await write('DELETE', '/rolebindings/auditors')).status).toBe(204);
    // Refused before it reaches the store (not JSON): an HTTP error, not a write.
    expect(
      (await request(service.url, '/namespaces/team-b', { method: 'PATCH', token: WRITE_TOKEN, body: 'x' })).status,
    ).toBe(415);
    const after = await scrape(service.url);
    expect(delta(series(before, 'gitops_config_writes_total'), series(after, 'gitops_config_writes_total'))).toEqual({
      [key({ collection: 'namespaces', action: 'update', result: 'ok' })]: 1,
      [key({ collection: 'namespaces', action: 'update', result: 'unchanged' })]: 1,
      [key({ collection: 'namespaces', action: 'update', result: 'refused' })]: 1,
      [key({ collection: 'namespaces', action: 'delete', result: 'refused' })]: 1,
      [key({ collection: 'rolebindings', action: 'create', result: 'ok' })]: 1,
      [key({ collection: 'rolebindings', action: 'delete', result: 'ok' })]: 1,
    });
    expect(
      sampleValue(after, 'gitops_config_http_requests_total', {
        route: '/namespaces/:id',
        method: 'PATCH',
        code: '415',
        caller: 'service',
      }),
    ).toBe(1);
  });

  it(
    'is off with METRICS=off: /metrics and the fleet view answer 404 saying why, ' + 'and polls are served as before',
    async () => {
      service = await startTestService({ ...(await prepareBackend('memory')).env, METRICS: 'off' });
      const metrics = await request(service.url, '/metrics');
      expect(metrics.status).toBe(404);
      expect(metrics.json()).toMatchObject({ error: 'not_found', message: expect.stringContaining('METRICS=off') });
      const fleet = await request(service.url, `${PREFIX}/fleet`, { token: READ_TOKEN });
      expect(fleet.status).toBe(404);
      expect(fleet.json().message).toContain('METRICS=off');
      expect((await request(service.url, PC, { token: READ_TOKEN })).status).toBe(200);
    },
  );
});
