// `gitops-config diff`: two real commits of a config repo, read from the object store.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitAll, git, makeConfigRepo, removeDir, type RepoFiles, writeFiles } from '../helpers/git-fixture.ts';
import { runTool } from '../helpers/run-tool.ts';

const catalog = (id: string, tag: string, dependsOn: string[] = []) => ({
  id,
  component_path: id,
  component_version: tag,
  oci_url: `oci://registry.example.com/${id}`,
  oci_tag: tag,
  cluster_env_enabled: false,
  depends_on: dependsOn,
});

const cluster = (id: string, environment: string, extra: object) => ({
  id,
  cluster_name: `k8s-${id}`,
  cluster_dns: `${id}.example.com`,
  environment,
  ...extra,
});

const BASE: RepoFiles = {
  'platform_components/cert-manager.yaml': catalog('cert-manager', 'v1.16.2'),
  'platform_components/podinfo.yaml': catalog('podinfo', '6.7.1', ['cert-manager']),
  'namespaces/team-a.yaml': { labels: { team: 'a' } },
  'namespaces/team-b.yaml': { labels: { team: 'b' } },
  'rolebindings/admins.yaml': {
    role: 'cluster-admin',
    subjects: [{ kind: 'Group', name: 'admins', apiGroup: 'rbac.authorization.k8s.io' }],
  },
  'clusters/c1.yaml': cluster('c1', 'dev', {
    platform_components: [
      { id: 'cert-manager', enabled: true },
      { id: 'podinfo', enabled: true },
    ],
    namespaces: [{ id: 'team-a' }],
    rolebindings: [{ id: 'admins' }],
    patches: { podinfo: { replicaCount: '1' } },
  }),
  'clusters/c2.yaml': cluster('c2', 'prod', {
    platform_components: [
      { id: 'cert-manager', enabled: true },
      { id: 'podinfo', enabled: true },
    ],
    namespaces: [{ id: 'team-a' }, { id: 'team-b' }],
    patches: { podinfo: { replicaCount: '2' } },
  }),
  'clusters/c3.yaml': cluster('c3', 'qa', {
    platform_components: [{ id: 'cert-manager', enabled: true }],
    namespaces: [{ id: 'team-b' }],
  }),
  'clusters/c4.yaml': cluster('c4', 'uat', { platform_components: [{ id: 'cert-manager', enabled: true }] }),
  'clusters/c6.yaml': cluster('c6', 'prod', { platform_components: [{ id: 'cert-manager', enabled: true }] }),
};

let dir: string;
let baseCommit: string;
let headCommit: string;

beforeAll(() => {
  dir = makeConfigRepo(BASE);
  baseCommit = git(dir, 'rev-parse', 'HEAD');
  git(dir, 'tag', '-a', 'v1', '-m', 'release 1');
  writeFiles(dir, {
    // A catalog bump: reaches c1 and c2, which use podinfo, and nobody else.
    'platform_components/podinfo.yaml': catalog('podinfo', '6.7.2', ['cert-manager']),
    // A new catalog entry no cluster uses yet: changes no response.
    'platform_components/traefik.yaml': catalog('traefik', 'v3.2.0'),
    'clusters/c2.yaml': cluster('c2', 'prod', {
      platform_components: [
        { id: 'cert-manager', enabled: true },
        { id: 'podinfo', enabled: true },
      ],
      namespaces: [{ id: 'team-a' }, { id: 'team-b' }],
      patches: { podinfo: { replicaCount: '3' } },
    }),
    // Decommission of c3's namespaces.
    'clusters/c3.yaml': cluster('c3', 'qa', {
      platform_components: [{ id: 'cert-manager', enabled: true }],
      namespaces: [],
    }),
    'clusters/c5.yaml': cluster('c5', 'dev', { platform_components: [{ id: 'cert-manager', enabled: true }] }),
  });
  rmSync(join(dir, 'clusters/c6.yaml'));
  headCommit = commitAll(dir, 'bump podinfo, decommission c3 namespaces, add c5, remove c6');
});
afterAll(() => removeDir(dir));

