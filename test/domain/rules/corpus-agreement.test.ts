// One rule set: every case of this corpus (a good revision, then one change on top) is judged
// by the server — started on the good revision, then given the change — and by
// `validate --base HEAD~1`, as a config repo's CI runs it. They must agree on whether the
// change is published and on the problems that refuse it.
import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRUD_DATA } from '../../helpers/crud.ts';
import { asRepoFiles } from '../../helpers/fixture-data.ts';
import { commitAll, git, gitSteps, makeConfigRepo, type RepoFiles, writeFiles } from '../../helpers/git-fixture.ts';
import { eventually, request } from '../../helpers/http.ts';
import { READ_TOKEN, startTestService, type TestService } from '../../helpers/service.ts';
import { runTool } from '../../helpers/run-tool.ts';

const c2 = {
  id: 'c2',
  cluster_name: 'two',
  cluster_dns: 'c2.example.com',
  environment: 'qa',
  credential_generation: 2,
  namespaces: [{ id: 'team-a' }, { id: 'team-b' }],
};
const BASE: RepoFiles = asRepoFiles({ ...CRUD_DATA, clusters: [...CRUD_DATA.clusters, c2] });
const c1 = BASE['clusters/c1.yaml'] as Record<string, any>;
const podinfo = BASE['platform_components/podinfo.yaml'] as Record<string, any>;
const cert = BASE['platform_components/cert-manager.yaml'] as Record<string, any>;
const rollout = BASE['rollouts/podinfo-7.yaml'] as Record<string, any>;
const wave = rollout.waves[0] as Record<string, any>;
const { id: _rolloutId, ...rolloutFields } = rollout;

interface Case {
  write?: RepoFiles;
  /** Done in the working tree before the commit (links, pipes...). */
  make?: (dir: string) => void;
  message?: string;
  /** The error codes the change is refused for; empty: published. */
  refused: string[];
}

