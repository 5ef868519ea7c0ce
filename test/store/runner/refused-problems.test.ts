// A refused revision's problems name the line and column in the record file, on /ready's full
// view and in the history of revisions, exactly where `gitops-config validate` puts them: for
// a commit that breaks a cluster file (local Git repository and a remote behind
// `git http-backend`), for uncommitted edits of a working tree, and for refused revisions met
// at start (the newest, and one in the history read to find the baseline).
import { afterEach, describe, expect, it } from 'vitest';
import type { Collection } from '../../../src/domain/records.ts';
import type { LoadOutcome } from '../../../src/store/runner/store-events.ts';
import { type Backend, type PreparedBackend, prepareBackend } from '../../helpers/backends.ts';
import { asRepoFiles } from '../../helpers/fixture-data.ts';
import { commitAll, git, makeConfigRepo, writeFiles } from '../../helpers/git-fixture.ts';
import { request } from '../../helpers/http.ts';
import { expectMatchesOpenApi } from '../../helpers/openapi.ts';
import { READ_TOKEN, startTestService, type TestService } from '../../helpers/service.ts';
import { announcePush } from '../../helpers/store-actions.ts';
import { watchLoads } from '../../helpers/store-events.ts';
import { runTool } from '../../helpers/run-tool.ts';

const DATA: Record<Collection, { id: string; [key: string]: unknown }[]> = {
  clusters: [
    {
      id: 'c1',
      cluster_name: 'cluster-one',
      cluster_dns: 'c1.k8s.example.com',
      environment: 'dev',
      platform_components: [{ id: 'podinfo', enabled: true }],
    },
    {
      id: 'c2',
      cluster_name: 'cluster-two',
      cluster_dns: 'c2.k8s.example.com',
      environment: 'dev',
      platform_components: [{ id: 'podinfo', enabled: true }],
    },
  ],
  platform_components: [
    {
      id: 'podinfo',
      component_path: 'podinfo',
      component_version: '6.7.1',
      oci_url: 'oci://ghcr.io/stefanprodan/charts',
      oci_tag: '6.7.1',
    },
  ],
  namespaces: [{ id: 'team-a' }],
  rolebindings: [],
  rollouts: [],
};

/** An unknown field on line 5, a string where a boolean belongs on line 8, nested in a list. */
const BROKEN_C1 = [
  '# The first cluster.',
  'cluster_name: cluster-one',
  'cluster_dns: c1.k8s.example.com',
  'environment: dev',
  'colour: blue',
  'platform_components:',
  '  - id: podinfo',
  '    enabled: "yes"',
  '',
].join('\n');

/** A number where a patch value must be a string, three mappings deep, on line 9. */
const BROKEN_C2 = [
  'cluster_name: cluster-two',
  'cluster_dns: c2.k8s.example.com',
  'environment: dev',
  'platform_components:',
  '  - id: podinfo',
  '    enabled: true',
  'patches:',
  '  podinfo:',
  '    replicaCount: 3',
  '',
].join('\n');

interface ShownProblem {
  code: string;
  at: string;
  file?: string;
  field: string;
  line?: number;
  column?: number;
}

/** What `gitops-config validate --format json` says of `text` as `path`, in the service's terms. */
async function validatedAs(path: string, text: string): Promise<ShownProblem[]> {
  const dir = makeConfigRepo({ ...asRepoFiles(DATA), [path]: text }, { git: false });
  const report = JSON.parse((await runTool(['validate', dir, '--format', 'json'])).stdout) as {
    problems: {
      code: string;
      file: string | null;
      line: number | null;
      column: number | null;
      path: string;
      severity: string;
    }[];
  };
  return report.problems
    .filter((p) => p.file === path && p.severity === 'error')
    .map((p) => ({
      code: p.code,
      at: `${p.file}:${p.line}:${p.column}`,
      file: p.file!,
      field: p.path,
      line: p.line!,
      column: p.column!,
    }));
}

const shown = (problems: ShownProblem[]) =>
  problems
    .map(({ code, at, file, field, line, column }) => ({ code, at, file, field, line, column }))
    .sort((a, b) => a.at.localeCompare(b.at));

let service: TestService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

/** Commits `text` as `path` the way each store gets a commit: a person's commit, or a push the webhook announces. */
async function commitFile(
  prepared: PreparedBackend,
  path: string,
  content: string | object,
  message: string,
  announce = true,
): Promise<string> {
  if (prepared.dir) {
    writeFiles(prepared.dir, { [path]: content });
    return commitAll(prepared.dir, message);
  }
  const { work } = prepared.remote!;
  writeFiles(work, { [path]: content });
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '-m', message);
  git(work, 'push', '-q', 'origin', 'HEAD:main');
  if (announce) await announcePush(service!);
  return git(work, 'rev-parse', 'HEAD');
}

