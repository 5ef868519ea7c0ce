// A rollout on every backend: the same sequence of writes sent to all four (create, release
// step by step, roll back, release again, complete), every answer compared byte for byte
// across them; and on each, what the clusters are served after each step: a released
// cluster's platform-components bytes are those the catalog change alone gives it, every other
// cluster keeps its bytes and its ETag, a rollback to 0 gives every cluster the very answer it
// had before, and completing (set folded into the catalog entry, the rollout deleted, one
// change set) changes no cluster's answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Backend, backendEnv, BACKENDS, type DataSet } from '../../helpers/backends.ts';
import { type RawResponse, request } from '../../helpers/http.ts';
import { READ_TOKEN, startTestService, type TestService, WRITE_TOKEN } from '../../helpers/service.ts';

const cluster = (id: string, environment: string, components: object[], extra: object = {}) => ({
  id,
  cluster_name: id,
  cluster_dns: `${id}.k8s.example.com`,
  environment,
  platform_components: components,
  namespaces: [{ id: 'team-a' }],
  rolebindings: [{ id: 'admins' }],
  ...extra,
});
const PODINFO = { id: 'podinfo', enabled: true };

const CATALOG = [
  {
    id: 'podinfo',
    component_path: 'podinfo',
    component_version: '6.7.1',
    oci_url: 'oci://ghcr.io/stefanprodan/charts',
    oci_tag: '6.7.1',
    depends_on: ['traefik'],
  },
  {
    id: 'traefik',
    component_path: 'traefik',
    component_version: '33.0.0',
    oci_url: 'oci://ghcr.io/traefik/helm',
    oci_tag: '33.0.0',
  },
];
const ADMINS = { id: 'admins', role: 'view', subjects: [] };

const DATA: DataSet = {
  clusters: [
    cluster('dev-1', 'dev', [PODINFO, { id: 'traefik', enabled: true }]),
    cluster('dev-2', 'dev', [PODINFO]),
    cluster('qa-1', 'qa', [PODINFO]),
    // Its own tag covers every field the rollout sets: it is in step 2, and its answer never changes.
    cluster('uat-1', 'uat', [{ ...PODINFO, oci_tag: '6.7.1-hotfix' }]),
    cluster('prod-1', 'prod', [PODINFO, { id: 'traefik', enabled: true }], {
      patches: { podinfo: { replicaCount: '3' } },
    }),
    cluster('prod-2', 'prod', [{ ...PODINFO, component_path: 'charts/podinfo' }]),
    cluster('prod-3', 'prod', [PODINFO]),
    cluster('prod-4', 'prod', [{ id: 'traefik', enabled: true }]),
  ],
  platform_components: CATALOG,
  namespaces: [{ id: 'team-a' }],
  rolebindings: [ADMINS],
  rollouts: [],
};

/** The same fleet after the catalog change alone: what a released cluster must be served. */
const CATALOG_CHANGED: DataSet = {
  ...DATA,
  platform_components: DATA.platform_components.map((e) => (e.id === 'podinfo' ? { ...e, oci_tag: '6.8.0' } : e)),
};

const ROLLOUT = {
  id: 'podinfo-6-8',
  component: 'podinfo',
  set: { oci_tag: '6.8.0' },
  waves: [
    { name: 'canary', clusters: ['dev-1'] },
    { name: 'rest', environments: ['dev', 'qa', 'uat'], soak: '30m' },
    { name: 'prod', environments: ['prod'], batch: 2, approval: true },
  ],
};
const STEPS = [['dev-1'], ['dev-2', 'qa-1', 'uat-1'], ['prod-1', 'prod-2'], ['prod-3']];
const PINNED = ['uat-1'];
const CLUSTERS = DATA.clusters.map((c) => c.id);
const ENDPOINTS = ['platform-components', 'namespaces', 'rolebindings'];
// Each step is released by the test, as a person would: the service's own releases off.
const CRUD = { API_MODE: 'crud', CRUD_AUTH_TOKEN: WRITE_TOKEN, ROLLOUT_AUTO_ADVANCE: 'off' };

