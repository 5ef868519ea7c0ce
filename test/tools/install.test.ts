// The package installed the ways a config repo installs it, on Node 20 (the oldest the command
// supports; the machine's own Node here, with Node 24 taken off PATH): from a tarball made by
// `npm pack`, and from a Git URL pinned to a tag, which npm clones, prepares (installing the dev
// dependencies there and running the prepare script, the build) and packs; then
// `npx gitops-config` runs from the installing project. And the pre-commit example's entry,
// which fetches the tool with `npx --package=<Git URL>`. Real npm installs from the registry
// (with npm's cache): slow, hence their own file and generous time limits.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitAll, git, removeDir, tempDir } from '../helpers/git-fixture.ts';
import { moduleGraph } from '../helpers/module-graph.ts';
import { cleanEnv, runCli } from '../helpers/tools.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const EXAMPLE = join(ROOT, 'config-repo-example');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const INSTALL_TIMEOUT = 15 * 60_000;

/**
 * Where Node 20 and its npm are: NODE20_PATH, else the system's folders (the checkout's scripts
 * and tests run on a Node 24 put first on PATH; the machine's own Node is 20).
 */
const NODE20_PATH = process.env.NODE20_PATH ?? '/usr/local/bin:/usr/bin:/bin';
/** What npm and the installed command see: no npm_* settings of the npm that started the tests. */
const node20Env = () => {
  const env = cleanEnv({ PATH: NODE20_PATH });
  delete env.NODE_OPTIONS;
  return env;
};

