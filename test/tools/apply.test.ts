// `gitops-config apply` as a person or a pipeline runs it, in a process of its own, against the
// real service on loopback: --preview prints what `diff` prints for the same change, with
// exit 0 when publishable and 1 when not; --dry-run stores nothing; without either the set is
// committed and the new revision printed; a refusal prints the service's message (exit 1); a
// wrong command line exits 2 before anything is sent.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareBackend } from '../helpers/backends.ts';
import { git, tempDir, writeFiles } from '../helpers/git-fixture.ts';
import { READ_TOKEN, startTestService, type TestService, WRITE_TOKEN } from '../helpers/service.ts';
import { runTool } from '../helpers/run-tool.ts';
import { CLI, cleanEnv, runCli } from '../helpers/tools.ts';
import { BUMP, DROP_TEAM_X, PREVIEW_DATA } from '../helpers/preview-data.ts';
import { dump } from 'js-yaml';

let services: TestService[] = [];
afterEach(async () => {
  await Promise.all(services.map((s) => s.close()));
  services = [];
});

async function start(): Promise<{ service: TestService; dir: string }> {
  const prepared = await prepareBackend('git', PREVIEW_DATA);
  const service = await startTestService({
    API_MODE: 'crud',
    CRUD_AUTH_TOKEN: WRITE_TOKEN,
    LOG_LEVEL: 'info',
    ...prepared.env,
  });
  services.push(service);
  return { service, dir: prepared.dir! };
}

/** The tool in a child process, awaited: the service answers it from this process meanwhile. */
function apply(
  args: string[],
  env: Record<string, string> = { GITOPS_CONFIG_TOKEN: WRITE_TOKEN },
): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, 'apply', ...args], { env: cleanEnv(env) }, (error, stdout, stderr) => {
      resolve({ status: error ? ((error as { code?: number }).code ?? -1) : 0, stdout, stderr });
    });
  });
}

function changesFile(body: unknown): string {
  const file = join(tempDir(), 'changes.json');
  writeFileSync(file, JSON.stringify(body));
  return file;
}

