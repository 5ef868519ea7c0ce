// POST /api/v2/gitops/changes/preview on every backend, over real HTTP: what a change set
// would do before it is committed — a catalog bump reaches exactly the clusters that use the
// component, old → new; a set that empties two clusters' namespace lists is not publishable,
// with the shrink guard's verdict; a write that cannot apply gets the status the commit would
// get — and nothing is stored. On Git, the same change committed in a checkout and run through
// `gitops-config diff --format json` gives the same report.
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { dump } from 'js-yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { BACKENDS, type Backend, prepareBackend } from '../helpers/backends.ts';
import { BUMP, component, DROP_TEAM_X, PREVIEW_DATA } from '../helpers/preview-data.ts';
import { send } from '../helpers/crud.ts';
import { git, tempDir, writeFiles } from '../helpers/git-fixture.ts';
import { request } from '../helpers/http.ts';
import { expectMatchesOpenApi } from '../helpers/openapi.ts';
import { READ_TOKEN, startTestService, type TestService, WRITE_TOKEN } from '../helpers/service.ts';
import { runTool } from '../helpers/run-tool.ts';

const PREVIEW = '/api/v2/gitops/changes/preview';

let services: TestService[] = [];
afterEach(async () => {
  await Promise.all(services.map((s) => s.close()));
  services = [];
});

async function start(
  backend: Backend,
  env: Record<string, string> = {},
): Promise<{ service: TestService; dir?: string }> {
  const prepared = await prepareBackend(backend, PREVIEW_DATA);
  const service = await startTestService({
    API_MODE: 'crud',
    CRUD_AUTH_TOKEN: WRITE_TOKEN,
    LOG_LEVEL: 'info',
    ...prepared.env,
    ...env,
  });
  services.push(service);
  return { service, dir: prepared.dir };
}