async function readyProblems(): Promise<{ revision: string; problems: ShownProblem[] }> {
  const res = await request(service!.url, '/ready', { token: READ_TOKEN });
  await expectMatchesOpenApi('get', '/ready', 200, res.json());
  const body = res.json();
  expect(body.stale).toBe(true);
  return { revision: body.last_load.revision, problems: body.last_load.problems };
}

async function historyProblems(revision: string): Promise<ShownProblem[]> {
  const res = await request(service!.url, '/api/v2/gitops/revisions', { token: READ_TOKEN });
  await expectMatchesOpenApi('get', '/api/v2/gitops/revisions', 200, res.json());
  const entry = (res.json().revisions as { revision: string; result: string; problems: ShownProblem[] }[]).find(
    (e) => e.revision === revision,
  );
  expect(entry?.result, revision).toBe('refused');
  return entry!.problems;
}

it('validate itself puts the problems of the test files where a person sees them', async () => {
  expect((await validatedAs('clusters/c1.yaml', BROKEN_C1)).map((p) => [p.code, p.at])).toEqual([
    ['unknown_field', 'clusters/c1.yaml:5:1'],
    ['wrong_type', 'clusters/c1.yaml:8:14'],
  ]);
  expect((await validatedAs('clusters/c2.yaml', BROKEN_C2)).map((p) => [p.code, p.at])).toEqual([
    ['wrong_type', 'clusters/c2.yaml:9:19'],
  ]);
});

describe.each<Backend>(['git', 'git-remote'])('the problems of a refused revision on %s', (backend) => {
  it('name the line and column of a commit that breaks a cluster file, on /ready and in /revisions', async () => {
    const prepared = await prepareBackend(backend, DATA, asRepoFiles(DATA));
    service = await startTestService(prepared.env);
    const loads = watchLoads(service);
    const commit = await commitFile(prepared, 'clusters/c1.yaml', BROKEN_C1, 'break c1');
    expect((await loads.until(commit)).result).toBe('refused');

    const expected = shown(await validatedAs('clusters/c1.yaml', BROKEN_C1));
    expect(expected).toHaveLength(2);
    const ready = await readyProblems();
    expect(ready.revision).toBe(commit);
    expect(shown(ready.problems)).toEqual(expected);
    expect(shown(await historyProblems(commit))).toEqual(expected);
    // Everyone else sees counts, never where: the public view is as before.
    const open = (await request(service.url, '/ready')).json();
    expect(open.last_load.problems).toBeUndefined();
  });

  it(
    'name them for a refused revision met at start: the ' + 'newest, and one in the history read to find the baseline',
    async () => {
      const prepared = await prepareBackend(backend, DATA, asRepoFiles(DATA));
      const broken = await commitFile(prepared, 'clusters/c1.yaml', BROKEN_C1, 'break c1', false);
      const fixed = await commitFile(
        prepared,
        'clusters/c1.yaml',
        asRepoFiles(DATA)['clusters/c1.yaml'],
        'fix c1',
        false,
      );
      const newest = await commitFile(prepared, 'clusters/c2.yaml', BROKEN_C2, 'break c2', false);
      // start() returns once the first load has been judged and reported.
      service = await startTestService(prepared.env);
      expect(service.store.published()?.snapshot.revision).toBe(fixed);

      const ready = await readyProblems();
      expect(ready.revision).toBe(newest);
      const c2 = shown(await validatedAs('clusters/c2.yaml', BROKEN_C2));
      expect(shown(ready.problems)).toEqual(c2);
      expect(shown(await historyProblems(newest))).toEqual(c2);
      expect(shown(await historyProblems(broken))).toEqual(shown(await validatedAs('clusters/c1.yaml', BROKEN_C1)));
    },
  );
});

describe('the problems of uncommitted edits (a working-tree revision)', () => {
  it('name the line and column in the file as it is in the working tree', async () => {
    const prepared = await prepareBackend('git', DATA, asRepoFiles(DATA));
    service = await startTestService(prepared.env);
    const refused = new Promise<LoadOutcome>((resolve) => {
      const off = service!.store.onLoad((outcome) => {
        if (outcome.result !== 'refused') return;
        off();
        resolve(outcome);
      });
    });
    writeFiles(prepared.dir!, { 'clusters/c1.yaml': BROKEN_C1 });
    const outcome = await refused;
    expect(outcome.revision).toMatch(/\+dirty\./);

    const expected = shown(await validatedAs('clusters/c1.yaml', BROKEN_C1));
    const ready = await readyProblems();
    expect(ready.revision).toBe(outcome.revision);
    expect(shown(ready.problems)).toEqual(expected);
    expect(shown(await historyProblems(outcome.revision!))).toEqual(expected);
  });
});
