// `gitops-config validate`: one fixture repo per problem class, each asserting the exit code
// and the exact file:line:col line, plus the output formats and the usage errors.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { git, makeConfigRepo, removeDir, type RepoFiles, tempDir, writeFiles } from '../helpers/git-fixture.ts';
import { runTool } from '../helpers/run-tool.ts';

const CERT_MANAGER = `id: cert-manager
component_path: cert-manager
component_version: v1.16.2
oci_url: oci://quay.io/jetstack/charts
oci_tag: v1.16.2
cluster_env_enabled: false
depends_on: []
`;

const PODINFO = `# yaml-language-server: $schema=../schemas/platform_component.schema.json
id: podinfo
component_path: podinfo
component_version: "6.7.1"
oci_url: oci://ghcr.io/stefanprodan/charts
oci_tag: "6.7.1"
cluster_env_enabled: false
depends_on:
  - cert-manager
`;

// Line numbers below refer to this text.
const C1 = `id: c1
cluster_name: k8s-c1
cluster_dns: c1.example.com
environment: dev
platform_components:
  - id: cert-manager
    enabled: true
  - id: podinfo
    enabled: true
namespaces:
  - id: team-a
rolebindings:
  - id: admins
patches:
  podinfo:
    replicaCount: "2"
`;

const BASE: RepoFiles = {
  'README.md': '# config repo\n',
  'platform_components/cert-manager.yaml': CERT_MANAGER,
  'platform_components/podinfo.yaml': PODINFO,
  'namespaces/team-a.yaml': 'labels:\n  team: a\n',
  'rolebindings/admins.yaml':
    'role: cluster-admin\nsubjects:\n  - kind: Group\n    name: admins\n    apiGroup: rbac.authorization.k8s.io\n',
  'clusters/c1.yaml': C1,
};

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function repo(changes: RepoFiles = {}): string {
  const dir = makeConfigRepo({ ...BASE, ...changes }, { git: false });
  dirs.push(dir);
  return dir;
}

/**
 * A Git repo whose last commit holds BASE, with `changes` in the working tree: validate it with --base HEAD, as CI
 * does.
 */
function changed(changes: RepoFiles): string {
  const dir = makeConfigRepo(BASE);
  writeFiles(dir, changes);
  dirs.push(dir);
  return dir;
}

function validate(dir: string, ...options: string[]) {
  return runTool(['validate', dir, ...options]);
}

/** The problem lines (everything but the summary line). */
function problems(result: { lines: string[] }): string[] {
  return result.lines.slice(0, -1);
}

describe('validate: a valid repo', () => {
  it('exits 0 with a summary line', async () => {
    const result = await validate(repo());
    expect(result.status).toBe(0);
    expect(result.lines).toEqual([
      'valid: no problems (5 record files: 1 cluster, 2 catalog entries, 1 namespace, 1 rolebinding)',
    ]);
  });

  it('accepts the example config repo of this project', async () => {
    const result = await runTool(['validate', join(import.meta.dirname, '../..', 'config-repo-example')]);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^valid: no problems/);
  });
});

