// More record files than the process may open at once: the server and `validate` read them
// through a bounded pool, so a repo of 1,500 files loads under `ulimit -n 128` (opening them
// all at once fails with EMFILE). Run as real processes, since the limit is per process.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateConfigRepo } from '../scripts/generate-repo.ts';
import { removeDir, tempDir } from './helpers/git-fixture.ts';

const ROOT = join(import.meta.dirname, '..');
const OPEN_FILES = 128;
const CLUSTERS = 1_500;

/** Runs `node <args>` under `ulimit -n`; resolves with its exit code and output once `until` matches or it exits. */
function underLimit(args: string[], env: Record<string, string>, until?: RegExp): Promise<{ code: number | null; output: string }> {
  const quoted = args.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const child = spawn('bash', ['-c', `ulimit -n ${OPEN_FILES} && exec '${process.execPath}' ${quoted}`], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve) => {
    const take = (chunk: Buffer) => {
      output += chunk.toString();
      if (until?.test(output)) {
        child.kill('SIGTERM');
        resolve({ code: 0, output });
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('exit', (code) => resolve({ code, output }));
  });
}

let repo: string;
beforeAll(() => {
  repo = tempDir('bounded-reads-');
  generateConfigRepo(repo, { clusters: CLUSTERS, componentsPerCluster: 3, git: true });
});
afterAll(() => removeDir(repo));

describe(`a repo of ${CLUSTERS} clusters under ulimit -n ${OPEN_FILES}`, () => {
  it('passes validate', async () => {
    const { code, output } = await underLimit(['src/tools/cli.ts', 'validate', repo], {});
    expect(output).not.toContain('EMFILE');
    expect(code, output).toBe(0);
    expect(output).toContain(`${CLUSTERS} clusters`);
  }, 60_000);

  it('starts the service, which serves every cluster', async () => {
    const { output } = await underLimit(['src/main.ts'], { AUTH_TOKEN: 'limit-token', CONFIG_REPO: repo, LISTEN_ADDR: '127.0.0.1:0' }, /"msg":"gitops-config-api started"|EMFILE|"level":(50|60)/);
    expect(output).not.toContain('EMFILE');
    expect(output).toContain('gitops-config-api started');
    expect(output).toMatch(new RegExp(`"clusters":${CLUSTERS}\\b`));
  }, 60_000);
});
