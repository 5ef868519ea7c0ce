// The series the alert rules read (deploy/prometheus/), on the real server: they say what the
// rules take them to say. A refused revision sets the time the service went stale (kept by a
// second refused revision) and names the revision, problem and collection in one series (never
// the file: /metrics is public); the remote's
// last successful fetch and its interval; write failures by reason; answers near the size
// limit and over the input limit by endpoint; clusters silent for three poll intervals by
// environment, and the fleet merged among replicas, where a cluster polls one replica and the
// other one counts it.
import { STORE_FAULT_REASONS } from '../../src/store/errors.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareBackend } from '../helpers/backends.ts';
import { CRUD_DATA, crudRepo, send, startCrud } from '../helpers/crud.ts';
import { asRepoFiles, fixtureData } from '../helpers/fixture-data.ts';
import { commitAll, makeConfigRepo, tempDir, writeFiles } from '../helpers/git-fixture.ts';
import { eventually, request } from '../helpers/http.ts';
import { type Family, parsePrometheusText, sampleValue } from '../helpers/prometheus-text.ts';
import { freePorts, PEER_TOKEN } from '../helpers/replica-set.ts';
import { READ_TOKEN, startTestService, type TestService } from '../helpers/service.ts';
import { watchLoads } from '../helpers/store-events.ts';

const PC = (dns: string) => `/api/v2/gitops/clusters/${dns}/platform-components`;

const services: TestService[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.close()));
});

async function start(env: Record<string, string>): Promise<TestService> {
  const service = await startTestService(env);
  services.push(service);
  return service;
}

async function scrape(service: TestService): Promise<Map<string, Family>> {
  const res = await request(service.url, '/metrics');
  expect(res.status).toBe(200);
  return parsePrometheusText(res.text);
}

const samplesOf = (families: Map<string, Family>, name: string) => families.get(name)?.samples ?? [];

describe('a refused revision', () => {
  it(
    'sets the time the service went stale, kept through a second refused revision, names the refusal, and clears ' +
      'both once fixed',
    async () => {
      const dir = makeConfigRepo(asRepoFiles());
      const service = await start({ STORE_BACKEND: 'git', CONFIG_REPO: dir });
      const loads = watchLoads(service);
      expect(sampleValue(await scrape(service), 'gitops_config_stale_since_timestamp_seconds')).toBe(0);
      expect(samplesOf(await scrape(service), 'gitops_config_refused_revision_info')).toEqual([]);

      const podinfo = asRepoFiles()['platform_components/podinfo.yaml'] as Record<string, unknown>;
      const before = Date.now() / 1000;
      writeFiles(dir, { 'platform_components/podinfo.yaml': { ...podinfo, depends_on: ['ghost'] } });
      const bad = commitAll(dir, 'depend on a component that does not exist');
      await loads.until(bad);
      const first = await scrape(service);
      const since = sampleValue(first, 'gitops_config_stale_since_timestamp_seconds');
      expect(since).toBeGreaterThanOrEqual(Math.floor(before) - 1);
      expect(since).toBeLessThanOrEqual(Date.now() / 1000);
      expect(samplesOf(first, 'gitops_config_refused_revision_info')).toEqual([
        {
          name: 'gitops_config_refused_revision_info',
          labels: { revision: bad, problem: 'unknown_dependency', collection: 'platform_components' },
          value: 1,
        },
      ]);

      writeFiles(dir, { 'platform_components/podinfo.yaml': { ...podinfo, depends_on: ['ghost', 'phantom'] } });
      const worse = commitAll(dir, 'and another');
      await loads.until(worse);
      const second = await scrape(service);
      // Still stale since the first refusal: the clusters have been served the older revision since then.
      expect(sampleValue(second, 'gitops_config_stale_since_timestamp_seconds')).toBe(since);
      expect(samplesOf(second, 'gitops_config_refused_revision_info').map((s) => s.labels.revision)).toEqual([worse]);

      writeFiles(dir, { 'platform_components/podinfo.yaml': podinfo });
      const fix = commitAll(dir, 'the fix');
      expect(await loads.until(fix)).toEqual({ result: 'published', revision: fix });
      const fixed = await scrape(service);
      expect(sampleValue(fixed, 'gitops_config_stale_since_timestamp_seconds')).toBe(0);
      expect(samplesOf(fixed, 'gitops_config_refused_revision_info')).toEqual([]);
    },
  );
});

