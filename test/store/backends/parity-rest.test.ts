// REST parity of the four backends. The REST suite itself (test/http/rest.test.ts) runs on
// every backend through CRUD_BACKENDS; this file adds what only a comparison shows: one
// sequence of writes sent to all four, every answer compared byte for byte, and every read
// afterwards too; plus revision behaviour and persistence across a restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Backend, backendEnv, BACKENDS, type DataSet } from '../../helpers/backends.ts';
import { fixtureData } from '../../helpers/fixture-data.ts';
import { type RawResponse, request } from '../../helpers/http.ts';
import { READ_TOKEN, startTestService, type TestService, WRITE_TOKEN } from '../../helpers/service.ts';

/** The test fixture without its dangling references, which a REST write would refuse. */
const DATA: DataSet = {
  ...fixtureData,
  clusters: (fixtureData.clusters as { id: string; [k: string]: unknown }[]).map((c) =>
    c.id !== 'c1'
      ? c
      : {
          ...c,
          platform_components: (c.platform_components as { id: string }[]).filter((r) => r.id !== 'not-in-catalog'),
          namespaces: [{ id: 'team-b' }, { id: 'team-a' }],
          rolebindings: [{ id: 'viewers' }, { id: 'admins' }],
        },
  ),
};

const CRUD = { API_MODE: 'crud', CRUD_AUTH_TOKEN: WRITE_TOKEN };
const JSON_HEADERS = { 'content-type': 'application/json' };

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
    headers: body === undefined ? headers : { ...JSON_HEADERS, ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const newCluster = (id: string, extra: object = {}) => ({
  id,
  cluster_name: `cluster-${id}`,
  cluster_dns: `${id}.k8s.example.com`,
  environment: 'qa',
  platform_components: [
    { id: 'traefik', enabled: true },
    { id: 'cert-manager', enabled: true, oci_tag: 'v1.17.0' },
  ],
  namespaces: [{ id: 'team-a' }],
  rolebindings: [{ id: 'admins' }],
  patches: { traefik: { 'service.type': 'NodePort', 'deployment.replicas': '2' } },
  ...extra,
});

describe.each(BACKENDS)('revisions of REST writes on the %s backend', (backend) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ ...(await backendEnv(backend, DATA)), ...CRUD });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('If-Match: a stale ETag is 412 and stores nothing; the current one passes', async () => {
    const read = await send(service, 'GET', '/namespaces/team-a');
    const etag = read.headers.etag!;
    expect(
      (await send(service, 'PATCH', '/namespaces/team-a', { labels: { step: '1' } }, { 'if-match': etag })).status,
    ).toBe(200);
    const stale = await send(service, 'PATCH', '/namespaces/team-a', { labels: { step: '2' } }, { 'if-match': etag });
    expect(stale.status).toBe(412);
    expect(stale.json().error).toBe('precondition_failed');
    expect((await send(service, 'GET', '/namespaces/team-a')).json().labels.step).toBe('1');
  });

  it('an update to identical content keeps the revision', async () => {
    const current = (await send(service, 'GET', '/platform_components/traefik')).json();
    const before = (await request(service.url, '/ready')).json().revision;
    const res = await send(service, 'PUT', '/platform_components/traefik', current);
    expect(res.status).toBe(200);
    expect(res.headers['x-config-revision']).toBe(before);
    expect((await request(service.url, '/ready')).json().revision).toBe(before);
  });
});

describe.each(['git', 'git-remote', 'sqlite'] as const)('writes on the %s backend', (backend) => {
  it('persist across a restart', async () => {
    const env = { ...(await backendEnv(backend, DATA)), ...CRUD };
    const first = await startTestService(env);
    try {
      expect((await send(first, 'POST', '/namespaces', { id: 'kept', labels: { z: '1', a: '2' } })).status).toBe(201);
      expect((await send(first, 'DELETE', '/clusters/c0')).status).toBe(204);
    } finally {
      await first.close();
    }
    const second = await startTestService(env);
    try {
      expect((await send(second, 'GET', '/namespaces/kept')).text).toBe(
        '{"id":"kept","labels":{"z":"1","a":"2"},"annotations":{}}',
      );
      expect((await send(second, 'GET', '/clusters/c0')).status).toBe(404);
    } finally {
      await second.close();
    }
  });
});

