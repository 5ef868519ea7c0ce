// Rollouts written over REST on a real server, on every backend: each kind of bad input is a
// 400 or 409 naming the field, and stores nothing; the answers are the same bytes on every
// backend. On Git, a write of a rollout changes only the lines it changes in a file a person
// wrote, comments and left-out defaults included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asRepoFiles } from '../helpers/fixture-data.ts';
import { request } from '../helpers/http.ts';
import { CRUD_BACKENDS, CRUD_DATA, crudRepo, type CrudService, gitOut, send, startCrud } from '../helpers/crud.ts';

const CHANGES = '/api/v2/gitops/changes';
const TRAEFIK = {
  id: 'traefik-34',
  component: 'traefik',
  set: { oci_tag: '34.0.0' },
  waves: [{ name: 'prod', environments: ['prod'] }],
};

interface Case {
  name: string;
  method: string;
  path: string;
  body: unknown;
  status: number;
  error: string;
  /** Where each detail points: the field, in the record written or in another named one. */
  paths: string[];
}

const CASES: Case[] = [
  {
    name: 'an unknown component',
    method: 'POST',
    path: '/rollouts',
    body: { ...TRAEFIK, component: 'nope' },
    status: 400,
    error: 'validation_error',
    paths: ['/component'],
  },
  {
    name: 'a set of an unknown field',
    method: 'POST',
    path: '/rollouts',
    body: { ...TRAEFIK, set: { chart: 'traefik' } },
    status: 400,
    error: 'validation_error',
    paths: ['/set/chart'],
  },
  {
    name: 'a soak that does not parse',
    method: 'POST',
    path: '/rollouts',
    body: { ...TRAEFIK, waves: [{ name: 'prod', environments: ['prod'], soak: '2 hours' }] },
    status: 400,
    error: 'validation_error',
    paths: ['/waves/0/soak'],
  },
  {
    name: 'a deadline in days',
    method: 'POST',
    path: '/rollouts',
    body: { ...TRAEFIK, progress_deadline: '1d' },
    status: 400,
    error: 'validation_error',
    paths: ['/progress_deadline'],
  },
  {
    name: 'batch: 0',
    method: 'POST',
    path: '/rollouts',
    body: { ...TRAEFIK, waves: [{ name: 'prod', environments: ['prod'], batch: 0 }] },
    status: 400,
    error: 'validation_error',
    paths: ['/waves/0/batch'],
  },
  {
    name: 'released past the last step',
    method: 'PATCH',
    path: '/rollouts/podinfo-7',
    body: { released: 2 },
    status: 400,
    error: 'validation_error',
    paths: ['/released'],
  },
  {
    name: 'a set the catalog has already',
    method: 'PATCH',
    path: '/rollouts/podinfo-7',
    body: { set: { component_version: '6.7.1', oci_tag: '6.7.1' } },
    status: 400,
    error: 'validation_error',
    paths: ['/set'],
  },
  {
    name: 'a second rollout of one component, sorting after the first',
    method: 'POST',
    path: '/rollouts',
    body: { ...TRAEFIK, id: 'zz-podinfo', component: 'podinfo' },
    status: 409,
    error: 'conflict',
    paths: ['/component'],
  },
  {
    name: 'a second rollout of one component, sorting before the first',
    method: 'POST',
    path: '/rollouts',
    body: { ...TRAEFIK, id: 'a-podinfo', component: 'podinfo' },
    status: 409,
    error: 'conflict',
    paths: ['rollouts/podinfo-7/component'],
  },
  // unused-2, a rollout of the catalog entry "unused", is created before the cases.
  {
    name: 'a catalog entry deleted under a rollout',
    method: 'DELETE',
    path: '/platform_components/unused',
    body: undefined,
    status: 409,
    error: 'conflict',
    paths: [''],
  },
  {
    name: 'a rollout created in a change set that deletes its catalog entry',
    method: 'POST',
    path: CHANGES,
    body: {
      writes: [
        {
          op: 'create',
          collection: 'rollouts',
          id: 'cert-manager-2',
          record: {
            component: 'cert-manager',
            set: { oci_tag: 'v2' },
            waves: [{ name: 'all', environments: ['prod'] }],
          },
        },
        { op: 'delete', collection: 'platform_components', id: 'cert-manager' },
      ],
    },
    status: 400,
    error: 'validation_error',
    paths: ['/component'],
  },
  {
    name: 'the catalog given the set while the rollout stays',
    method: 'PATCH',
    path: '/platform_components/podinfo',
    body: { component_version: '7.0.0', oci_tag: '7.0.0' },
    status: 400,
    error: 'validation_error',
    paths: ['rollouts/podinfo-7/set'],
  },
];

/** Every answer, per backend, to compare them afterwards. */
const answers = new Map<string, Map<string, { status: number; text: string }>>();