describe('diff between two commits', () => {
  it('names exactly the clusters whose responses change, with old → new values', async () => {
    const result = await runTool(['diff', dir, 'HEAD~1', 'HEAD']);
    expect(result.status).toBe(0);
    expect(result.lines).toEqual([
      `diff: base HEAD~1 (${baseCommit.slice(0, 12)}) → head HEAD (${headCommit.slice(0, 12)})`,
      '!! DECOMMISSION: c3 namespaces becomes empty (1 → 0 inputs); the agent deletes everything it rendered from it',
      '!! REMOVED CLUSTER: c6: its endpoints will answer 404; its agent keeps its last inputs and goes not-ready (to ' +
        'decommission, empty its lists first)',
      '',
      'cluster c1 (dev, c1.example.com)',
      '  platform-components (2 inputs → 2 inputs)',
      '    ~ podinfo',
      '        component_version: "6.7.1" → "6.7.2"',
      '        source.oci_tag: "6.7.1" → "6.7.2"',
      '',
      'cluster c2 (prod, c2.example.com)',
      '  platform-components (2 inputs → 2 inputs)',
      '    ~ podinfo',
      '        component_version: "6.7.1" → "6.7.2"',
      '        patches.replicaCount: "2" → "3"',
      '        source.oci_tag: "6.7.1" → "6.7.2"',
      '',
      'cluster c3 (qa, c3.example.com)',
      '  namespaces (1 input → 0 inputs)  !! EMPTIED: decommission, the agent deletes everything it rendered from ' +
        'this endpoint',
      '    - team-b',
      '',
      'cluster c5 (dev, c5.example.com) [new cluster]',
      '  platform-components (404 → 1 input)',
      '    + cert-manager',
      '  namespaces (404 → 0 inputs)',
      '  rolebindings (404 → 0 inputs)',
      '',
      'cluster c6 (prod, c6.example.com) [removed: its endpoints answer 404, its agent keeps its last inputs]',
      '  platform-components (1 input → 404)',
      '  namespaces (0 inputs → 404)',
      '  rolebindings (0 inputs → 404)',
      '',
      'clusters listing (GET /api/v2/gitops/clusters)',
      '  + c5',
      '  - c6',
      '',
      'Summary: 5 clusters changed (dev 2, qa 1, prod 2) of 6; inputs: 1 added, 1 removed, 2 changed; 1 endpoint ' +
        'emptied (decommission); 1 cluster removed; 1 cluster added',
    ]);
  });

  it('gives the same report as JSON, for tools', async () => {
    const result = await runTool(['diff', dir, baseCommit.slice(0, 7), headCommit, '--format', 'json']);
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.base).toEqual({ label: baseCommit.slice(0, 7), commit: baseCommit, problems: [] });
    expect(report.clusters.map((c: { id: string; status: string }) => [c.id, c.status])).toEqual([
      ['c1', 'changed'],
      ['c2', 'changed'],
      ['c3', 'changed'],
      ['c5', 'added'],
      ['c6', 'removed'],
    ]);
    const c2 = report.clusters[1];
    expect(c2.endpoints).toEqual([
      {
        endpoint: 'platform-components',
        before: 2,
        after: 2,
        added: [],
        removed: [],
        changed: [
          {
            id: 'podinfo',
            fields: [
              { field: 'component_version', path: ['component_version'], old: '6.7.1', new: '6.7.2' },
              { field: 'patches.replicaCount', path: ['patches', 'replicaCount'], old: '2', new: '3' },
              { field: 'source.oci_tag', path: ['source', 'oci_tag'], old: '6.7.1', new: '6.7.2' },
            ],
          },
        ],
        reordered: false,
        emptied: false,
        oversized: false,
      },
    ]);
    expect(report.summary).toMatchObject({
      clusters_before: 5,
      clusters_after: 5,
      clusters_total: 6,
      clusters_changed: 5,
      by_environment: { dev: 2, prod: 2, qa: 1 },
      emptied: [{ cluster: 'c3', endpoint: 'namespaces', before: 1 }],
      clusters_removed: ['c6'],
      clusters_added: ['c5'],
    });
  });

  it('gives a pull-request comment in Markdown, with the decommission flagged loudly', async () => {
    const result = await runTool(['diff', dir, 'v1', 'main', '--format', 'markdown']);
    expect(result.status).toBe(0);
    const md = result.stdout;
    expect(md.startsWith('<!-- gitops-config-diff -->\n## Config change preview\n')).toBe(true);
    expect(md).toContain('**5 clusters of 6 change.**');
    expect(md).toContain(
      '> [!CAUTION]\n> **Decommission:** these lists become empty, so each agent deletes everything it rendered from ' +
        'them.\n> - `c3` **namespaces**: 1 → 0 inputs',
    );
    expect(md).toContain('| prod | 2 |');
    expect(md).toContain('- changed `podinfo`:\n  - `component_version` `"6.7.1"` → `"6.7.2"`');
    expect(md).toContain('**namespaces** (1 input → 0 inputs) — :warning: **emptied: decommission**');
  });

  it('reports no change between a commit and itself', async () => {
    const result = await runTool(['diff', dir, 'HEAD', 'HEAD']);
    expect(result.status).toBe(0);
    expect(result.lines.at(-1)).toBe("Summary: no cluster's responses change (5 clusters)");
  });
});