function run20(command: string, args: string[], cwd: string) {
  const result = spawnSync(command, args, {
    cwd,
    env: node20Env(),
    encoding: 'utf8',
    timeout: INSTALL_TIMEOUT,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error)
    throw new Error(`${command} ${args.join(' ')} could not run with PATH=${NODE20_PATH}: ${result.error.message}`);
  return result;
}

/** npm install into an empty project; fails with npm's own output. */
function installInto(consumer: string, spec: string): void {
  mkdirSync(consumer, { recursive: true });
  writeFileSync(
    join(consumer, 'package.json'),
    `${JSON.stringify({ name: 'fleet-config-ci', private: true }, null, 2)}\n`,
  );
  const result = run20('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', spec], consumer);
  if (result.status !== 0)
    throw new Error(`npm install ${spec} failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
}

const dirs: string[] = [];
let work: string;
/** A clone of this repository's HEAD: what a Git URL names. */
let clone: string;
/** A config repo with two commits, the second bumping podinfo. */
let configRepo: string;
/** The same with an error in it. */
let brokenRepo: string;

beforeAll(() => {
  for (const tool of ['node', 'npm']) {
    const found = spawnSync(tool, ['--version'], { env: node20Env(), encoding: 'utf8' });
    if (found.error || found.status !== 0) {
      throw new Error(
        `${tool} is not on PATH=${NODE20_PATH}: these tests install the package with npm on Node 20 (set NODE20_PATH ` +
          `to its folder)`,
      );
    }
  }
  const major = Number(
    /^v(\d+)\./.exec(execFileSync('node', ['--version'], { env: node20Env(), encoding: 'utf8' }))?.[1],
  );
  if (major !== 20)
    throw new Error(`node on PATH=${NODE20_PATH} is v${major}, not 20: set NODE20_PATH to the folder of a Node 20`);

  work = tempDir('install-');
  dirs.push(work);
  clone = join(work, 'gitops-config-api');
  git(ROOT, 'clone', '-q', ROOT, clone);
  git(clone, 'tag', 'v0.0.0-test');

  configRepo = join(work, 'fleet-config');
  cpSync(EXAMPLE, configRepo, { recursive: true });
  git(configRepo, 'init', '-q', '-b', 'main');
  commitAll(configRepo, 'fleet config');
  const podinfo = join(configRepo, 'platform_components', 'podinfo.yaml');
  writeFileSync(podinfo, readFileSync(podinfo, 'utf8').replaceAll('"6.7.1"', '"6.7.2"'));
  commitAll(configRepo, 'podinfo 6.7.2');

  brokenRepo = join(work, 'broken-config');
  cpSync(EXAMPLE, brokenRepo, { recursive: true });
  const cluster = join(brokenRepo, 'clusters', 'qa-eu-1.yaml');
  writeFileSync(cluster, readFileSync(cluster, 'utf8').replace('environment: qa', 'environment: staging'));
}, 60_000);

afterAll(() => dirs.forEach(removeDir));

/** What every installed copy must do, on Node 20, through the installing project's node_modules/.bin. */
function expectWorkingInstall(consumer: string): void {
  const bin = join(consumer, 'node_modules', '.bin');
  const installed = join(consumer, 'node_modules', 'gitops-config-api');
  expect(existsSync(join(bin, 'gitops-config'))).toBe(true);
  expect(existsSync(join(installed, 'dist', 'src', 'tools', 'cli.js'))).toBe(true);
  // The dev dependency `node` (Node 24 for this repository's own scripts) stays out of the
  // installing project: otherwise its Node would shadow the one the project chose.
  expect(existsSync(join(bin, 'node'))).toBe(false);
  expect(existsSync(join(consumer, 'node_modules', 'node'))).toBe(false);

  const version = run20('npx', ['gitops-config', '--version'], consumer);
  expect(version.status).toBe(0);
  expect(version.stdout).toBe(`${VERSION}\n`);

  const runtime = run20('node', ['-p', 'process.version'], consumer);
  expect(runtime.stdout).toMatch(/^v20\./);

  const valid = run20('npx', ['gitops-config', 'validate', configRepo], consumer);
  expect(valid.status).toBe(0);
  expect(valid.stdout).toBe(runCli(['validate', configRepo]).stdout);

  const broken = run20(join(bin, 'gitops-config'), ['validate', brokenRepo, '--format', 'github'], consumer);
  expect(broken.stderr).toBe('');
  expect(broken.status).toBe(1);
  expect(broken.stdout).toContain('::error file=clusters/qa-eu-1.yaml,line=');

  const diff = run20(join(bin, 'gitops-config'), ['diff', '.', 'HEAD~1', 'HEAD'], configRepo);
  expect(diff.stderr).toBe('');
  expect(diff.status).toBe(0);
  expect(diff.stdout).toBe(runCli(['diff', '.', 'HEAD~1', 'HEAD'], { cwd: configRepo }).stdout);

  const inputs = spawnSync(
    join(bin, 'gitops-config'),
    ['inputs', configRepo, 'prod-eu-1.k8s.example.com', 'namespaces'],
    { env: node20Env() },
  );
  expect(inputs.status).toBe(0);
  expect(
    inputs.stdout.equals(runCli(['inputs', configRepo, 'prod-eu-1.k8s.example.com', 'namespaces']).stdoutBytes),
  ).toBe(true);

  // What the command loads: none of the server's packages, among them better-sqlite3 (a
  // native addon that needs Node 22) and chokidar (Node 22.22); `yaml` (plain JavaScript, Node
  // 14.6 and later) edits rollout files keeping their comments.
  const graph = moduleGraph(join(installed, 'dist', 'src', 'tools', 'cli.js'));
  expect(graph.packages.filter((name) => !name.startsWith('node:'))).toEqual([
    'ajv',
    'commander',
    'isomorphic-git',
    'js-yaml',
    'yaml',
  ]);
  // Nor JavaScript that Node 20 lacks (the build's target and lib are ES2023; these are Node's own).
  for (const file of graph.files) {
    const text = readFileSync(file, 'utf8');
    for (const api of [
      /\bgetBuiltinModule\b/,
      /\bfs\.glob\b/,
      /\bfromAsync\b/,
      /\bwithResolvers\b/,
      /\bgroupBy\b/,
      /\bwith\s*\{\s*type:/,
    ]) {
      expect(api.test(text), `${file} uses ${api}`).toBe(false);
    }
  }
}

describe('installed from a tarball made by npm pack', () => {
  it(
    'installs on Node 20 and runs with npx gitops-config',
    () => {
      // Packing runs the prepare script (the build) in the clone, with this checkout's
      // dependencies: a packed tarball holds dist/ and no TypeScript source.
      symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
      const packed = execFileSync('npm', ['pack', '--pack-destination', work], {
        cwd: clone,
        env: cleanEnv(),
        encoding: 'utf8',
      });
      // Only the tarball's name on stdout, the build's output elsewhere (.npmrc): pre-commit
      // reads that name when it installs this repository as a hook.
      expect(packed).toBe(`gitops-config-api-${VERSION}.tgz\n`);
      const tarball = join(work, packed.trim());
      const listing = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).split('\n');
      expect(listing).toContain('package/dist/src/tools/cli.js');
      expect(listing.filter((path) => path.endsWith('.ts'))).toEqual([]);

      const consumer = join(work, 'from-tarball');
      installInto(consumer, tarball);
      expectWorkingInstall(consumer);
    },
    INSTALL_TIMEOUT,
  );
});

describe('installed from a Git URL pinned to a tag', () => {
  it(
    'is built by npm while it installs, on Node 20, and runs with npx gitops-config',
    () => {
      // A clone without node_modules or dist/, as npm fetches it.
      const fresh = join(work, 'gitops-config-api.git');
      git(work, 'clone', '-q', '--bare', clone, fresh);
      const consumer = join(work, 'from-git');
      installInto(consumer, `git+file://${fresh}#v0.0.0-test`);
      expectWorkingInstall(consumer);
    },
    INSTALL_TIMEOUT,
  );
});

describe('the pre-commit example, which fetches the tool with npx', () => {
  it(
    'runs its entry as written, the Git URL pointing at this repository',
    () => {
      const config = load(readFileSync(join(ROOT, 'docs', 'examples', '.pre-commit-config.yaml'), 'utf8')) as {
        repos: { hooks: { entry: string }[] }[];
      };
      const entry = config.repos[0].hooks[0].entry;
      const url = /--package=(git\+https:\/\/\S+\.git#v[\d.]+)/.exec(entry)?.[1];
      expect(url).toBeDefined();
      const fresh = join(work, 'for-npx.git');
      git(work, 'clone', '-q', '--bare', clone, fresh);
      const command = entry.replace(url!, `git+file://${fresh}#v0.0.0-test`);
      // As pre-commit runs it: from the top of the config repo, the files not passed.
      const good = run20('bash', ['-c', command], configRepo);
      expect(good.status, good.stderr).toBe(0);
      expect(good.stdout).toBe(runCli(['validate', configRepo]).stdout);
      const bad = run20('bash', ['-c', command], brokenRepo);
      expect(bad.status).toBe(1);
      expect(bad.stdout.split('\n')[0]).toBe(
        'clusters/qa-eu-1.yaml:7:14: error: environment: must be one of: dev, qa, uat, prod',
      );
    },
    INSTALL_TIMEOUT,
  );
});