describe.each(BACKENDS)('the preview of a change set on %s', (backend) => {
  it('lists exactly the clusters a catalog bump reaches, old → new, and stores nothing', async () => {
    const { service } = await start(backend);
    const served = service.store.published()!.snapshot.revision;
    const res = await send(service, 'POST', PREVIEW, BUMP);
    expect(res.status, res.text).toBe(200);
    const report = res.json();
    await expectMatchesOpenApi('post', PREVIEW, 200, report);
    expect(report.publishable).toBe(true);
    expect(report.guard).toMatchObject({ verdict: 'pass', emptied_clusters: [] });
    expect(report.base).toEqual({ label: 'served', commit: served, problems: [] });
    expect(report.clusters.map((c: { id: string }) => c.id)).toEqual(['prod-1', 'prod-2', 'qa-1']);
    const fieldsOf = (id: string) =>
      report.clusters.find((c: { id: string }) => c.id === id).endpoints[0].changed[0].fields;
    expect(fieldsOf('prod-1')).toEqual([
      { field: 'component_version', path: ['component_version'], old: '6.7.1', new: '6.8.0' },
      { field: 'source.oci_tag', path: ['source', 'oci_tag'], old: '6.7.1', new: '6.8.0' },
    ]);
    // qa-1 pins its tag: only the version changes there.
    expect(fieldsOf('qa-1')).toEqual([
      { field: 'component_version', path: ['component_version'], old: '6.7.1', new: '6.8.0' },
    ]);
    expect(report.summary).toMatchObject({
      clusters_changed: 3,
      inputs_changed: 3,
      by_environment: { prod: 2, qa: 1 },
    });
    expect(service.store.published()!.snapshot.revision).toBe(served);
  });

  it(
    "shows that a set emptying two clusters' namespace " + "lists is not publishable, with the guard's verdict",
    async () => {
      const { service } = await start(backend);
      const res = await send(service, 'POST', PREVIEW, DROP_TEAM_X);
      expect(res.status, res.text).toBe(200);
      const report = res.json();
      await expectMatchesOpenApi('post', PREVIEW, 200, report);
      expect(report.publishable).toBe(false);
      expect(report.verdict.publish).toBe(false);
      expect(report.guard).toEqual({
        verdict: 'refuse',
        shrink_allowed: false,
        emptied_clusters: [
          { cluster: 'prod-1', endpoints: ['namespaces'] },
          { cluster: 'prod-2', endpoints: ['namespaces'] },
        ],
        emptied_limit: 2,
        inputs_before: 11,
        inputs_after: 9,
        inputs_halved: false,
        min_fleet_inputs: 10,
      });
      expect(report.problems.map((p: { code: string; severity: string }) => [p.code, p.severity])).toEqual([
        ['shrink_guard', 'error'],
      ]);
      expect(report.summary.emptied).toEqual([
        { cluster: 'prod-1', endpoint: 'namespaces', before: 1 },
        { cluster: 'prod-2', endpoint: 'namespaces', before: 1 },
      ]);
      // The commit of the same set is refused for it; with the trailer, it passes, as a warning.
      expect((await send(service, 'POST', '/api/v2/gitops/changes?dryRun=All', DROP_TEAM_X)).status).toBe(400);
      const allowed = await send(service, 'POST', PREVIEW, {
        ...DROP_TEAM_X,
        message: 'team-x leaves\n\nGitops-Allow-Shrink: yes',
      });
      expect(allowed.json()).toMatchObject({
        publishable: true,
        guard: { verdict: 'pass', shrink_allowed: true },
        problems: [{ code: 'shrink_guard', severity: 'warning' }],
      });
    },
  );

  it('lists the clusters of every step of a rollout it creates; only those of released steps change', async () => {
    const { service } = await start(backend);
    const record = {
      id: 'podinfo-6-8',
      component: 'podinfo',
      set: { component_version: '6.8.0', oci_tag: '6.8.0' },
      waves: [
        { name: 'canary', clusters: ['prod-2'] },
        { name: 'qa', environments: ['qa'], approval: true },
        { name: 'prod', environments: ['prod'], soak: '1h' },
      ],
      released: 1,
    };
    const res = await send(service, 'POST', PREVIEW, {
      message: 'podinfo 6.8.0 in waves',
      writes: [{ op: 'create', collection: 'rollouts', id: record.id, record }],
    });
    expect(res.status, res.text).toBe(200);
    const report = res.json();
    await expectMatchesOpenApi('post', PREVIEW, 200, report);
    expect(report.rollouts).toEqual([
      {
        id: 'podinfo-6-8',
        status: 'added',
        component: 'podinfo',
        released: 1,
        steps: [
          { step: 1, wave: 'canary', clusters: ['prod-2'] },
          { step: 2, wave: 'qa', clusters: ['qa-1'] },
          { step: 3, wave: 'prod', clusters: ['prod-1'] },
        ],
        unassigned: [],
      },
    ]);
    // Step 1 is released by the commit: the canary's answer alone changes.
    expect(report.clusters.map((c: { id: string }) => c.id)).toEqual(['prod-2']);
    expect((await send(service, 'GET', '/rollouts/podinfo-6-8')).status).toBe(404);
  });

  it('answers a write that cannot apply as the commit would, with its index', async () => {
    const { service } = await start(backend);
    const cases: [object, number][] = [
      [{ writes: [BUMP.writes[0], { op: 'delete', collection: 'namespaces', id: 'nope' }] }, 404],
      [{ writes: [{ op: 'create', collection: 'namespaces', id: 'team-a', record: {} }] }, 409],
      [{ writes: [{ ...BUMP.writes[0], if_match: '"stale"' }] }, 412],
      [
        {
          writes: [
            BUMP.writes[0],
            { op: 'patch', collection: 'clusters', id: 'dev-1', patch: { namespaces: [{ id: 'team-q' }] } },
          ],
        },
        400,
      ],
      [{ writes: [{ op: 'upsert' }] }, 400],
    ];
    for (const [body, status] of cases) {
      const preview = await send(service, 'POST', PREVIEW, body);
      const commit = await send(service, 'POST', '/api/v2/gitops/changes?dryRun=All', body);
      expect(preview.status, preview.text).toBe(status);
      await expectMatchesOpenApi('post', PREVIEW, status, preview.json());
      expect(preview.json(), JSON.stringify(body)).toEqual(commit.json());
    }
    expect(
      (
        await send(service, 'POST', PREVIEW, {
          writes: [BUMP.writes[0], { op: 'delete', collection: 'namespaces', id: 'nope' }],
        })
      ).json().details[0].index,
    ).toBe(1);
  });
});