/** Writes sent in this order to every backend; each answer is compared across backends. */
const WRITES: [string, string, unknown?, Record<string, string>?][] = [
  [
    'POST',
    '/platform_components',
    {
      id: 'kyverno',
      component_path: 'kyverno',
      component_version: '3.3.0',
      oci_url: 'oci://ghcr.io/kyverno/charts',
      oci_tag: '3.3.0',
      depends_on: ['cert-manager'],
    },
  ],
  [
    'POST',
    '/namespaces',
    { id: 'team-c', annotations: { 'owner.example.com/name': 'Ana «C»' }, labels: { z: 'last', a: 'first' } },
  ],
  [
    'POST',
    '/clusters',
    newCluster('c5', {
      platform_components: [
        { id: 'kyverno', enabled: true },
        { id: 'podinfo', enabled: false, component_path: 'charts/podinfo' },
      ],
      namespaces: [{ id: 'team-c' }, { id: 'team-a' }],
      patches: { kyverno: { 'admissionController.replicas': '3' } },
    }),
  ],
  ['POST', '/clusters', newCluster('c6', { cluster_dns: 'C5.K8S.example.com' })],
  [
    'PUT',
    '/rolebindings/viewers',
    { role: 'view', subjects: [{ kind: 'User', name: 'jane@example.com', apiGroup: 'rbac.authorization.k8s.io' }] },
  ],
  [
    'PATCH',
    '/clusters/c1',
    { patches: { podinfo: { replicaCount: '5' }, traefik: { 'ports.web.nodePort': '30080' } } },
  ],
  ['PATCH', '/clusters/c1', { environment: 'staging' }],
  ['PATCH', '/platform_components/cert-manager', { depends_on: ['kyverno'] }],
  ['DELETE', '/platform_components/kyverno'],
  ['DELETE', '/clusters/c0'],
  ['PUT', '/namespaces/team-b', { id: 'team-b', labels: {}, annotations: {} }],
  ['GET', '/clusters/nope'],
];

describe('the same writes on every backend', () => {
  const services = {} as Record<Backend, TestService>;
  beforeAll(async () => {
    await Promise.all(
      BACKENDS.map(async (backend) => {
        services[backend] = await startTestService({ ...(await backendEnv(backend, DATA)), ...CRUD });
      }),
    );
  });
  afterAll(async () => {
    await Promise.all(BACKENDS.map((b) => services[b]?.close()));
  });

  const same = (responses: Record<Backend, RawResponse>, where: string): void => {
    const git = responses.git;
    for (const backend of BACKENDS.filter((b) => b !== 'git')) {
      const other = responses[backend];
      const label = `${where}: git vs ${backend}`;
      expect(other.status, label).toBe(git.status);
      expect(other.headers['content-type'], label).toBe(git.headers['content-type']);
      expect(other.headers.etag, label).toBe(git.headers.etag);
      expect(other.headers.location, label).toBe(git.headers.location);
      expect(other.headers['x-total-count'], label).toBe(git.headers['x-total-count']);
      expect(other.text, label).toBe(git.text);
    }
  };

  it('answer every write with the same status and bytes, and then serve the same bytes everywhere', async () => {
    const statuses: number[] = [];
    for (const [method, path, body, headers] of WRITES) {
      const responses = {} as Record<Backend, RawResponse>;
      // One backend after the other, so that each sees the writes in the same order.
      for (const backend of BACKENDS) responses[backend] = await send(services[backend], method, path, body, headers);
      same(responses, `${method} ${path}`);
      statuses.push(responses.git.status);
    }
    // The sequence exercises success and refusal alike.
    expect(statuses).toEqual([201, 201, 201, 409, 200, 200, 400, 400, 409, 204, 200, 404]);

    const reads = [
      '/clusters',
      '/platform_components',
      '/namespaces',
      '/rolebindings',
      '/clusters?environment=qa',
      '/namespaces?limit=2&offset=1',
    ];
    const listed = (await send(services.git, 'GET', '/clusters')).json() as { id: string; cluster_dns: string }[];
    for (const collection of ['clusters', 'platform_components', 'namespaces', 'rolebindings']) {
      for (const record of (await send(services.git, 'GET', `/${collection}`)).json() as { id: string }[])
        reads.push(`/${collection}/${record.id}`);
    }
    reads.push('/api/v2/gitops/clusters');
    for (const cluster of listed) {
      for (const endpoint of ['platform-components', 'namespaces', 'rolebindings'])
        reads.push(`/api/v2/gitops/clusters/${cluster.cluster_dns}/${endpoint}`);
    }
    expect(reads.length).toBeGreaterThan(20);
    for (const path of reads) {
      const responses = {} as Record<Backend, RawResponse>;
      for (const backend of BACKENDS)
        responses[backend] = await request(services[backend].url, path, { token: READ_TOKEN });
      expect(responses.git.status, path).toBe(200);
      same(responses, `GET ${path}`);
    }
  });
});