const CORPUS: Record<string, Case> = {
  'a harmless change': { write: { 'namespaces/team-b.yaml': { labels: { tier: 'gold' } } }, refused: [] },
  'a YAML syntax error': { write: { 'namespaces/team-b.yaml': 'labels: [oops\n' }, refused: ['yaml_syntax'] },
  'an unknown field': { write: { 'clusters/c1.yaml': { ...c1, enviroment: 'dev' } }, refused: ['unknown_field'] },
  'an id that is not the file name': {
    write: { 'namespaces/team-b.yaml': { id: 'team-z' } },
    refused: ['id_mismatch'],
  },
  'a duplicate cluster_dns': {
    write: { 'clusters/c2.yaml': { ...c2, cluster_dns: 'C1.K8S.example.com' } },
    refused: ['duplicate_cluster_dns'],
  },
  'a reference listed twice': {
    write: { 'clusters/c2.yaml': { ...c2, namespaces: [{ id: 'team-a' }, { id: 'team-a' }] } },
    refused: ['duplicate_reference'],
  },
  'a new dangling reference': {
    write: { 'clusters/c2.yaml': { ...c2, namespaces: [...c2.namespaces, { id: 'team-typo' }] } },
    refused: ['dangling_reference'],
  },
  'an unknown depends_on': {
    write: { 'platform_components/podinfo.yaml': { ...podinfo, depends_on: ['ghost'] } },
    refused: ['unknown_dependency'],
  },
  'a depends_on cycle': {
    write: { 'platform_components/cert-manager.yaml': { ...cert, depends_on: ['podinfo'] } },
    refused: ['dependency_cycle'],
  },
  'a self dependency': {
    write: { 'platform_components/cert-manager.yaml': { ...cert, depends_on: ['cert-manager'] } },
    refused: ['self_dependency'],
  },
  'patches for a component the cluster does not reference': {
    write: { 'clusters/c1.yaml': { ...c1, patches: { ...c1.patches, kyverno: { a: 'b' } } } },
    refused: ['stray_patch'],
  },
  'an invalid label key': {
    write: { 'namespaces/team-b.yaml': { labels: { '-bad-': 'x' } } },
    refused: ['invalid_key'],
  },
  'an invalid label value': {
    write: { 'namespaces/team-b.yaml': { labels: { tier: 'gold plated' } } },
    refused: ['invalid_value'],
  },
  'a patch key that is no ConfigMap key': {
    write: { 'clusters/c1.yaml': { ...c1, patches: { podinfo: { 'bad key': '1' } } } },
    refused: ['invalid_key'],
  },
  'a __proto__ patch key': {
    write: {
      'clusters/c1.yaml': `${JSON.stringify({ ...c1, patches: {} }).slice(0, -3)}{"podinfo":{"__proto__":"x"}}}\n`,
    },
    refused: ['invalid_key'],
  },
  'a response over 900 KiB': {
    write: { 'platform_components/podinfo.yaml': { ...podinfo, oci_url: `oci://x/${'y'.repeat(950_000)}` } },
    refused: ['response_too_large'],
  },
  'two clusters emptied at once': {
    write: { 'clusters/c1.yaml': { ...c1, namespaces: [] }, 'clusters/c2.yaml': { ...c2, namespaces: [] } },
    refused: ['shrink_guard'],
  },
  'two clusters emptied, with the trailer': {
    write: { 'clusters/c1.yaml': { ...c1, namespaces: [] }, 'clusters/c2.yaml': { ...c2, namespaces: [] } },
    message: 'decommission c1 and c2\n\nGitops-Allow-Shrink: yes',
    refused: [],
  },
  'an oci_url that is no oci, https or http URL': {
    write: { 'platform_components/podinfo.yaml': { ...podinfo, oci_url: 'javascript:alert(1)' } },
    refused: ['oci_url_scheme'],
  },
  'a credential_generation set back': {
    write: { 'clusters/c2.yaml': { ...c2, credential_generation: 1 } },
    refused: ['credential_generation_lowered'],
  },
  'one cluster emptied (a decommission)': { write: { 'clusters/c2.yaml': { ...c2, namespaces: [] } }, refused: [] },
  'a catalog id that is no DNS-1123 label (a warning)': {
    write: { 'platform_components/Extra_Chart.yaml': { ...podinfo, id: 'Extra_Chart', depends_on: [] } },
    refused: [],
  },
  'two ids that differ only in case (a warning)': {
    write: { 'rolebindings/Admins.yaml': { role: 'view', subjects: [] } },
    refused: [],
  },
  'ids Windows reserves as device names (a warning)': {
    write: { 'namespaces/con.yaml': { labels: {} }, 'rolebindings/LPT1.ops.yaml': { role: 'view', subjects: [] } },
    refused: [],
  },
  'one record in two files': {
    write: { 'namespaces/team-b.yml': { labels: { twice: 'yes' } } },
    refused: ['duplicate_id'],
  },
  'a symbolic link as a record file': {
    make: (dir) => symlinkSync('team-a.yaml', join(dir, 'namespaces/team-c.yaml')),
    refused: ['not_regular_file'],
  },
  'a record file over MAX_RECORD_BYTES': {
    make: (dir) => writeFileSync(join(dir, 'namespaces/team-c.yaml'), `# ${'x'.repeat(2_000_000)}\n`),
    refused: ['file_too_large'],
  },
  'a rollout released (its step gets its set)': {
    write: { 'rollouts/podinfo-7.yaml': { ...rollout, released: 1 } },
    refused: [],
  },
  'a rollout of a catalog entry that does not exist': {
    write: { 'rollouts/ghost.yaml': { ...rolloutFields, component: 'ghost' } },
    refused: ['dangling_reference'],
  },
  'a catalog entry deleted under a rollout (and under a cluster)': {
    make: (dir) => rmSync(join(dir, 'platform_components/podinfo.yaml')),
    refused: ['dangling_reference', 'dangling_reference'],
  },
  'a rollout whose soak does not parse': {
    write: { 'rollouts/podinfo-7.yaml': { ...rollout, waves: [{ ...wave, soak: '2 hours' }] } },
    refused: ['invalid_duration'],
  },
  'a rollout with batch 0': {
    write: { 'rollouts/podinfo-7.yaml': { ...rollout, waves: [{ ...wave, batch: 0 }] } },
    refused: ['invalid_value'],
  },
  'a rollout with a wave name twice': {
    write: { 'rollouts/podinfo-7.yaml': { ...rollout, waves: [wave, { name: 'prod', clusters: ['c2'] }] } },
    refused: ['duplicate_wave_name'],
  },
  'a rollout approving a wave it does not have': {
    write: { 'rollouts/podinfo-7.yaml': { ...rollout, approved: ['qa'] } },
    refused: ['unknown_approved_wave'],
  },
  'a rollout whose set the catalog has already': {
    write: { 'rollouts/podinfo-7.yaml': { ...rollout, set: { oci_tag: podinfo.oci_tag } } },
    refused: ['set_unchanged'],
  },
  'a second rollout of one component': {
    write: { 'rollouts/podinfo-8.yaml': { ...rolloutFields, set: { oci_tag: '8.0.0' } } },
    refused: ['duplicate_rollout'],
  },
  'a rollout released past its last step': {
    write: { 'rollouts/podinfo-7.yaml': { ...rollout, released: 2 } },
    refused: ['released_out_of_range'],
  },
  // Both judge by RECEIVER_HOSTS, each reading it from its own environment (decision 0043).
  'a receiver_url on an allowed host': {
    write: { 'clusters/c2.yaml': { ...c2, receiver_url: 'https://hooks.c2.k8s.example.com/hook/1' } },
    refused: [],
  },
  'a receiver_url off RECEIVER_HOSTS': {
    write: { 'clusters/c2.yaml': { ...c2, receiver_url: 'https://169.254.169.254/hook/1' } },
    refused: ['receiver_url_host'],
  },
  'a receiver_url over http': {
    write: { 'clusters/c2.yaml': { ...c2, receiver_url: 'http://hooks.c2.k8s.example.com/hook/1' } },
    refused: ['invalid_value'],
  },
};
const RECEIVER_HOSTS = '*.k8s.example.com';