describe('diff against the working tree', () => {
  it('compares a revision with uncommitted edits, and flags a cluster_dns change', async () => {
    const file = join(dir, 'clusters/c4.yaml');
    const original = readFileSync(file, 'utf8');
    try {
      writeFileSync(file, original.replace('c4.example.com', 'c4-new.example.com'));
      const result = await runTool(['diff', dir, 'HEAD']);
      expect(result.status).toBe(0);
      expect(result.lines).toContain(
        '!! cluster_dns CHANGES: c4: c4.example.com → c4-new.example.com; an agent still polling the old URL gets 404',
      );
      expect(result.lines).toContain('cluster c4 (uat, c4.example.com → c4-new.example.com)');
      expect(result.lines).toContain('        cluster.dns: "c4.example.com" → "c4-new.example.com"');
      expect(result.lines.at(-1)).toBe(
        'Summary: 1 cluster changed (uat 1) of 5; inputs: 0 added, 0 removed, 1 changed',
      );
    } finally {
      writeFileSync(file, original);
    }
  });

  it('refuses a head the server would refuse (exit 1), naming the problems', async () => {
    const file = join(dir, 'clusters/c4.yaml');
    const original = readFileSync(file, 'utf8');
    try {
      writeFileSync(file, original.replace('environment: uat', 'environment: staging'));
      const result = await runTool(['diff', dir, 'HEAD']);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('would refuse working tree');
      expect(result.stderr).toContain('clusters/c4.yaml:4:14: error: environment: must be one of: dev, qa, uat, prod');
      expect(result.stdout).toContain('!! REFUSED: the server, serving the base, would refuse the head');
    } finally {
      writeFileSync(file, original);
    }
  });
});

describe('diff: usage', () => {
  it('exits 2 for an unknown revision, a missing argument or a directory that is not a Git repository', async () => {
    const unknown = await runTool(['diff', dir, 'no-such-branch']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('no commit or ref named "no-such-branch"');
    expect((await runTool(['diff', dir, 'HEAD~5'])).status).toBe(2);
    expect((await runTool(['diff', dir])).status).toBe(2);
    expect((await runTool(['diff', dir, 'HEAD', '--format', 'html'])).status).toBe(2);
    const plain = makeConfigRepo(BASE, { git: false });
    try {
      const result = await runTool(['diff', plain, 'HEAD']);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain('is not a Git repository');
    } finally {
      removeDir(plain);
    }
  });
});

describe('diff in a CI checkout', () => {
  it('reads a shallow clone (depth 2) of a pull request merge commit, base HEAD^1', async () => {
    const origin = makeConfigRepo(BASE);
    const clone = `${origin}-clone`;
    try {
      git(origin, 'checkout', '-q', '-b', 'feature');
      writeFiles(origin, { 'platform_components/podinfo.yaml': catalog('podinfo', '6.7.3', ['cert-manager']) });
      commitAll(origin, 'bump podinfo');
      git(origin, 'checkout', '-q', 'main');
      writeFiles(origin, { 'namespaces/team-a.yaml': { labels: { team: 'a', tier: 'gold' } } });
      commitAll(origin, 'label team-a meanwhile on main');
      git(
        origin,
        '-c',
        'user.name=CI',
        '-c',
        'user.email=ci@example.com',
        'merge',
        '-q',
        '--no-ff',
        '-m',
        'merge feature',
        'feature',
      );
      git(origin, 'clone', '-q', '--depth', '2', `file://${origin}`, clone);
      const result = await runTool(['diff', clone, 'HEAD^1', 'HEAD']);
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      // Only the pull request's own change: the label made on main is in both revisions.
      expect(result.lines.filter((l) => l.startsWith('cluster '))).toEqual([
        'cluster c1 (dev, c1.example.com)',
        'cluster c2 (prod, c2.example.com)',
      ]);
      expect(result.lines).toContain('        source.oci_tag: "6.7.1" → "6.7.3"');
      expect((await runTool(['validate', clone, '--format', 'github'])).status).toBe(0);
    } finally {
      removeDir(origin);
      removeDir(clone);
    }
  });
});