describe('the remote repository', () => {
  it(
    'has the time of the last successful fetch and the ' + 'sync interval; a store with no remote has neither',
    async () => {
      const before = Date.now() / 1000;
      const remote = await start((await prepareBackend('git-remote')).env);
      const families = await scrape(remote);
      const fetched = sampleValue(families, 'gitops_config_last_successful_sync_timestamp_seconds');
      expect(fetched).toBeGreaterThanOrEqual(Math.floor(before) - 1);
      expect(fetched).toBeLessThanOrEqual(Date.now() / 1000);
      // CONFIG_SYNC_INTERVAL=1h in the prepared environment.
      expect(sampleValue(families, 'gitops_config_sync_interval_seconds')).toBe(3600);

      const local = await start((await prepareBackend('git')).env);
      const localFamilies = await scrape(local);
      expect(localFamilies.has('gitops_config_last_successful_sync_timestamp_seconds')).toBe(false);
      expect(localFamilies.has('gitops_config_sync_interval_seconds')).toBe(false);
    },
  );
});

describe('write failures', () => {
  it(
    'are counted by reason, every reason present from the start: a lock a person holds past GIT_LOCK_TIMEOUT is ' +
      '"locked"',
    async () => {
      const dir = crudRepo();
      const service = await startCrud('git', { GIT_LOCK_TIMEOUT: '200ms', WRITE_TIMEOUT: '1s' }, dir);
      services.push(service);
      const before = await scrape(service);
      const reasons = samplesOf(before, 'gitops_config_write_failures_total')
        .map((s) => s.labels.reason)
        .sort();
      expect(reasons).toEqual([...STORE_FAULT_REASONS].sort());
      expect(samplesOf(before, 'gitops_config_write_failures_total').every((s) => s.value === 0)).toBe(true);

      writeFileSync(join(dir, '.git/index.lock'), '');
      expect(
        (await send(service, 'PATCH', `/namespaces/${CRUD_DATA.namespaces[0].id}`, { labels: { held: 'yes' } })).status,
      ).toBe(503);
      const after = await scrape(service);
      expect(sampleValue(after, 'gitops_config_write_failures_total', { reason: 'locked' })).toBe(1);
      const failed = samplesOf(after, 'gitops_config_writes_total')
        .filter((s) => s.labels.result === 'failed')
        .reduce((sum, s) => sum + s.value, 0);
      expect(failed).toBe(1);
    },
  );
});