describe('gitops-config apply', () => {
  it('--preview prints what diff prints for the same change, exit 0 when publishable, 1 when not', async () => {
    const { service, dir } = await start();
    // Three processes at once (a preview stores nothing): each Node start takes seconds of CPU.
    const [preview, json, refused] = await Promise.all([
      apply([changesFile(BUMP), '--server', service.url, '--preview']),
      apply([changesFile(BUMP), '--server', service.url, '--preview', '--format', 'json']),
      apply([changesFile(DROP_TEAM_X), '--server', service.url, '--preview']),
    ]);
    expect(preview.status, preview.stderr).toBe(0);

    const checkout = join(tempDir(), 'checkout');
    git(tempDir(), 'clone', '-q', dir, checkout);
    const { id: _id, ...podinfo } = {
      ...(PREVIEW_DATA.platform_components[0] as object),
      id: 'podinfo',
      component_version: '6.8.0',
      oci_tag: '6.8.0',
    };
    writeFiles(checkout, { 'platform_components/podinfo.yaml': dump(podinfo) });
    git(checkout, 'commit', '-q', '-am', BUMP.message);
    const diff = await runTool(['diff', checkout, 'HEAD~1', 'HEAD']);
    expect(diff.status).toBe(0);
    // All but the first line, which names the revisions.
    const [previewHead, ...previewRest] = preview.stdout.split('\n');
    const [, ...diffRest] = diff.stdout.split('\n');
    expect(previewHead).toBe(
      `diff: base served (${service.store.published()!.snapshot.revision.slice(0, 12)}) → head change set`,
    );
    expect(previewRest).toEqual(diffRest);
    expect(preview.stdout).toContain('Summary: 3 clusters changed (qa 1, prod 2) of 5');

    expect(JSON.parse(json.stdout)).toMatchObject({ publishable: true, summary: { clusters_changed: 3 } });

    expect(refused.status).toBe(1);
    expect(refused.stdout).toMatch(/^!! REFUSED/m);
    expect(refused.stdout).toContain('2 clusters would get an empty list');
  });

  it('stores the set and prints the new revision; --dry-run stores nothing', async () => {
    const { service } = await start();
    const before = service.store.published()!.snapshot.revision;
    const dry = await apply([changesFile(BUMP), '--server', service.url, '--dry-run']);
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(
      new RegExp(
        `^dry run: the service would store the change set on revision ${before}; nothing was stored\n  ` +
          `platform_components/podinfo "[^"]+"\n$`,
      ),
    );
    expect(service.store.published()!.snapshot.revision).toBe(before);

    const tokenFile = join(tempDir(), 'token');
    writeFileSync(tokenFile, `${WRITE_TOKEN}\n`);
    const stored = await apply([changesFile(BUMP), '--server', `${service.url}/`, '--token-file', tokenFile], {});
    expect(stored.status, stored.stderr).toBe(0);
    const after = service.store.published()!.snapshot.revision;
    expect(after).not.toBe(before);
    expect(stored.stdout.split('\n')[0]).toBe(`stored: revision ${after}`);
  });

  it("prints the service's refusal, with the write it names (exit 1)", async () => {
    const { service } = await start();
    // At once: none of them stores anything.
    const [missing, reader, away] = await Promise.all([
      apply([
        changesFile({ writes: [BUMP.writes[0], { op: 'delete', collection: 'namespaces', id: 'nope' }] }),
        '--server',
        service.url,
      ]),
      apply([changesFile(BUMP), '--server', service.url, '--preview'], { GITOPS_CONFIG_TOKEN: READ_TOKEN }),
      apply([changesFile(BUMP), '--server', 'http://127.0.0.1:9', '--preview']),
    ]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toBe(
      'gitops-config: the service answered 404 not_found: write 1: namespaces/nope not found\n  write 1: ' +
        'namespaces/nope not found\n',
    );
    expect(reader.status).toBe(1);
    expect(reader.stderr).toMatch(
      /^gitops-config: the service answered 401 unauthorized: the read token \(AUTH_TOKEN\) may read but not write/,
    );
    expect(away.status).toBe(1);
    expect(away.stderr).toMatch(/^gitops-config: cannot reach http:\/\/127\.0\.0\.1:9: /);
  });

  it('exits 2 for a wrong command line, before sending anything', async () => {
    const file = changesFile(BUMP);
    const notJson = join(tempDir(), 'changes.json');
    writeFileSync(notJson, 'writes: []\n');
    const cases: [string[], Record<string, string>, RegExp][] = [
      [[file], { GITOPS_CONFIG_TOKEN: 'x' }, /required option '--server <url>' not specified/],
      [[file, '--server', 'http://127.0.0.1:9'], {}, /no token: set GITOPS_CONFIG_TOKEN/],
      [
        [file, '--server', 'http://127.0.0.1:9', '--preview', '--dry-run'],
        { GITOPS_CONFIG_TOKEN: 'x' },
        /cannot be used with option/,
      ],
      [[notJson, '--server', 'http://127.0.0.1:9'], { GITOPS_CONFIG_TOKEN: 'x' }, /is not JSON/],
      [
        ['missing.json', '--server', 'http://127.0.0.1:9'],
        { GITOPS_CONFIG_TOKEN: 'x' },
        /cannot read .*missing\.json: ENOENT/,
      ],
      [[file, '--server', 'ftp://example.com'], { GITOPS_CONFIG_TOKEN: 'x' }, /is not an http or https URL/],
      [[file, '--server', 'http://127.0.0.1:9', '--token-file', 'nowhere'], {}, /cannot read the token file/],
    ];
    // The first in a process of its own, as a pipeline runs it; the others through the run() its
    // bin calls, in this process (test/tools/run-in-process.test.ts holds that a usage error
    // gives the same status and bytes both ways), rather than a Node start of seconds each.
    const [first, ...rest] = cases;
    const child = runCli(['apply', ...first[0]], { env: first[1] });
    expect(child.status, first[0].join(' ')).toBe(2);
    expect(child.stderr).toMatch(first[2]);
    for (const [args, env, message] of rest) {
      const result = await runTool(['apply', ...args], { env });
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(message);
    }
  });
});