describe('validate: one fixture repo per problem class', () => {
  it('YAML syntax error, with the line of the error', async () => {
    const result = await validate(repo({ 'clusters/c1.yaml': C1.replace('cluster_dns: c1', '  cluster_dns: c1') }));
    expect(result.status).toBe(1);
    expect(problems(result)).toEqual([
      'clusters/c1.yaml:3:14: error: YAML syntax error: bad indentation of a mapping entry',
    ]);
  });

  it('YAML duplicate key, with its line', async () => {
    const result = await validate(
      repo({ 'clusters/c1.yaml': C1.replace('environment: dev\n', 'environment: dev\nenvironment: prod\n') }),
    );
    expect(result.status).toBe(1);
    expect(problems(result)).toEqual(['clusters/c1.yaml:5:1: error: YAML syntax error: duplicated mapping key']);
  });

  it('id that is not the file name', async () => {
    const result = await validate(repo({ 'clusters/c1.yaml': C1.replace('id: c1', 'id: c2') }));
    expect(result.status).toBe(1);
    expect(problems(result)).toEqual([
      'clusters/c1.yaml:1:5: error: id: id "c2" does not match the file name; it must be "c1" (or be left out)',
    ]);
  });

  it('unknown field, pointing at the key', async () => {
    const result = await validate(
      repo({ 'clusters/c1.yaml': C1.replace('environment: dev', 'environment: dev\nenviroment: prod') }),
    );
    expect(result.status).toBe(1);
    expect(problems(result)).toEqual(['clusters/c1.yaml:5:1: error: unknown field "enviroment"']);
  });

  it('unknown field in a nested mapping', async () => {
    const result = await validate(
      repo({
        'clusters/c1.yaml': C1.replace('    enabled: true\n  - id: podinfo', '    enabeld: true\n  - id: podinfo'),
      }),
    );
    expect(result.status).toBe(1);
    expect(problems(result)).toEqual([
      'clusters/c1.yaml:6:5: error: platform_components[0].enabled: missing required field "enabled"',
      'clusters/c1.yaml:7:5: error: platform_components[0]: unknown field "enabeld"',
    ]);
  });

  it('bad environment, pointing at the value', async () => {
    const result = await validate(
      repo({ 'clusters/c1.yaml': C1.replace('environment: dev', 'environment: production') }),
    );
    expect(result.status).toBe(1);
    expect(problems(result)).toEqual(['clusters/c1.yaml:4:14: error: environment: must be one of: dev, qa, uat, prod']);
  });

  it('duplicate cluster_dns (case-insensitive), on the second cluster', async () => {
    const c2 = C1.replace('id: c1', 'id: c2').replace('c1.example.com', 'C1.Example.com');
    const result = await validate(repo({ 'clusters/c2.yaml': c2 }));
    expect(result.status).toBe(1);
    expect(problems(result)).toEqual([
      'clusters/c2.yaml:3:14: error: cluster_dns: cluster_dns "C1.Example.com" is already used by cluster "c1"',
    ]);
  });

  it('a new dangling namespace reference: an error against --base, and an error without a base too', async () => {
    const dir = changed({ 'clusters/c1.yaml': C1.replace('  - id: team-a', '  - id: team-a\n  - id: team-b') });
    const result = await validate(dir, '--base', 'HEAD');
    expect(result.status).toBe(1);
    expect(problems(result)).toEqual([
      'clusters/c1.yaml:12:9: error: namespaces[1].id: references namespaces "team-b", which does not exist',
    ]);
    const bare = await validate(dir);
    expect(bare.status).toBe(1);
    expect(problems(bare)).toEqual([
      'clusters/c1.yaml:12:9: error: namespaces[1].id: references namespaces "team-b", which does not exist',
    ]);
  });

  it(
    'without --base every dangling reference is an error, even one every commit had: a deleted folder fails the ' +
      'bare command',
    async () => {
      const dir = makeConfigRepo({
        ...BASE,
        'clusters/c1.yaml': C1.replace('  - id: team-a', '  - id: team-a\n  - id: team-b'),
      });
      dirs.push(dir);
      const bare = await validate(dir);
      expect(bare.status).toBe(1);
      expect(problems(bare)).toEqual([
        'clusters/c1.yaml:12:9: error: namespaces[1].id: references namespaces "team-b", which does not exist',
      ]);
      expect(bare.lines.at(-1)).toMatch(/^invalid: 1 error, 0 warnings \(/);
      const github = await validate(dir, '--format', 'github');
      expect(github.status).toBe(1);
      expect(github.lines[0]).toMatch(
        /^::error file=clusters\/c1\.yaml,line=12,col=9,title=gitops-config error::namespaces\[1\]\.id: references namespaces "team-b"/,
      );
      // Against a revision that had it already, as the server publishes: a warning.
      expect((await validate(dir, '--base', 'HEAD')).status).toBe(0);
    },
  );

  it('a dangling reference the base already had is a warning: the server skips it, as the contract says', async () => {
    const dir = makeConfigRepo({
      ...BASE,
      'clusters/c1.yaml': C1.replace('  - id: team-a', '  - id: team-a\n  - id: team-b'),
    });
    dirs.push(dir);
    writeFiles(dir, {
      'clusters/c1.yaml': C1.replace('  - id: team-a', '  - id: team-a\n  - id: team-b').replace(
        'replicaCount: "2"',
        'replicaCount: "3"',
      ),
    });
    const result = await validate(dir, '--base', 'HEAD');
    expect(result.status).toBe(0);
    expect(problems(result)).toEqual([
      'clusters/c1.yaml:12:9: warning: namespaces[1].id: references namespaces "team-b", which does not exist',
    ]);
  });

  it('dangling rolebinding reference', async () => {
    const result = await validate(
      changed({ 'clusters/c1.yaml': C1.replace('  - id: admins', '  - id: admins\n  - id: "viewers"') }),
      '--base',
      'HEAD',
    );
    expect(result.status).toBe(1);
    expect(problems(result)).toEqual([
      'clusters/c1.yaml:14:9: error: rolebindings[1].id: references rolebindings "viewers", which does not exist',
    ]);
  });

  it('dangling component reference', async () => {
    const result = await validate(
      changed({
        'clusters/c1.yaml': C1.replace('  - id: podinfo\n', '  - {id: traefik, enabled: true}\n  - id: podinfo\n'),
      }),
      '--base',
      'HEAD',
    );
    expect(result.status).toBe(1);
    expect(problems(result)).toEqual([
      'clusters/c1.yaml:8:10: error: platform_components[1].id: references platform_components "traefik", which does ' +
        'not exist',
    ]);
  });

  it('duplicate reference', async () => {
    const result = await validate(
      repo({ 'clusters/c1.yaml': C1.replace('  - id: team-a', '  - id: team-a\n  - id: team-a') }),
    );
    expect(result.status).toBe(1);
    expect(problems(result)).toEqual([
      'clusters/c1.yaml:12:9: error: namespaces[1].id: "team-a" is listed twice in namespaces of cluster "c1"',
    ]);
  });

  it('patches for a component the cluster does not reference, pointing at its key', async () => {
    const result = await validate(repo({ 'clusters/c1.yaml': `${C1}  cert-manger:\n    crds.enabled: "true"\n` }));
    expect(result.status).toBe(1);
    expect(problems(result)).toEqual([
      'clusters/c1.yaml:17:3: error: patches.cert-manger: patches component "cert-manger", which the cluster does ' +
        'not reference in platform_components',
    ]);
  });

  it('unknown depends_on', async () => {
    const result = await validate(repo({ 'platform_components/podinfo.yaml': `${PODINFO}  - traefik\n` }));
    expect(result.status).toBe(1);
    expect(problems(result)).toEqual([
      'platform_components/podinfo.yaml:10:5: error: depends_on[1]: depends on "traefik", which is not in the catalog',
    ]);
  });

  it('cyclic depends_on', async () => {
    const result = await validate(
      repo({
        'platform_components/cert-manager.yaml': CERT_MANAGER.replace('depends_on: []', 'depends_on: [podinfo]'),
      }),
    );
    expect(result.status).toBe(1);
    expect(problems(result)).toEqual([
      'platform_components/cert-manager.yaml:7:1: error: depends_on: depends_on forms a cycle: cert-manager -> ' +
        'podinfo -> cert-manager',
    ]);
  });

  it('a response over 900 KiB', async () => {
    const big = 'x'.repeat(950 * 1024);
    const result = await validate(
      repo({ 'clusters/c1.yaml': C1.replace('replicaCount: "2"', `replicaCount: "2"\n    blob: "${big}"`) }),
    );
    expect(result.status).toBe(1);
    expect(problems(result)).toEqual([
      expect.stringMatching(
        /^clusters\/c1\.yaml:1:1: error: its platform-components response would be \d+ bytes, over the consumer's 900 KiB limit \(921600 bytes\)$/,
      ),
    ]);
  });

  it('more than 100 inputs on one endpoint: a warning, exit 0 (exit 1 with --strict)', async () => {
    const files: RepoFiles = {};
    const ids = Array.from({ length: 101 }, (_, i) => `ns-${i}`);
    for (const id of ids) files[`namespaces/${id}.yaml`] = '{}\n';
    files['clusters/c1.yaml'] = C1.replace('  - id: team-a\n', ids.map((id) => `  - id: ${id}\n`).join(''));
    files['namespaces/team-a.yaml'] = 'labels: {}\n'; // still defined, unused: no warning for namespaces
    const dir = repo(files);
    const result = await validate(dir);
    expect(result.status).toBe(0);
    expect(problems(result)).toEqual([
      'clusters/c1.yaml:1:1: warning: its namespaces response has 101 inputs; the consumer keeps only 100 unless its ' +
        'ResourceSetInputProvider raises spec.filter.limit',
    ]);
    expect(result.lines.at(-1)).toMatch(/^valid: 0 errors, 1 warning \(/);

    const strict = await validate(dir, '--strict');
    expect(strict.status).toBe(1);
    expect(problems(strict)).toEqual([
      'clusters/c1.yaml:1:1: error: its namespaces response has 101 inputs; the consumer keeps only 100 unless its ' +
        'ResourceSetInputProvider raises spec.filter.limit',
    ]);
  });

  it(
    'ids a checkout on macOS or Windows cannot keep apart or ' +
      'create: warnings, exit 0 (the server still serves them)',
    async () => {
      const admins = BASE['rolebindings/admins.yaml'] as string;
      const result = await validate(
        repo({
          'rolebindings/Admins.yaml': admins,
          'rolebindings/CON.yaml': admins,
          'namespaces/nul.yaml': 'labels: {}\n',
        }),
      );
      expect(result.status).toBe(0);
      expect(problems(result)).toEqual([
        'namespaces/nul.yaml:1:1: warning: id: "nul" cannot be a file name on Windows (NUL is a device name there, ' +
          'with any extension), so namespaces/nul.yaml could not be checked out',
        'rolebindings/CON.yaml:1:1: warning: id: "CON" cannot be a file name on Windows (CON is a device name there, ' +
          'with any extension), so rolebindings/CON.yaml could not be checked out',
        'rolebindings/admins.yaml:1:1: warning: id: "admins" ' +
          'differs only in case from rolebindings id "Admins": on a ' +
          'case-insensitive file system (macOS, Windows) rolebindings/Admins.yaml and rolebindings/admins.yaml are ' +
          'one ' +
          'file',
      ]);
      expect((await validate(repo({ 'rolebindings/Admins.yaml': admins }), '--strict')).status).toBe(1);
    },
  );

  it('unused catalog entry: a warning, exit 0', async () => {
    const result = await validate(
      repo({ 'platform_components/traefik.yaml': CERT_MANAGER.replaceAll('cert-manager', 'traefik') }),
    );
    expect(result.status).toBe(0);
    expect(problems(result)).toEqual([
      'platform_components/traefik.yaml:1:1: warning: catalog entry "traefik" is used by no cluster',
    ]);
  });
});

describe('validate: more of what the server refuses', () => {
  it('a value of the wrong type, with a hint to quote it', async () => {
    const result = await validate(repo({ 'clusters/c1.yaml': C1.replace('replicaCount: "2"', 'replicaCount: 2') }));
    expect(result.status).toBe(1);
    expect(problems(result)).toEqual([
      'clusters/c1.yaml:16:19: error: patches.podinfo.replicaCount: must be a string (quote it: "2")',
    ]);
  });

  it('a namespace id that is not a DNS-1123 label', async () => {
    const result = await validate(repo({ 'namespaces/Team_A.yaml': '{}\n' }));
    expect(result.status).toBe(1);
    expect(problems(result)).toEqual([
      'namespaces/Team_A.yaml:1:1: error: id: must be a DNS-1123 label: lowercase letters, digits and -, starting ' +
        'and ending with a letter or digit, at most 63 characters',
    ]);
  });

  it('an invalid key in patches, pointing at that key', async () => {
    const result = await validate(
      repo({ 'clusters/c1.yaml': C1.replace('  podinfo:\n', '  "bad key!":\n    a: b\n  podinfo:\n') }),
    );
    expect(result.status).toBe(1);
    expect(problems(result)).toEqual([
      'clusters/c1.yaml:15:3: error: patches: has an invalid key "bad key!": it must be 1-250 characters of A-Z a-z ' +
        '0-9 . _ -, starting and ending with a letter or digit',
    ]);
  });

  it('the same record in a .yaml and a .yml file', async () => {
    const result = await validate(repo({ 'namespaces/team-a.yml': 'labels: {}\n' }));
    expect(result.status).toBe(1);
    expect(problems(result)).toEqual([
      'namespaces/team-a.yml:1:1: error: defines namespaces/team-a a second time (also in namespaces/team-a.yaml)',
    ]);
  });

  it('a file that failed to load is reported once, not again as a dangling reference in every cluster', async () => {
    const result = await validate(
      repo({ 'platform_components/podinfo.yaml': PODINFO.replace('oci_tag: "6.7.1"', 'oci_tag: "6.7.1\n') }),
    );
    expect(result.status).toBe(1);
    expect(problems(result)).toHaveLength(1);
    expect(problems(result)[0]).toMatch(/^platform_components\/podinfo\.yaml:\d+:\d+: error: YAML syntax error/);
  });

  it('warns about files the service ignores in the record folders', async () => {
    const result = await validate(repo({ 'clusters/c9.json': '{}' }));
    expect(result.status).toBe(0);
    expect(problems(result)).toEqual([
      'clusters/c9.json:1:1: warning: is ignored: record files must end in .yaml or .yml',
    ]);
  });
});

describe('validate: output formats', () => {
  const bad = () =>
    changed({
      'clusters/c1.yaml': C1.replace('  - id: team-a', '  - id: team-b'),
      'clusters/c2.yaml': C1.replace('id: c1', 'id: c2')
        .replace('c1.example.com', 'c2.example.com')
        .replace('environment: dev', 'environment: production'),
    });

  it('--format github prints workflow annotations', async () => {
    const dir = bad();
    const result = await validate(dir, '--format', 'github', '--base', 'HEAD');
    expect(result.status).toBe(1);
    expect(result.lines).toEqual([
      '::error file=clusters/c1.yaml,line=11,col=9,title=gitops-config error::namespaces[0].id: references ' +
        'namespaces "team-b", which does not exist',
      '::error file=clusters/c2.yaml,line=4,col=14,title=gitops-config error::environment: must be one of: dev, qa, ' +
        'uat, prod',
      `invalid: 2 errors, 0 warnings (6 record files: 1 cluster, 2 catalog entries, 1 namespace, 1 rolebinding; ` +
        `judged against HEAD (${git(dir, 'rev-parse', 'HEAD').slice(0, 12)}))`,
    ]);
  });

  it('--format github paths are relative to the workspace when the config sits in a subfolder', async () => {
    const workspace = tempDir('workspace-');
    dirs.push(workspace);
    mkdirSync(join(workspace, 'config'));
    writeFiles(join(workspace, 'config'), {
      ...BASE,
      'platform_components/traefik.yaml': CERT_MANAGER.replaceAll('cert-manager', 'traefik'),
    });
    const fromCwd = await runTool(['validate', 'config', '--format', 'github'], { cwd: workspace });
    expect(fromCwd.lines[0]).toBe(
      '::warning file=config/platform_components/traefik.yaml,line=1,col=1,title=gitops-config warning::catalog ' +
        'entry "traefik" is used by no cluster',
    );
    const fromWorkspace = await runTool(['validate', join(workspace, 'config'), '--format', 'github'], {
      env: { GITHUB_WORKSPACE: workspace },
    });
    expect(fromWorkspace.lines[0]).toBe(fromCwd.lines[0]);
    expect(fromWorkspace.status).toBe(0);
  });

  it('--format json gives the problems with positions', async () => {
    const dir = bad();
    const result = await validate(dir, '--format', 'json', '--base', 'HEAD');
    expect(result.status).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      valid: false,
      errors: 2,
      warnings: 0,
      files: 6,
      records: { clusters: 1, platform_components: 2, namespaces: 1, rolebindings: 1, rollouts: 0 },
      base: { label: 'HEAD', commit: git(dir, 'rev-parse', 'HEAD') },
      problems: [
        {
          code: 'dangling_reference',
          file: 'clusters/c1.yaml',
          line: 11,
          column: 9,
          severity: 'error',
          record: 'clusters/c1',
          path: '/namespaces/0/id',
          message: 'namespaces[0].id: references namespaces "team-b", which does not exist',
        },
        {
          code: 'invalid_value',
          file: 'clusters/c2.yaml',
          line: 4,
          column: 14,
          severity: 'error',
          record: 'clusters/c2',
          path: '/environment',
          message: 'environment: must be one of: dev, qa, uat, prod',
        },
      ],
    });
  });

  it('escapes GitHub annotation data', async () => {
    const result = await validate(
      repo({ 'clusters/c1.yaml': C1.replace('id: c1', 'id: "50%,x"') }),
      '--format',
      'github',
    );
    expect(result.lines[0]).toBe(
      '::error file=clusters/c1.yaml,line=1,col=5,title=gitops-config error::id: id "50%25,x" does not match the ' +
        'file name; it must be "c1" (or be left out)',
    );
  });
});

describe('validate: usage', () => {
  it(
    'exits 2 without a directory, with an unknown option ' + 'or format, or for a directory that is no config repo',
    async () => {
      expect((await runTool(['validate'])).status).toBe(2);
      expect((await runTool(['validate', repo(), '--colour'])).status).toBe(2);
      expect((await runTool(['validate', repo(), '--format', 'xml'])).status).toBe(2);
      expect((await runTool(['validate', '/nonexistent/dir'])).status).toBe(2);
      const empty = tempDir();
      dirs.push(empty);
      const result = await runTool(['validate', empty]);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain('holds no record files');
      expect((await runTool([])).status).toBe(2);
      expect((await runTool(['frobnicate'])).status).toBe(2);
    },
  );

  it('prints help with exit 0', async () => {
    const result = await runTool(['--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('validate [repo-dir]');
  });
});