/**
 * A store that already holds ids a checkout on macOS or Windows cannot keep apart (viewers and
 * Viewers) or create (nul, aux.ops), as a repository written on Linux may: served, with
 * warnings; its records take writes; only a create of one more such id is refused.
 */
const UNPORTABLE: DataSet = {
  ...DATA,
  namespaces: [...DATA.namespaces, { id: 'nul' }],
  rolebindings: [
    ...DATA.rolebindings,
    { id: 'Viewers', role: 'view', subjects: [] },
    { id: 'aux.ops', role: 'edit', subjects: [] },
  ] as DataSet['rolebindings'],
};

describe('ids that are no portable file names, already in the store, on every backend', () => {
  const services = {} as Record<Backend, TestService>;
  beforeAll(async () => {
    await Promise.all(
      BACKENDS.map(async (backend) => {
        services[backend] = await startTestService({ ...(await backendEnv(backend, UNPORTABLE)), ...CRUD });
      }),
    );
  });
  afterAll(async () => {
    await Promise.all(BACKENDS.map((b) => services[b]?.close()));
  });

  it('are published with warnings, take writes to those records, and refuse a create of one more alike', async () => {
    for (const backend of BACKENDS) {
      const ready = (await request(services[backend].url, '/ready')).json();
      expect(ready.status, backend).toBe('ok');
      expect(ready.stale, backend).toBe(false);
      // Published as it is (the warnings are the validator's to show): the files of a
      // repository written on Linux keep being served.
      expect(
        (await send(services[backend], 'GET', '/rolebindings')).json().map((r: { id: string }) => r.id),
        backend,
      ).toEqual(['Viewers', 'admins', 'aux.ops', 'viewers']);
    }
    const steps: [string, string, unknown?][] = [
      ['GET', '/rolebindings'],
      ['PATCH', '/rolebindings/Viewers', { role: 'edit' }],
      ['PATCH', '/namespaces/nul', { labels: { kept: 'yes' } }],
      ['PATCH', '/clusters/c0', { namespaces: [{ id: 'nul' }], rolebindings: [{ id: 'Viewers' }] }],
      ['POST', '/rolebindings', { id: 'VIEWERS', role: 'view', subjects: [] }],
      ['POST', '/namespaces', { id: 'prn' }],
      ['DELETE', '/rolebindings/aux.ops'],
      ['GET', '/api/v2/gitops/clusters/bare.example.com/rolebindings'],
    ];
    const statuses: number[] = [];
    for (const [method, path, body] of steps) {
      const responses = {} as Record<Backend, RawResponse>;
      for (const backend of BACKENDS) responses[backend] = await send(services[backend], method, path, body);
      for (const backend of BACKENDS) {
        expect(responses[backend].status, `${method} ${path} on ${backend}`).toBe(responses.git.status);
        expect(responses[backend].text, `${method} ${path} on ${backend}`).toBe(responses.git.text);
      }
      statuses.push(responses.git.status);
      if (method === 'POST' && path === '/rolebindings') {
        expect(responses.git.json()).toMatchObject({
          error: 'conflict',
          message: expect.stringContaining('differs only in case from rolebindings id "viewers"'),
        });
      }
      if (method === 'POST' && path === '/namespaces') {
        expect(responses.git.json()).toMatchObject({
          error: 'validation_error',
          details: [{ path: '/id', message: expect.stringContaining('cannot be a file name on Windows') }],
        });
      }
    }
    expect(statuses).toEqual([200, 200, 200, 200, 409, 400, 204, 200]);
  });
});
