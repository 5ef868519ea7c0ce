// The tool's tests call it in-process (test/helpers/run-tool.ts) rather than starting a Node
// process per command; this file holds that the two are the same: for each command and kind
// of outcome — a pass, problems, a usage error, a revision that cannot be read, a report, a
// preview, a directory given relative to where the command is typed, the GitHub workspace —
// the child process (`node src/tools/cli.ts`, as CI runs it) and run() give the same exit
// status, the same bytes on stdout and the same stderr.
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commitAll, makeConfigRepo, removeDir, writeFiles } from '../helpers/git-fixture.ts';
import { runTool } from '../helpers/run-tool.ts';
import { runCli } from '../helpers/tools.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const EXAMPLE = join(ROOT, 'config-repo-example');
/** An error (a dangling reference, without --base) and a warning (an unused catalog entry). */
const WITH_PROBLEMS = join(ROOT, 'test', 'golden', 'problems', 'repo');

const repo = makeConfigRepo({ 'namespaces/team-a.yaml': { labels: { team: 'a' } } });
writeFiles(repo, {
  'namespaces/team-a.yaml': { labels: { team: 'a', tier: 'gold' } },
  'clusters/c1.yaml': {
    cluster_name: 'one',
    cluster_dns: 'c1.example.com',
    environment: 'dev',
    namespaces: [{ id: 'team-a' }],
  },
});
commitAll(repo, 'a cluster and a label');
afterAll(() => removeDir(repo));

const COMMANDS: [string, string[], { cwd?: string; env?: Record<string, string> }?][] = [
  ['a valid repo', ['validate', EXAMPLE]],
  ['problems, as text', ['validate', WITH_PROBLEMS]],
  [
    'problems, as annotations of a workspace',
    ['validate', WITH_PROBLEMS, '--format', 'github'],
    { env: { GITHUB_WORKSPACE: ROOT } },
  ],
  ['problems, as JSON', ['validate', WITH_PROBLEMS, '--format', 'json', '--strict']],
  ['a directory relative to where it is typed', ['validate', 'config-repo-example'], { cwd: ROOT }],
  ['a repo judged against a base', ['validate', repo, '--base', 'HEAD~1']],
  ['a report of two commits', ['diff', repo, 'HEAD~1', 'HEAD', '--format', 'markdown']],
  ['a revision that cannot be read', ['diff', repo, 'no-such-revision']],
  ['a preview of a cluster', ['inputs', EXAMPLE, 'prod-eu-1.k8s.example.com', '--pretty']],
  ['a usage error', ['validate', EXAMPLE, '--format', 'xml']],
  ['no command', []],
  ['the version', ['--version']],
];

describe('the tool in-process and as a process', () => {
  it.each(COMMANDS)('%s: the same status, stdout and stderr', async (_name, args, options) => {
    const inProcess = await runTool(args, options);
    const asProcess = runCli(args, options);
    expect(inProcess.status).toBe(asProcess.status);
    expect(inProcess.stdoutBytes.equals(asProcess.stdoutBytes), inProcess.stdout).toBe(true);
    expect(inProcess.stderr).toBe(asProcess.stderr);
  });

  it('covers a pass, problems and usage errors', async () => {
    const statuses = await Promise.all(
      COMMANDS.map(([, args, options]) => runTool(args, options).then((r) => r.status)),
    );
    expect(new Set(statuses)).toEqual(new Set([0, 1, 2]));
  });
});
