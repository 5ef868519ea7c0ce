// GET /api/v2/gitops/revisions?rollout=<id> on every backend, over real HTTP: the revisions
// that created, changed or removed that rollout's record — what a rollout's page lists as its
// timeline — and none of the others; with ?cluster= too, those that did both.
import { afterEach, describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../../src/store/history/revision-history.ts';
import { CRUD_BACKENDS, type CrudService, send, startCrud } from '../../helpers/crud.ts';
import { request } from '../../helpers/http.ts';
import { expectMatchesOpenApi } from '../../helpers/openapi.ts';
import { READ_TOKEN } from '../../helpers/service.ts';

let services: CrudService[] = [];
afterEach(async () => {
  await Promise.all(services.map((s) => s.close()));
  services = [];
});

async function revisions(service: CrudService, query: string): Promise<HistoryEntry[]> {
  const res = await request(service.url, `/api/v2/gitops/revisions${query}`, { token: READ_TOKEN });
  expect(res.status, res.text).toBe(200);
  await expectMatchesOpenApi('get', '/api/v2/gitops/revisions', 200, res.json());
  return (res.json() as { revisions: HistoryEntry[] }).revisions;
}

/** A write that must be stored; the revision it made. */
async function write(service: CrudService, method: string, path: string, body?: unknown): Promise<string> {
  const res = await send(service, method, path, body, {
    headers: { 'gitops-commit-message': encodeURIComponent(`${method} ${path}`) },
  });
  expect(res.status, res.text).toBeLessThan(300);
  return res.headers['x-config-revision'] as string;
}

const TRAEFIK_34 = {
  id: 'traefik-34',
  component: 'traefik',
  set: { component_version: '34.0.0', oci_tag: '34.0.0' },
  waves: [{ name: 'prod', environments: ['prod'] }],
  paused: true,
};

describe.each(CRUD_BACKENDS)('the revisions of a rollout on %s', (backend) => {
  it('?rollout= keeps the revisions that created, changed or removed its record, with their messages', async () => {
    const service = await startCrud(backend);
    services.push(service);
    const created = await write(service, 'POST', '/rollouts', TRAEFIK_34);
    // Another rollout's write, and a cluster's: neither is traefik-34's.
    const resumed = await write(service, 'PATCH', '/rollouts/podinfo-7', { paused: false });
    await write(service, 'PATCH', '/clusters/c0', { namespaces: [{ id: 'team-b' }] });
    // Releasing step 1 (c1, the one prod cluster) changes c1's answers too.
    const released = await write(service, 'PATCH', '/rollouts/traefik-34', { released: 1 });
    const approvedNothing = await write(service, 'PATCH', '/rollouts/traefik-34', { paused: false });
    const removed = await write(service, 'DELETE', '/rollouts/traefik-34');

    const mine = await revisions(service, '?rollout=traefik-34');
    expect(mine.map((e) => e.revision)).toEqual([removed, approvedNothing, released, created]);
    expect(mine.map((e) => e.message?.split('\n')[0])).toEqual([
      'DELETE /rollouts/traefik-34',
      'PATCH /rollouts/traefik-34',
      'PATCH /rollouts/traefik-34',
      'POST /rollouts',
    ]);
    expect(mine.every((e) => e.author !== null && e.time !== null)).toBe(true);
    expect((await revisions(service, '?rollout=podinfo-7')).map((e) => e.revision)).toEqual([resumed]);
    // Removing it with step 1 released gives c1 the catalog's answer again.
    expect((await revisions(service, '?rollout=traefik-34&cluster=c1')).map((e) => e.revision)).toEqual([
      removed,
      released,
    ]);
    expect(await revisions(service, '?rollout=nobody')).toEqual([]);
    expect((await revisions(service, '?rollout=traefik-34&limit=1')).map((e) => e.revision)).toEqual([removed]);
    expect((await revisions(service, `?rollout=traefik-34&before=${approvedNothing}`)).map((e) => e.revision)).toEqual([
      released,
      created,
    ]);
  });
});

describe.each(CRUD_BACKENDS)('a cluster written into a rollout on %s', (backend) => {
  it('?cluster= keeps the revision that moved another member out of a released step', async () => {
    const service = await startCrud(backend);
    services.push(service);
    const prod = (id: string) => ({
      id,
      cluster_name: id,
      cluster_dns: `${id}.k8s.example.com`,
      environment: 'prod',
      platform_components: [{ id: 'traefik', enabled: true }],
    });
    await write(service, 'POST', '/clusters', prod('c2'));
    // One cluster per step, in id order: c1 then c2, both released.
    await write(service, 'POST', '/rollouts', { ...TRAEFIK_34, waves: [{ ...TRAEFIK_34.waves[0], batch: 1 }] });
    await write(service, 'PATCH', '/rollouts/traefik-34', { released: 2 });
    const before = await request(service.url, '/api/v2/gitops/clusters/c2.k8s.example.com/platform-components', {
      token: READ_TOKEN,
    });
    // c10 sorts between c1 and c2: the steps become c1, c10, c2, and c2 is no longer released.
    const added = await write(service, 'POST', '/clusters', prod('c10'));
    const after = await request(service.url, '/api/v2/gitops/clusters/c2.k8s.example.com/platform-components', {
      token: READ_TOKEN,
    });
    expect(after.text).not.toBe(before.text);
    const entry = (await revisions(service, '?limit=1'))[0];
    expect(entry.revision).toBe(added);
    expect(entry.clusters).toEqual(['c10', 'c2']);
    expect((await revisions(service, '?cluster=c2&limit=1')).map((e) => e.revision)).toEqual([added]);
  });
});

describe('GET /api/v2/gitops/revisions?rollout=', () => {
  it('refuses what is not a rollout id, or a second one, by name', async () => {
    const service = await startCrud('memory');
    services.push(service);
    for (const query of ['?rollout=../x', '?rollout=', '?rollout=a&rollout=b']) {
      const res = await request(service.url, `/api/v2/gitops/revisions${query}`, { token: READ_TOKEN });
      expect(res.status, query).toBe(400);
      await expectMatchesOpenApi('get', '/api/v2/gitops/revisions', 400, res.json());
      expect(res.json().details[0].path, query).toBe('rollout');
    }
  });
});