function send(
  service: TestService,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  return request(service.url, path, {
    method,
    token: WRITE_TOKEN,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Every cluster's answer on every endpoint: "<cluster> <endpoint>" -> ETag and bytes. */
async function answers(service: TestService): Promise<Map<string, { etag: string; text: string }>> {
  const all = new Map<string, { etag: string; text: string }>();
  for (const id of CLUSTERS) {
    for (const endpoint of ENDPOINTS) {
      const res = await request(service.url, `/api/v2/gitops/clusters/${id}.k8s.example.com/${endpoint}`, {
        token: READ_TOKEN,
      });
      expect(res.status, `${id} ${endpoint}`).toBe(200);
      all.set(`${id} ${endpoint}`, { etag: res.headers.etag!, text: res.text });
    }
  }
  return all;
}

/** A change set's answer, or its preview's, without the revisions, which each store names its own way. */
const withoutRevision = (res: RawResponse) => ({
  status: res.status,
  body: { ...res.json(), revision: undefined, base: undefined, head: undefined },
});

describe('a rollout on every backend', () => {
  const services = {} as Record<Backend, TestService>;
  let catalogChanged: TestService;
  beforeAll(async () => {
    await Promise.all([
      ...BACKENDS.map(async (backend) => {
        services[backend] = await startTestService({ ...(await backendEnv(backend, DATA)), ...CRUD });
      }),
      (async () => {
        catalogChanged = await startTestService({ ...(await backendEnv('memory', CATALOG_CHANGED)) });
      })(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([...BACKENDS.map((b) => services[b]?.close()), catalogChanged?.close()]);
  });

  /** One write sent to every backend in turn; the answers must be the same bytes everywhere. */
  async function everywhere(
    method: string,
    path: string,
    body?: unknown,
    headers: (b: Backend) => Record<string, string> = () => ({}),
  ): Promise<Record<Backend, RawResponse>> {
    const responses = {} as Record<Backend, RawResponse>;
    for (const backend of BACKENDS)
      responses[backend] = await send(services[backend], method, path, body, headers(backend));
    for (const backend of BACKENDS) {
      const label = `${method} ${path} on ${backend}`;
      expect(responses[backend].status, label).toBe(responses.git.status);
      expect(responses[backend].headers.etag, label).toBe(responses.git.headers.etag);
      if (path.startsWith('/api/v2/gitops/changes'))
        expect(withoutRevision(responses[backend]), label).toEqual(withoutRevision(responses.git));
      else expect(responses[backend].text, label).toBe(responses.git.text);
    }
    return responses;
  }

  it(
    'create, release step by step, roll back, release, complete: the same answers on every backend, only the ' +
      'released clusters moved',
    async () => {
      const initial = {} as Record<Backend, Map<string, { etag: string; text: string }>>;
      for (const backend of BACKENDS) initial[backend] = await answers(services[backend]);
      for (const backend of BACKENDS) expect(initial[backend], backend).toEqual(initial.git);
      const released = await answers(catalogChanged);

      /**
       * Each backend serves: the catalog change's bytes to the clusters of steps 1..n, the bytes before to every other.
       */
      const expectServed = async (n: number, what: string) => {
        const moved = new Set(
          STEPS.slice(0, n)
            .flat()
            .filter((id) => !PINNED.includes(id)),
        );
        for (const backend of BACKENDS) {
          const now = await answers(services[backend]);
          for (const [key, answer] of now) {
            const id = key.split(' ')[0];
            const expected =
              moved.has(id) && key.endsWith('platform-components') ? released.get(key)! : initial[backend].get(key)!;
            expect(answer, `${what}: ${key} on ${backend}`).toEqual(expected);
          }
        }
      };

      const created = await everywhere('POST', '/rollouts', ROLLOUT);
      expect(created.git.status).toBe(201);
      expect(created.git.json()).toMatchObject({
        released: 0,
        paused: false,
        approved: [],
        failure_budget: 0,
        progress_deadline: '1h',
      });
      await expectServed(0, 'created');

      // Each release is previewed first: the preview names exactly the clusters it moves.
      let etag = created.git.headers.etag!;
      for (const step of [1, 2, 3]) {
        const preview = await everywhere('POST', '/api/v2/gitops/changes/preview', {
          writes: [{ op: 'patch', collection: 'rollouts', id: ROLLOUT.id, patch: { released: step }, if_match: etag }],
        });
        expect(preview.git.status).toBe(200);
        expect(
          preview.git.json().clusters.map((c: { id: string }) => c.id),
          `step ${step}`,
        ).toEqual(STEPS[step - 1].filter((id) => !PINNED.includes(id)));
        const patched = await everywhere('PATCH', `/rollouts/${ROLLOUT.id}`, { released: step }, () => ({
          'if-match': etag,
        }));
        expect(patched.git.status).toBe(200);
        etag = patched.git.headers.etag!;
        await expectServed(step, `released ${step}`);
      }
      // A stale ETag releases nothing, anywhere.
      const stale = await everywhere('PATCH', `/rollouts/${ROLLOUT.id}`, { released: 4 }, () => ({
        'if-match': created.git.headers.etag!,
      }));
      expect(stale.git.status).toBe(412);
      await expectServed(3, 'stale release');

      const back = await everywhere('PATCH', `/rollouts/${ROLLOUT.id}`, { released: 0, paused: true }, () => ({
        'if-match': etag,
      }));
      expect(back.git.status).toBe(200);
      await expectServed(0, 'rolled back');

      const again = await everywhere('PATCH', `/rollouts/${ROLLOUT.id}`, {
        released: 4,
        paused: false,
        approved: ['prod'],
      });
      expect(again.git.status).toBe(200);
      await expectServed(4, 'released again');

      // Complete: the catalog entry takes the set and the rollout goes, in one change set.
      const catalogEntry = (await send(services.git, 'GET', '/platform_components/podinfo')).json();
      const complete = {
        message: 'complete rollout podinfo-6-8',
        writes: [
          {
            op: 'replace',
            collection: 'platform_components',
            id: 'podinfo',
            record: { ...catalogEntry, oci_tag: '6.8.0' },
          },
          { op: 'delete', collection: 'rollouts', id: ROLLOUT.id },
        ],
      };
      const preview = await everywhere('POST', '/api/v2/gitops/changes/preview', complete);
      expect(preview.git.json()).toMatchObject({ publishable: true, clusters: [], summary: { clusters_changed: 0 } });
      const stored = await everywhere('POST', '/api/v2/gitops/changes', complete);
      expect(stored.git.status).toBe(201);
      await expectServed(4, 'completed');
      expect((await everywhere('GET', '/rollouts')).git.json()).toEqual([]);
      expect((await everywhere('GET', '/platform_components/podinfo')).git.json().oci_tag).toBe('6.8.0');
    },
  );
});

describe.each(['git', 'git-remote', 'sqlite'] as const)('a rollout on the %s backend', (backend) => {
  it('is served as it was after a restart', async () => {
    const env = { ...(await backendEnv(backend, DATA)), ...CRUD };
    const first = await startTestService(env);
    let before: Map<string, { etag: string; text: string }>;
    try {
      expect((await send(first, 'POST', '/rollouts', { ...ROLLOUT, released: 1 })).status).toBe(201);
      before = await answers(first);
    } finally {
      await first.close();
    }
    const second = await startTestService(env);
    try {
      expect((await send(second, 'GET', `/rollouts/${ROLLOUT.id}`)).json()).toMatchObject({ released: 1 });
      expect(await answers(second)).toEqual(before);
    } finally {
      await second.close();
    }
  });
});
