// `gitops-config inputs`: the preview prints exactly the bytes the real server sends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeConfigRepo, removeDir, type RepoFiles } from '../helpers/git-fixture.ts';
import { request } from '../helpers/http.ts';
import { READ_TOKEN, startTestService, type TestService } from '../helpers/service.ts';
import { runTool } from '../helpers/run-tool.ts';

const FILES: RepoFiles = {
  'platform_components/cert-manager.yaml': {
    id: 'cert-manager',
    component_path: 'cert-manager',
    component_version: 'v1.16.2',
    oci_url: 'oci://quay.io/jetstack/charts',
    oci_tag: 'v1.16.2',
    cluster_env_enabled: true,
    depends_on: [],
  },
  'platform_components/podinfo.yaml': {
    component_path: 'podinfo',
    component_version: 'latest',
    oci_url: 'oci://ghcr.io/stefanprodan/charts',
    oci_tag: '6.7.1',
    cluster_env_enabled: false,
    depends_on: ['cert-manager'],
  },
  'namespaces/team-a.yaml': { labels: { team: 'a' }, annotations: { 'example.com/owner': 'Zoë <zoe@example.com>' } },
  'rolebindings/admins.yaml': {
    role: 'cluster-admin',
    subjects: [{ kind: 'Group', name: 'admins', apiGroup: 'rbac.authorization.k8s.io' }],
  },
  'clusters/prod-1.yaml': `# the production cluster
cluster_name: k8s-prod-1
cluster_dns: prod-1.k8s.example.com
environment: prod
platform_components:
  - id: podinfo
    enabled: true
    oci_tag: 6.7.2-hotfix
  - id: cert-manager
    enabled: false
  - id: missing-entry
    enabled: true
namespaces:
  - id: team-a
  - id: no-such-namespace
rolebindings:
  - id: admins
patches:
  podinfo:
    ui.message: "Grüße «prod» — it's \\"live\\" ✓"
    replicaCount: "3"
`,
  'clusters/dev-1.yaml': { cluster_name: 'k8s-dev-1', cluster_dns: 'dev-1.k8s.example.com', environment: 'dev' },
};

let dir: string;
let service: TestService;

beforeAll(async () => {
  dir = makeConfigRepo(FILES);
  service = await startTestService({ STORE_BACKEND: 'git', CONFIG_REPO: dir });
});
afterAll(async () => {
  await service?.close();
  removeDir(dir);
});

describe('inputs', () => {
  const cases: [string, string[], string][] = [];
  for (const dns of ['prod-1.k8s.example.com', 'dev-1.k8s.example.com']) {
    cases.push([`${dns} (default endpoint)`, [dns], `/api/v2/gitops/clusters/${dns}/platform-components`]);
    for (const endpoint of ['platform-components', 'namespaces', 'rolebindings']) {
      cases.push([`${dns} ${endpoint}`, [dns, endpoint], `/api/v2/gitops/clusters/${dns}/${endpoint}`]);
    }
  }
  cases.push(['the clusters listing', ['clusters'], '/api/v2/gitops/clusters']);
  cases.push([
    'the clusters listing (with a cluster_dns)',
    ['prod-1.k8s.example.com', 'clusters'],
    '/api/v2/gitops/clusters',
  ]);
  cases.push([
    'a DNS name in another case with a trailing dot',
    ['PROD-1.k8s.example.com.', 'namespaces'],
    '/api/v2/gitops/clusters/prod-1.k8s.example.com/namespaces',
  ]);

  it.each(cases)('prints the same bytes as the server for %s', async (_name, args, path) => {
    const server = await request(service.url, path, { token: READ_TOKEN });
    expect(server.status).toBe(200);
    const cli = await runTool(['inputs', dir, ...args]);
    expect(cli.status).toBe(0);
    expect(cli.stdoutBytes.equals(server.body)).toBe(true);
  });

  it(
    'has the merged values in it (a hotfix tag, patches ' + 'with non-ASCII text, skipped dangling references)',
    async () => {
      const cli = await runTool(['inputs', dir, 'prod-1.k8s.example.com']);
      const inputs = JSON.parse(cli.stdout).inputs;
      expect(inputs.map((i: { id: string }) => i.id)).toEqual(['podinfo', 'cert-manager']);
      expect(inputs[0].source.oci_tag).toBe('6.7.2-hotfix');
      expect(inputs[0].patches['ui.message']).toBe('Grüße «prod» — it\'s "live" ✓');
    },
  );

  it('--pretty indents the same document for reading', async () => {
    const raw = await runTool(['inputs', dir, 'prod-1.k8s.example.com', 'rolebindings']);
    const pretty = await runTool(['inputs', dir, 'prod-1.k8s.example.com', 'rolebindings', '--pretty']);
    expect(pretty.status).toBe(0);
    expect(pretty.stdout).toBe(`${JSON.stringify(JSON.parse(raw.stdout), null, 2)}\n`);
  });

  it('exits 1 for a cluster_dns no cluster has (the server answers 404)', async () => {
    const cli = await runTool(['inputs', dir, 'nope.example.com']);
    expect(cli.status).toBe(1);
    expect(cli.stdout).toBe('');
    expect(cli.stderr).toContain('no cluster has cluster_dns "nope.example.com"');
  });

  it('exits 1 for a repo the server would refuse, naming the problems', async () => {
    const bad = makeConfigRepo({
      ...FILES,
      'clusters/dev-1.yaml': 'cluster_name: x\ncluster_dns: dev-1.k8s.example.com\nenvironment: staging\n',
    });
    try {
      const cli = await runTool(['inputs', bad, 'prod-1.k8s.example.com']);
      expect(cli.status).toBe(1);
      expect(cli.stdout).toBe('');
      expect(cli.stderr).toContain('the server would refuse this revision');
      expect(cli.stderr).toContain('clusters/dev-1.yaml:3:14: error: environment: must be one of: dev, qa, uat, prod');
    } finally {
      removeDir(bad);
    }
  });

  it('exits 2 for an unknown endpoint or missing arguments', async () => {
    expect((await runTool(['inputs', dir, 'prod-1.k8s.example.com', 'secrets'])).status).toBe(2);
    expect((await runTool(['inputs', dir])).status).toBe(2);
  });
});
