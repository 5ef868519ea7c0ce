// `gitops-config cluster-token`, in process through run(): the token the server accepts for
// the cluster's record in the working tree (the generation read from the file, the first key
// signing, the key from a file too), and the exit status of every way it can fail.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { signClusterToken } from '../../src/domain/cluster-token.ts';
import { type CliIo, run } from '../../src/tools/cli.ts';
import { removeDir, tempDir } from '../helpers/temp-files.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const KEY = 'tools-cluster-token-key-0123456789abcdefgh';

async function cli(argv: string[], env: Record<string, string> = {}, io: Partial<CliIo> = {}) {
  let stdout = '';
  let stderr = '';
  const status = await run(argv, {
    stdout: (t) => void (stdout += t.toString()),
    stderr: (t) => void (stderr += t),
    cwd: ROOT,
    env,
    ...io,
  });
  return { status, stdout, stderr };
}

const made: string[] = [];
afterAll(() => made.forEach(removeDir));

/** A config repo folder with one cluster file (no Git needed: only that file is read). */
function repoWith(clusterYaml: string): string {
  const dir = tempDir('cluster-token-');
  made.push(dir);
  const file = join(dir, 'clusters', 'edge.yaml');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, clusterYaml);
  return dir;
}

const EDGE = 'cluster_name: edge\ncluster_dns: edge.example.com\nenvironment: prod\n';

describe('gitops-config cluster-token', () => {
  it("prints the token of the record's generation, signed with the first key, and nothing else", async () => {
    const at0 = await cli(['cluster-token', 'edge', '--repo', repoWith(EDGE)], {
      CLUSTER_TOKEN_KEYS: `${KEY},older-key-0123456789abcdefghijklmnop`,
    });
    expect(at0).toEqual({ status: 0, stdout: `${signClusterToken(Buffer.from(KEY), 'edge', 0)}\n`, stderr: '' });
    const at5 = await cli(['cluster-token', 'edge', '--repo', repoWith(`${EDGE}credential_generation: 5\n`)], {
      CLUSTER_TOKEN_KEYS: KEY,
    });
    expect(at5.stdout).toBe(`${signClusterToken(Buffer.from(KEY), 'edge', 5)}\n`);
    const keyDir = tempDir('keys-');
    made.push(keyDir);
    const keyFile = join(keyDir, 'keys');
    writeFileSync(keyFile, `${KEY}\n`);
    const fromFile = await cli(['cluster-token', 'edge', '--repo', repoWith(EDGE)], {
      CLUSTER_TOKEN_KEYS_FILE: keyFile,
    });
    expect(fromFile.stdout).toBe(at0.stdout);
    // Run from inside the config repo, without --repo.
    const dir = repoWith(EDGE);
    expect((await cli(['cluster-token', 'edge'], { CLUSTER_TOKEN_KEYS: KEY }, { cwd: dir })).stdout).toBe(at0.stdout);
  });

  it.each([
    ['no key', ['cluster-token', 'edge'], {}, 2, /CLUSTER_TOKEN_KEYS \(or CLUSTER_TOKEN_KEYS_FILE\) is not set/],
    ['an empty key in the list', ['cluster-token', 'edge'], { CLUSTER_TOKEN_KEYS: `${KEY},` }, 2, /key 2 is empty/],
    [
      'a key with a space at its end',
      ['cluster-token', 'edge'],
      { CLUSTER_TOKEN_KEYS: `${KEY} ` },
      2,
      /whitespace at its ends/,
    ],
    ['a malformed cluster id', ['cluster-token', '../edge'], { CLUSTER_TOKEN_KEYS: KEY }, 2, /is not a cluster id/],
    ['a cluster with no record', ['cluster-token', 'gone'], { CLUSTER_TOKEN_KEYS: KEY }, 1, /no cluster "gone"/],
  ] as const)('%s: exit %i', async (_what, argv, env, status, message) => {
    const result = await cli([...argv, '--repo', repoWith(EDGE)], env);
    expect(result.status).toBe(status);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toContain(KEY);
  });

  it('refuses a record the server would not serve, naming its problems: exit 1', async () => {
    const result = await cli(['cluster-token', 'edge', '--repo', repoWith(`${EDGE}credential_generation: -1\n`)], {
      CLUSTER_TOKEN_KEYS: KEY,
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('clusters/edge.yaml is not a valid cluster record');
    expect(result.stderr).toMatch(/clusters\/edge\.yaml:4:\d+: error: credential_generation: /);
  });
});
