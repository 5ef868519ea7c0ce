// The CI examples a config repo copies run the tool the way they are written: every `run:` step
// of docs/examples/validate-config.yaml (but the install, which test/tools/install.test.ts covers)
// runs in bash as GitHub runs it, with the workflow's expressions given real values, in a
// checkout made as actions/checkout makes one for a pull request (the merge commit of its head
// into the base, fetched at depth 2); and the `entry:` of each pre-commit hook
// (docs/examples/.pre-commit-config.yaml, .pre-commit-hooks.yaml) runs from the top of a config
// repo, as pre-commit runs it. `gitops-config` is this checkout's bin.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitAll, git, removeDir, tempDir } from '../helpers/git-fixture.ts';
import { BIN, cleanEnv } from '../helpers/tools.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const EXAMPLE = join(ROOT, 'config-repo-example');
const WORKFLOW = join(ROOT, 'docs', 'examples', 'validate-config.yaml');
const PRE_COMMIT_CONFIG = join(ROOT, 'docs', 'examples', '.pre-commit-config.yaml');
const PRE_COMMIT_HOOKS = join(ROOT, '.pre-commit-hooks.yaml');

interface Step {
  name?: string;
  if?: string;
  run?: string;
  uses?: string;
}
interface Workflow {
  env: Record<string, string>;
  jobs: Record<string, { steps: Step[] }>;
}
interface Hook {
  id: string;
  entry: string;
  args?: string[];
  language: string;
  pass_filenames?: boolean;
  files?: string;
}

const INVOKES_TOOL = /(^|[\s;&|(])gitops-config\s/m;

const dirs: string[] = [];
let toolPath: string;

beforeAll(() => {
  // `gitops-config` on PATH, as the install step (or pre-commit's environment) puts it there.
  toolPath = tempDir('tool-bin-');
  dirs.push(toolPath);
  symlinkSync(BIN, join(toolPath, 'gitops-config'));
});

afterAll(() => dirs.forEach(removeDir));

function editFile(dir: string, path: string, edit: (text: string) => string): void {
  const file = join(dir, path);
  writeFileSync(file, edit(readFileSync(file, 'utf8')));
}

/**
 * A GitHub remote ("origin") holding main (the example config), a pull request's branch changed
 * by `change`, and refs/pull/1/merge, its merge into main; and the runner's workspace, made as
 * actions/checkout makes it: the merge commit fetched at depth 2 and checked out detached.
 */
function pullRequestCheckout(change: (dir: string) => void): string {
  const base = tempDir('pr-');
  dirs.push(base);
  const author = join(base, 'author');
  cpSync(EXAMPLE, author, { recursive: true });
  git(author, 'init', '-q', '-b', 'main');
  commitAll(author, 'fleet config');
  git(author, 'checkout', '-q', '-b', 'change');
  change(author);
  commitAll(author, 'the change under review');
  git(author, 'checkout', '-q', 'main');
  editFile(author, 'namespaces/sandbox.yaml', (text) => `${text}# meanwhile on main\n`);
  commitAll(author, 'meanwhile on main');
  git(author, 'checkout', '-q', '--detach');
  git(
    author,
    '-c',
    'user.name=GitHub',
    '-c',
    'user.email=noreply@github.com',
    'merge',
    '-q',
    '--no-ff',
    '-m',
    'Merge change into main',
    'change',
  );
  git(author, 'update-ref', 'refs/pull/1/merge', 'HEAD');
  const origin = join(base, 'origin.git');
  git(base, 'clone', '-q', '--mirror', author, origin);
  const workspace = join(base, 'workspace');
  mkdirSync(workspace);
  git(workspace, 'init', '-q');
  git(workspace, 'remote', 'add', 'origin', `file://${origin}`);
  git(workspace, 'fetch', '-q', '--no-tags', '--depth=2', 'origin', '+refs/pull/1/merge:refs/remotes/pull/1/merge');
  git(workspace, 'checkout', '-q', '--detach', 'refs/remotes/pull/1/merge');
  return workspace;
}

/** The steps of the workflow that run for `event` and are shell commands, the install left out. */
function runSteps(event: 'pull_request' | 'push'): Step[] {
  const workflow = load(readFileSync(WORKFLOW, 'utf8')) as Workflow;
  const other = event === 'pull_request' ? 'push' : 'pull_request';
  return workflow.jobs.validate.steps.filter(
    (step) =>
      step.run !== undefined &&
      !step.run.includes('npm install') &&
      !(step.if ?? '').includes(`github.event_name == '${other}'`),
  );
}

interface StepResult {
  name: string;
  run: string;
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the steps one after another in `workspace`, with bash as GitHub runs a `run:` step. */
function runWorkflow(workspace: string, event: 'pull_request' | 'push'): { steps: StepResult[]; summary: string } {
  const workflow = load(readFileSync(WORKFLOW, 'utf8')) as Workflow;
  const runnerTemp = join(workspace, '..', 'runner-temp');
  mkdirSync(runnerTemp, { recursive: true });
  const summaryFile = join(runnerTemp, 'step-summary.md');
  writeFileSync(summaryFile, '');
  const env = cleanEnv({
    ...workflow.env,
    PATH: `${toolPath}${delimiter}${process.env.PATH}`,
    GITHUB_WORKSPACE: workspace,
    GITHUB_EVENT_NAME: event,
    GITHUB_BASE_REF: event === 'pull_request' ? 'main' : '',
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_PATH: join(runnerTemp, 'path'),
    RUNNER_TEMP: runnerTemp,
  });
  const steps = runSteps(event).map((step): StepResult => {
    const run = step.run!.replaceAll('${{ github.base_ref }}', 'main');
    expect(run, `${step.name}: an expression left to substitute`).not.toContain('${{');
    const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', run], {
      cwd: workspace,
      env,
      encoding: 'utf8',
    });
    return { name: step.name ?? '', run, status: result.status, stdout: result.stdout, stderr: result.stderr };
  });
  return { steps, summary: readFileSync(summaryFile, 'utf8') };
}

