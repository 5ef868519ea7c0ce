// Golden cases: test/golden/<case>/ holds an input (repo/ — a config repo — with an optional
// base/ revision before it, or a seed.json for the memory backend) and expected/, the exact
// bytes the service answers on each endpoint and the config-repo tool prints for each
// command. produceCase() runs the real server and the real tool on the input; the golden test
// compares, and `npm run golden:update` writes what it produced as the new expectation (to be
// read in review like any other change).
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { load } from 'js-yaml';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/shared/logger.ts';
import { startService } from '../../src/server.ts';
import { run } from '../../src/tools/cli.ts';
import { tempDir } from './git-fixture.ts';
import { request } from './http.ts';
import { runCommandText } from './process-starter.ts';

export const GOLDEN_ROOT = join(import.meta.dirname, '..', 'golden');

/** Every case folder. */
export function goldenCases(): string[] {
  return readdirSync(GOLDEN_ROOT, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/** Git with a fixed author and date, so a case's commits get the same ids on every machine. */
function fixedGit(dir: string, ...args: string[]): string {
  const when = '2026-01-01T00:00:00Z';
  return runCommandText('git', ['-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], {
    cwd: dir,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Golden Case',
      GIT_AUTHOR_EMAIL: 'golden@example.com',
      GIT_COMMITTER_NAME: 'Golden Case',
      GIT_COMMITTER_EMAIL: 'golden@example.com',
      GIT_AUTHOR_DATE: when,
      GIT_COMMITTER_DATE: when,
    },
  }).trim();
}

/** A Git repository holding the case: base/ as the first commit when there is one, repo/ as the head. */
function caseRepository(caseDir: string): string {
  const dir = join(tempDir('golden-'), 'config');
  mkdirSync(dir);
  fixedGit(dir, 'init', '-q');
  const commit = (source: string, message: string) => {
    for (const entry of readdirSync(dir))
      if (entry !== '.git') rmSync(join(dir, entry), { recursive: true, force: true });
    cpSync(source, dir, { recursive: true });
    fixedGit(dir, 'add', '-A');
    fixedGit(dir, 'commit', '-q', '--allow-empty', '-m', message);
  };
  if (existsSync(join(caseDir, 'base'))) commit(join(caseDir, 'base'), 'base');
  commit(join(caseDir, 'repo'), 'head');
  return dir;
}

/** The cluster_dns of every cluster file of the case, read loosely (a case may hold broken files on purpose). */
function clusterNames(repoDir: string): string[] {
  const folder = join(repoDir, 'clusters');
  if (!existsSync(folder)) return [];
  const names: string[] = [];
  for (const file of readdirSync(folder).sort()) {
    try {
      const dns = (load(readFileSync(join(folder, file), 'utf8')) as { cluster_dns?: unknown })?.cluster_dns;
      if (typeof dns === 'string') names.push(dns);
    } catch {
      // a broken file has no name to ask for
    }
  }
  return names;
}

function seedClusterNames(seedFile: string): string[] {
  const seed = JSON.parse(readFileSync(seedFile, 'utf8')) as { clusters?: { cluster_dns?: string }[] };
  return (seed.clusters ?? []).flatMap((c) => (typeof c.cluster_dns === 'string' ? [c.cluster_dns] : []));
}

const ENDPOINTS = ['platform-components', 'namespaces', 'rolebindings'];

/** The key the golden cases' cluster tokens are signed with. */
export const GOLDEN_CLUSTER_TOKEN_KEY = 'golden-cluster-token-key-0123456789abcdef';

/** The ids of the cluster files of a case, in file-name order. */
function clusterIds(repoDir: string): string[] {
  const folder = join(repoDir, 'clusters');
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .sort()
    .flatMap((file) => /^(.+)\.ya?ml$/.exec(file)?.[1] ?? []);
}

/** Everything the case produces: path inside expected/ -> bytes. */
export async function produceCase(caseDir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const seedFile = join(caseDir, 'seed.json');
  const isSeed = existsSync(seedFile);
  const repo = isSeed ? undefined : caseRepository(caseDir);
  const env = isSeed ? { STORE_BACKEND: 'memory', SEED_FILE: seedFile } : { STORE_BACKEND: 'git', CONFIG_REPO: repo! };
  const config = loadConfig({ AUTH_TOKEN: 'golden', LISTEN_ADDR: '127.0.0.1:0', LOG_LEVEL: 'silent', ...env });
  const service = await startService(config, { log: createLogger('silent') });
  try {
    const index: Record<string, { path: string; status: number; etag: string | null; revision: string | null }> = {};
    const names = isSeed ? seedClusterNames(seedFile) : clusterNames(join(caseDir, 'repo'));
    const paths: [string, string][] = [['clusters', '/api/v2/gitops/clusters']];
    for (const dns of names)
      for (const endpoint of ENDPOINTS)
        paths.push([`${dns}.${endpoint}`, `/api/v2/gitops/clusters/${dns}/${endpoint}`]);
    for (const [name, path] of paths) {
      // The identity bytes, as a client that does not ask for gzip gets them.
      const res = await request(service.url, path, { token: 'golden' });
      out.set(`http/${name}.json`, res.body);
      index[name] = {
        path,
        status: res.status,
        etag: res.headers.etag ?? null,
        revision: (res.headers['x-config-revision'] as string | undefined) ?? null,
      };
    }
    out.set('http/index.json', Buffer.from(`${JSON.stringify(index, null, 2)}\n`));
  } finally {
    await service.close();
  }
  if (repo === undefined) return out;

  const exitCodes: Record<string, number> = {};
  const cli = async (name: string, argv: string[], env: Record<string, string> = {}) => {
    const chunks: Buffer[] = [];
    const errors: string[] = [];
    const io = {
      stdout: (t: string | Buffer) => void chunks.push(Buffer.from(t)),
      stderr: (t: string) => void errors.push(t),
      cwd: repo,
      env,
    };
    exitCodes[name] = await run(argv, io);
    out.set(`cli/${name}`, Buffer.concat(chunks));
    if (errors.length > 0) out.set(`cli/${name}.stderr`, Buffer.from(errors.join('')));
  };
  await cli('validate.txt', ['validate', '.']);
  await cli('validate.json', ['validate', '.', '--format', 'json']);
  await cli('validate.github.txt', ['validate', '.', '--format', 'github']);
  if (existsSync(join(caseDir, 'base'))) {
    await cli('validate-base.txt', ['validate', '.', '--base', 'HEAD~1']);
    await cli('validate-base.json', ['validate', '.', '--base', 'HEAD~1', '--format', 'json']);
    await cli('validate-base.github.txt', ['validate', '.', '--base', 'HEAD~1', '--format', 'github']);
    await cli('diff.txt', ['diff', '.', 'HEAD~1', 'HEAD']);
    await cli('diff.md', ['diff', '.', 'HEAD~1', 'HEAD', '--format', 'markdown']);
    await cli('diff.json', ['diff', '.', 'HEAD~1', 'HEAD', '--format', 'json']);
  }
  // The first cluster's token under a fixed key: the bytes a cluster's Secret gets.
  const firstCluster = clusterIds(join(caseDir, 'repo'))[0];
  if (firstCluster !== undefined)
    await cli('cluster-token.txt', ['cluster-token', firstCluster], { CLUSTER_TOKEN_KEYS: GOLDEN_CLUSTER_TOKEN_KEY });
  out.set('cli/exit-codes.json', Buffer.from(`${JSON.stringify(exitCodes, null, 2)}\n`));
  return out;
}

/** What expected/ holds now: path -> bytes. */
export function readExpected(caseDir: string): Map<string, Buffer> {
  const root = join(caseDir, 'expected');
  const files = new Map<string, Buffer>();
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else files.set(relative(root, full).split('\\').join('/'), readFileSync(full));
    }
  };
  walk(root);
  return files;
}

/** Replaces expected/ with what the case produces now. */
export async function updateCase(caseDir: string): Promise<number> {
  const produced = await produceCase(caseDir);
  const root = join(caseDir, 'expected');
  rmSync(root, { recursive: true, force: true });
  for (const [path, bytes] of produced) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), bytes);
  }
  return produced.size;
}