let dir: string;
let service: TestService;
let base: string;
beforeAll(async () => {
  dir = makeConfigRepo(BASE);
  base = git(dir, 'rev-parse', 'HEAD');
  service = await startTestService({ CONFIG_REPO: dir, RECEIVER_HOSTS });
});
afterAll(() => service?.close());

describe.each(Object.entries(CORPUS))('%s', (_name, change) => {
  it('is judged alike by the server and by validate --base', async () => {
    // Every case starts from the good revision, served.
    gitSteps(dir, ['reset', '-q', '--hard', base], ['clean', '-qfd']);
    await eventually(
      async () =>
        (await request(service.url, '/ready', { token: READ_TOKEN })).json().revision === base &&
        (await request(service.url, '/ready', { token: READ_TOKEN })).json().stale === false,
      5000,
    );

    writeFiles(dir, change.write ?? {});
    change.make?.(dir);
    const head = commitAll(dir, change.message ?? 'the change');
    await eventually(
      async () => (await request(service.url, '/ready', { token: READ_TOKEN })).json().last_load?.revision === head,
      5000,
    );
    const ready = (await request(service.url, '/ready', { token: READ_TOKEN })).json();
    const server = {
      published: ready.revision === head,
      refused: ready.stale ? ready.last_load.problems.map((p: { code: string }) => p.code).sort() : [],
    };

    const cli = await runTool(['validate', dir, '--base', 'HEAD~1', '--format', 'json'], { env: { RECEIVER_HOSTS } });
    const report = JSON.parse(cli.stdout);
    const validate = {
      published: cli.status === 0,
      refused: report.problems
        .filter((p: { severity: string }) => p.severity === 'error')
        .map((p: { code: string }) => p.code)
        .sort(),
    };

    expect(server).toEqual({ published: change.refused.length === 0, refused: [...change.refused].sort() });
    expect(validate).toEqual(server);
    for (const stray of ['namespaces/team-c.yaml', 'namespaces/team-b.yml']) rmSync(join(dir, stray), { force: true });
  });
});

it('the corpus covers every error code the rules can give a revision of files', async () => {
  const { PROBLEM_CODES } = await import('../../../src/domain/problem.ts');
  const covered = new Set(Object.values(CORPUS).flatMap((c) => c.refused));
  // Codes no revision of files can hold: seed-file shape, REST-only checks, warnings,
  // and rule variants covered elsewhere (nested files, empty files, wrong types, missing fields).
  const elsewhere = new Set([
    'seed_shape',
    'id_change',
    'still_referenced',
    'ignored_file',
    'unused_catalog_entry',
    'too_many_inputs',
    'response_near_limit',
    'component_id_not_dns_label',
    'fleet_list_large',
    'id_case_clash',
    'reserved_file_name',
    'credential_generation_reused',
    'nested_record_file',
    'empty_file',
    'not_a_mapping',
    'wrong_type',
    'missing_field',
  ]);
  // The rollouts' warnings (test/domain-rollout-rules.test.ts, and the golden case rollouts).
  const rolloutWarnings = ['empty_wave', 'wave_cluster_not_member', 'members_in_no_wave', 'reports_need_rollout_id'];
  for (const code of rolloutWarnings) elsewhere.add(code);
  expect(PROBLEM_CODES.filter((code) => !covered.has(code) && !elsewhere.has(code))).toEqual([]);
});