function step(results: StepResult[], name: string): StepResult {
  const found = results.find((r) => r.name === name);
  if (!found) throw new Error(`no step "${name}" ran: ${results.map((r) => r.name).join(', ')}`);
  return found;
}

describe('docs/examples/validate-config.yaml', () => {
  it('runs the tool in its steps (and names no other tool)', () => {
    const invoking = runSteps('pull_request').filter((s) => INVOKES_TOOL.test(s.run!));
    expect(invoking.map((s) => s.name)).toEqual([
      'Validate (as the service will judge it)',
      'Preview what the clusters will receive',
    ]);
    expect(
      runSteps('push')
        .filter((s) => INVOKES_TOOL.test(s.run!))
        .map((s) => s.name),
    ).toEqual(['Validate the pushed commit']);
    const workflow = load(readFileSync(WORKFLOW, 'utf8')) as Workflow;
    expect(workflow.env.GITOPS_CONFIG_TOOL).toMatch(/^git\+https:\/\/.+\.git#v\d+\.\d+\.\d+$/);
    const setupNode = workflow.jobs.validate.steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
    expect(Number((setupNode as { with: { 'node-version': number } }).with['node-version'])).toBeGreaterThanOrEqual(20);
  });

  it('on a good pull request: validate passes against origin/main, diff prints and summarises the change', () => {
    const workspace = pullRequestCheckout((dir) =>
      editFile(dir, 'platform_components/podinfo.yaml', (text) => text.replaceAll('"6.7.1"', '"6.7.2"')),
    );
    const { steps, summary } = runWorkflow(workspace, 'pull_request');
    expect(step(steps, 'Fetch the base branch').status).toBe(0);
    const validate = step(steps, 'Validate (as the service will judge it)');
    expect(validate.stderr).toBe('');
    expect(validate.status).toBe(0);
    expect(validate.stdout).toMatch(
      /^valid: no problems \(20 record files: .*; judged against origin\/main \([0-9a-f]{12}\)\)\n$/,
    );
    const diff = step(steps, 'Preview what the clusters will receive');
    expect(diff.status).toBe(0);
    expect(diff.stdout).toMatch(/^diff: base origin\/main \([0-9a-f]{12}\) → head HEAD \([0-9a-f]{12}\)\n/);
    expect(diff.stdout).toContain('        source.oci_tag: "6.7.1" → "6.7.2"');
    // The change made on main meanwhile is in both revisions: only the pull request's shows.
    expect(diff.stdout).toContain(
      'Summary: 4 clusters changed (dev 1, qa 1, uat 1, prod 1) of 4; inputs: 0 added, 0 removed, 4 changed',
    );
    expect(summary).toMatch(/^<!-- gitops-config-diff -->\n## Config change preview\n/);
    expect(summary).toContain('**4 clusters of 4 change.**');
  });

  it('on a broken pull request: validate fails with an annotation per problem, diff reports the refusal', () => {
    const workspace = pullRequestCheckout((dir) => {
      editFile(dir, 'clusters/qa-eu-1.yaml', (text) => text.replace('environment: qa', 'environment: staging'));
      editFile(dir, 'clusters/dev-eu-1.yaml', (text) =>
        text.replace('namespaces:\n  - id: sandbox', 'namespaces:\n  - id: sandbox\n  - id: team-gone'),
      );
    });
    const { steps, summary } = runWorkflow(workspace, 'pull_request');
    const validate = step(steps, 'Validate (as the service will judge it)');
    expect(validate.status).toBe(1);
    const annotations = validate.stdout.split('\n').filter((line) => line.startsWith('::'));
    expect(annotations).toHaveLength(2);
    expect(annotations[0]).toMatch(
      /^::error file=clusters\/dev-eu-1\.yaml,line=\d+,col=\d+,title=gitops-config error::namespaces\[1\]\.id: references namespaces "team-gone", which does not exist$/,
    );
    expect(annotations[1]).toMatch(
      /^::error file=clusters\/qa-eu-1\.yaml,line=\d+,col=14,title=gitops-config error::environment: must be one of: dev, qa, uat, prod$/,
    );
    const diff = step(steps, 'Preview what the clusters will receive');
    expect(diff.status).toBe(0); // `|| true`: the validate step fails the check
    expect(diff.stdout).toContain(
      '!! REFUSED: the server, serving the base, would refuse the head and keep serving the base:',
    );
    expect(diff.stderr).toContain('would refuse HEAD (2 problem(s))');
    expect(summary).toContain('> **The server would refuse this revision** and keep serving the base:');
  });

  it('on a push to main: validates the pushed commit against the one before it', () => {
    const workspace = pullRequestCheckout((dir) =>
      editFile(dir, 'platform_components/podinfo.yaml', (text) => text.replaceAll('"6.7.1"', '"6.7.2"')),
    );
    const { steps } = runWorkflow(workspace, 'push');
    expect(steps.map((s) => s.name)).toEqual(['Validate the pushed commit']);
    expect(steps[0].status).toBe(0);
    expect(steps[0].stdout).toMatch(/^valid: no problems \(.*; judged against HEAD\^1 \([0-9a-f]{12}\)\)\n$/);
  });
});

describe('pre-commit hooks', () => {
  const hooksOf = (file: string): Hook[] => {
    const parsed = load(readFileSync(file, 'utf8')) as Hook[] | { repos: { repo: string; hooks: Hook[] }[] };
    return Array.isArray(parsed) ? parsed : parsed.repos.flatMap((r) => r.hooks);
  };
  /** The local hook fetches the tool with npx (test/tools/install.test.ts runs that part); here the tool is on PATH. */
  const NPX_PREFIX = /^npx --yes --package=git\+https:\/\/\S+\.git#v\d+\.\d+\.\d+ (?=gitops-config )/;

  /**
   * What pre-commit runs for a hook with pass_filenames: false: the entry and its args, from the top of the repository.
   */
  function runHook(hook: Hook, repo: string) {
    const command = [hook.entry.replace(NPX_PREFIX, ''), ...(hook.args ?? [])].join(' ');
    return spawnSync('bash', ['-c', command], {
      cwd: repo,
      env: cleanEnv({ PATH: `${toolPath}${delimiter}${process.env.PATH}` }),
      encoding: 'utf8',
    });
  }

  it.each([
    ['docs/examples/.pre-commit-config.yaml', PRE_COMMIT_CONFIG],
    ['.pre-commit-hooks.yaml', PRE_COMMIT_HOOKS],
  ])('%s: validates the config repo on a commit that changes a record file', (_name, file) => {
    const hooks = hooksOf(file);
    expect(hooks.map((h) => h.id)).toEqual(['gitops-config-validate']);
    const hook = hooks[0];
    if (file === PRE_COMMIT_CONFIG) {
      // Copied as it is: the tool comes pinned to a tag, through npx (Node and npm are all it needs).
      expect(hook.language).toBe('system');
      expect(hook.entry).toMatch(NPX_PREFIX);
    } else {
      // pre-commit installs this repository itself as the hook's package.
      expect(hook.language).toBe('node');
    }
    expect(hook.entry.replace(NPX_PREFIX, '')).toBe('gitops-config validate');
    expect(hook.pass_filenames).toBe(false);
    const files = new RegExp(hook.files!);
    for (const path of [
      'clusters/prod-eu-1.yaml',
      'platform_components/podinfo.yaml',
      'namespaces/sandbox.yml',
      'rolebindings/sre-oncall.yaml',
    ])
      expect(files.test(path), path).toBe(true);
    for (const path of ['README.md', '.github/workflows/validate-config.yaml', 'docs/clusters/x.yaml'])
      expect(files.test(path), path).toBe(false);

    const repo = tempDir('pre-commit-');
    dirs.push(repo);
    cpSync(EXAMPLE, repo, { recursive: true });
    git(repo, 'init', '-q', '-b', 'main');
    const good = runHook(hook, repo);
    expect(good.stderr).toBe('');
    expect(good.status).toBe(0);
    expect(good.stdout).toMatch(/^valid: no problems \(20 record files/);

    editFile(repo, 'clusters/qa-eu-1.yaml', (text) => text.replace('environment: qa', 'environment: staging'));
    const bad = runHook(hook, repo);
    expect(bad.status).toBe(1);
    expect(bad.stdout.split('\n')[0]).toBe(
      'clusters/qa-eu-1.yaml:7:14: error: environment: must be one of: dev, qa, uat, prod',
    );
  });
});