describe.each(CRUD_BACKENDS)('rollouts written on the %s backend', (backend) => {
  let service: CrudService;
  const seen = new Map<string, { status: number; text: string }>();
  answers.set(backend, seen);
  beforeAll(async () => {
    service = await startCrud(backend);
    const unused = {
      id: 'unused-2',
      component: 'unused',
      set: { oci_tag: '2.0.0' },
      waves: [{ name: 'all', environments: ['dev'] }],
    };
    expect((await send(service, 'POST', '/rollouts', unused)).status).toBe(201);
  });
  afterAll(async () => {
    await service?.close();
  });

  /** What a refused write must leave as it was: every rollout, the catalog, and the revision. */
  async function stored(): Promise<string[]> {
    const reads = await Promise.all(['/rollouts', '/platform_components'].map((path) => send(service, 'GET', path)));
    return [...reads.map((r) => `${r.status} ${r.text}`), (await request(service.url, '/ready')).json().revision];
  }

  it.each(CASES.map((c) => [c.name, c] as const))('%s: refused, naming the field; nothing stored', async (_name, c) => {
    const before = await stored();
    const res = await send(service, c.method, c.path, c.body);
    seen.set(c.name, { status: res.status, text: res.text });
    expect(res.status, res.text).toBe(c.status);
    expect(res.json().error).toBe(c.error);
    if (c.name === 'a catalog entry deleted under a rollout')
      expect(res.json().message).toMatch(/still changed by rollouts: unused-2/);
    expect(res.json().details.map((d: { path: string }) => d.path)).toEqual(c.paths);
    expect(await stored()).toEqual(before);
  });

  it('a release in a dry run answers as the write would, and stores nothing', async () => {
    const before = await stored();
    const res = await send(service, 'PATCH', '/rollouts/podinfo-7?dryRun=All', { released: 1 });
    expect(res.status).toBe(200);
    expect(res.headers['gitops-dry-run']).toBe('true');
    expect(res.json()).toMatchObject({ id: 'podinfo-7', released: 1 });
    expect(await stored()).toEqual(before);
  });
});

describe('rollouts written on every backend', () => {
  it('are answered byte for byte alike', () => {
    const [first, ...others] = CRUD_BACKENDS;
    expect(answers.get(first)!.size).toBe(CASES.length);
    for (const backend of others) {
      for (const c of CASES)
        expect(answers.get(backend)!.get(c.name), `${backend}: ${c.name}`).toEqual(answers.get(first)!.get(c.name));
    }
  });
});

describe('a rollout file a person wrote, on the git backend', () => {
  const WRITTEN = [
    '# yaml-language-server: $schema=../schemas/rollout.schema.json',
    '# podinfo 7: prod, one cluster at a time.',
    'component: podinfo',
    'set:',
    '  component_version: "7.0.0"',
    '  oci_tag: "7.0.0" # the chart tag',
    'waves:',
    '  # every prod cluster',
    '  - name: prod',
    '    environments: [prod]',
    '    soak: 0s',
    'released: 0 # nothing yet',
    '',
  ].join('\n');
  let service: CrudService;
  let dir: string;
  beforeAll(async () => {
    dir = crudRepo({ ...asRepoFiles(CRUD_DATA), 'rollouts/podinfo-7.yaml': WRITTEN });
    service = await startCrud('git', {}, dir);
  });
  afterAll(async () => {
    await service?.close();
  });

  it('a release changes the one line of `released`, and keeps every comment and the defaults as written', async () => {
    const res = await send(service, 'PATCH', '/rollouts/podinfo-7', { released: 1 });
    expect(res.status, res.text).toBe(200);
    expect(gitOut(dir, 'show', 'HEAD:rollouts/podinfo-7.yaml')).toBe(
      WRITTEN.replace('released: 0 # nothing yet', 'released: 1 # nothing yet').trimEnd(),
    );
    expect(gitOut(dir, 'diff', '--numstat', 'HEAD~1', 'HEAD')).toBe('1\t1\trollouts/podinfo-7.yaml');
  });

  it("a new rollout is written with its folder's schema line, its waves as a person writes them", async () => {
    expect((await send(service, 'POST', '/rollouts', TRAEFIK)).status).toBe(201);
    expect(gitOut(dir, 'show', 'HEAD:rollouts/traefik-34.yaml')).toBe(
      [
        '# yaml-language-server: $schema=../schemas/rollout.schema.json',
        'id: traefik-34',
        'component: traefik',
        'set:',
        '  oci_tag: 34.0.0',
        'waves:',
        '  - name: prod',
        '    environments:',
        '      - prod',
        'failure_budget: 0',
        'progress_deadline: 1h',
        'require_reports: false',
        'released: 0',
        'paused: false',
        'approved: []',
      ].join('\n'),
    );
  });
});