describe('POST /api/v2/gitops/changes/preview', () => {
  it('takes the write role (the read token 401 insufficient_scope, no token 401), and is crud mode only', async () => {
    const { service } = await start('memory');
    const reader = await send(service, 'POST', PREVIEW, BUMP, { token: READ_TOKEN });
    expect(reader.status).toBe(401);
    expect(reader.headers['www-authenticate']).toContain('error="insufficient_scope"');
    expect(
      (
        await request(service.url, PREVIEW, {
          method: 'POST',
          body: JSON.stringify(BUMP),
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(401);
    expect((await send(service, 'GET', PREVIEW)).status).toBe(405);
    const { service: readOnly } = await start('memory', { API_MODE: 'read-only' });
    expect((await send(readOnly, 'POST', PREVIEW, BUMP)).status).toBe(404);
  });

  // Git alone has two revisions to hand to `gitops-config diff`.
  it.each([
    [
      'a catalog bump',
      BUMP,
      (dir: string) =>
        writeFiles(dir, { 'platform_components/podinfo.yaml': recordFile({ ...component('podinfo', '6.8.0') }) }),
    ],
    [
      'namespaces dropped from two clusters',
      DROP_TEAM_X,
      (dir: string) => {
        for (const id of ['prod-1', 'prod-2']) {
          const record = PREVIEW_DATA.clusters.find((c) => c.id === id)!;
          writeFiles(dir, { [`clusters/${id}.yaml`]: recordFile({ ...record, namespaces: [] }) });
        }
        rmSync(join(dir, 'namespaces/team-x.yaml'));
      },
    ],
  ] as const)(
    'gives the report gitops-config diff --format json gives for the same change committed with git: %s',
    async (_name, set, edit) => {
      const { service, dir } = await start('git');
      const preview = await send(service, 'POST', PREVIEW, set);
      expect(preview.status, preview.text).toBe(200);

      const checkout = join(tempDir(), 'checkout');
      git(tempDir(), 'clone', '-q', dir!, checkout);
      edit(checkout);
      git(checkout, 'add', '-A');
      git(checkout, 'commit', '-q', '-m', set.message);
      const diff = await runTool(['diff', checkout, 'HEAD~1', 'HEAD', '--format', 'json']);
      expect(diff.status, diff.stderr).toBe(set === BUMP ? 0 : 1);

      const cli = JSON.parse(diff.stdout);
      const report = preview.json();
      // The same but for how each names the two revisions, and problems' line and column,
      // which the tool finds in the files' text and the server does not.
      const comparable = (r: Record<string, unknown>) => {
        const {
          base: _base,
          head: _head,
          problems,
          verdict,
          ...rest
        } = r as {
          base: unknown;
          head: unknown;
          problems: object[];
          verdict: { publish: boolean; problems: object[] };
        };
        const plain = (list: object[]) =>
          list.map(({ at: { line: _l, column: _c, ...at }, ...p }: any) => ({ ...p, at }));
        return {
          ...rest,
          problems: plain(problems),
          verdict: { publish: verdict.publish, problems: plain(verdict.problems) },
        };
      };
      expect(comparable(report)).toEqual(comparable(cli));
      expect(Object.keys(report)).toEqual(Object.keys(cli));
    },
  );
});

/** A record as a file of the config repo holds it: without its id, which is the file's name. */
function recordFile(record: { id: string; [key: string]: unknown }): string {
  const { id: _id, ...rest } = record;
  return dump(rest);
}