describe("answers against the consumer's limits", () => {
  it(
    "counts answers within 10 % of 900 KiB and over 100 inputs by endpoint, and gives the listing's size beside the " +
      'limit',
    async () => {
      const bulky = {
        id: 'bulky',
        component_path: 'x'.repeat(880_000),
        component_version: '1',
        oci_url: 'oci://example.com/charts',
        oci_tag: '1',
      };
      const many = Array.from({ length: 101 }, (_, i) => ({ id: `ns-${String(i).padStart(3, '0')}` }));
      const clusters = fixtureData.clusters.map((c) =>
        c.id === 'c0'
          ? { ...c, platform_components: [{ id: 'bulky', enabled: true }], namespaces: many.map(({ id }) => ({ id })) }
          : c,
      );
      const data = {
        ...fixtureData,
        clusters,
        platform_components: [...fixtureData.platform_components, bulky],
        namespaces: [...fixtureData.namespaces, ...many],
      };
      const service = await start({ STORE_BACKEND: 'git', CONFIG_REPO: makeConfigRepo(asRepoFiles(data)) });
      const families = await scrape(service);
      const byEndpoint = (name: string) =>
        Object.fromEntries(samplesOf(families, name).map((s) => [s.labels.endpoint, s.value]));
      expect(byEndpoint('gitops_config_answers_near_size_limit')).toEqual({
        'platform-components': 1,
        namespaces: 0,
        rolebindings: 0,
      });
      expect(byEndpoint('gitops_config_answers_over_input_limit')).toEqual({
        'platform-components': 0,
        namespaces: 1,
        rolebindings: 0,
      });
      expect(sampleValue(families, 'gitops_config_response_limit_bytes')).toBe(900 * 1024);
      const listing = await request(service.url, '/api/v2/gitops/clusters', { token: READ_TOKEN });
      expect(sampleValue(families, 'gitops_config_fleet_list_bytes')).toBe(listing.body.length);
    },
  );
});

describe('silent clusters and the fleet among replicas', () => {
  it(
    'counts a cluster that polled and then stopped for three ' + 'poll intervals, by environment, until it polls again',
    async () => {
      const service = await start({ ...(await prepareBackend('git')).env, FLEET_POLL_INTERVAL: '100ms' });
      const silent = async () =>
        Object.fromEntries(
          samplesOf(await scrape(service), 'gitops_config_fleet_silent_clusters').map((s) => [
            s.labels.environment,
            s.value,
          ]),
        );
      expect(await silent()).toEqual({ dev: 0, qa: 0, uat: 0, prod: 0 });
      // c1 is in prod; c0 never polls, which makes it never_seen, not silent.
      expect((await request(service.url, PC('c1.k8s.example.com'), { token: READ_TOKEN })).status).toBe(200);
      await eventually(async () => (await silent()).prod === 1, 5000);
      expect(await silent()).toEqual({ dev: 0, qa: 0, uat: 0, prod: 1 });
      expect((await request(service.url, PC('c1.k8s.example.com'), { token: READ_TOKEN })).status).toBe(200);
      expect((await silent()).prod).toBe(0);
    },
  );

  it(
    'with PEERS, a replica counts the polls another replica answered: not never_seen, and silent once no replica ' +
      'hears from it',
    async () => {
      const remote = await prepareBackend('git-remote');
      const ports = await freePorts(2);
      const peers = ports.map((port) => `http://127.0.0.1:${port}`).join(',');
      const replicas: TestService[] = [];
      for (const port of ports) {
        const clone = join(tempDir('replica-clone-'), 'clone');
        replicas.push(
          await start({
            ...remote.env,
            CONFIG_CLONE_DIR: clone,
            LISTEN_ADDR: `127.0.0.1:${port}`,
            PEERS: peers,
            PEER_TOKEN,
            FLEET_POLL_INTERVAL: '200ms',
          }),
        );
      }
      const [polled, other] = replicas as [TestService, TestService];
      expect((await request(polled.url, PC('c1.k8s.example.com'), { token: READ_TOKEN })).status).toBe(200);
      const first = await scrape(other);
      expect(sampleValue(first, 'gitops_config_fleet_merged_clusters', { state: 'up_to_date' })).toBe(1);
      expect(sampleValue(first, 'gitops_config_fleet_merged_clusters', { state: 'never_seen' })).toBe(1);
      // Its own polls alone: nobody polled it.
      expect(sampleValue(first, 'gitops_config_fleet_clusters', { state: 'up_to_date' })).toBe(0);
      // Three intervals later no replica has heard from c1 (prod): the other replica counts it silent too.
      await eventually(
        async () =>
          sampleValue(await scrape(other), 'gitops_config_fleet_silent_clusters', { environment: 'prod' }) === 1,
        5000,
      );
    },
  );
});
