// The config repo as a folder of a larger Git repository (fleet/config/ here, config-repo-example/
// in this very repository), and commands typed from below the top: revisions are read from the
// repository that holds the folder, each commit's tree at the folder's path.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitAll, git, removeDir, tempDir } from '../helpers/git-fixture.ts';
import { type CliResult, runTool } from '../helpers/run-tool.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const EXAMPLE = join(ROOT, 'config-repo-example');
const PODINFO = 'platform_components/podinfo.yaml';

let top: string;
let config: string;
const dirs: string[] = [];

beforeAll(() => {
  top = tempDir('monorepo-');
  dirs.push(top);
  config = join(top, 'fleet', 'config');
  git(top, 'init', '-q', '-b', 'main');
  writeFileSync(join(top, 'README.md'), 'Infrastructure of the company; the fleet config is in fleet/config/.\n');
  commitAll(top, 'a repository without the config folder yet'); // HEAD~2
  mkdirSync(join(top, 'fleet'));
  cpSync(EXAMPLE, config, { recursive: true });
  commitAll(top, 'the fleet config'); // HEAD~1
  const file = join(config, PODINFO);
  writeFileSync(file, readFileSync(file, 'utf8').replaceAll('"6.7.1"', '"6.7.2"'));
  commitAll(top, 'podinfo 6.7.2'); // HEAD
});

afterAll(() => dirs.forEach(removeDir));

/** The clusters a diff names, and its summary. */
function clustersAndSummary(lines: string[]): string[] {
  return lines.filter((line) => line.startsWith('cluster ') || line.startsWith('Summary:'));
}

describe('diff of a config folder inside a larger repository', () => {
  let fromTop: CliResult;
  beforeAll(async () => {
    fromTop = await runTool(['diff', 'fleet/config', 'HEAD~1', 'HEAD'], { cwd: top });
  });

  it('reads both commits at the folder path, from the top of the repository', async () => {
    expect(fromTop.stderr).toBe('');
    expect(fromTop.status).toBe(0);
    expect(fromTop.lines).toContain('        source.oci_tag: "6.7.1" → "6.7.2"');
    expect(clustersAndSummary(fromTop.lines)).toEqual([
      'cluster dev-eu-1 (dev, dev-eu-1.k8s.example.com)',
      'cluster prod-eu-1 (prod, prod-eu-1.k8s.example.com)',
      'cluster qa-eu-1 (qa, qa-eu-1.k8s.example.com)',
      'cluster uat-us-1 (uat, uat-us-1.k8s.example.com)',
      'Summary: 4 clusters changed (dev 1, qa 1, uat 1, prod 1) of 4; inputs: 0 added, 0 removed, 4 changed',
    ]);
  });

  it('gives the same report typed from inside the folder, and from a folder below it', async () => {
    expect((await runTool(['diff', '.', 'HEAD~1', 'HEAD'], { cwd: config })).stdout).toBe(fromTop.stdout);
    expect((await runTool(['diff', '..', 'HEAD~1', 'HEAD'], { cwd: join(config, 'clusters') })).stdout).toBe(
      fromTop.stdout,
    );
    // The working tree (the same as HEAD) as the head.
    const workingTree = await runTool(['diff', '.', 'HEAD~1'], { cwd: config });
    expect(workingTree.status).toBe(0);
    expect(clustersAndSummary(workingTree.lines)).toEqual(clustersAndSummary(fromTop.lines));
  });

  it('treats a commit without the folder as one without records: every cluster is new', async () => {
    const result = await runTool(['diff', 'fleet/config', 'HEAD~2', 'HEAD'], { cwd: top });
    expect(result.status).toBe(0);
    expect(result.lines.at(-1)).toMatch(
      /^Summary: 4 clusters changed \(dev 1, qa 1, uat 1, prod 1\) of 4; inputs: \d+ added, 0 removed, 0 changed; 4 clusters added$/,
    );
  });
});

describe('validate --base of a config folder inside a larger repository', () => {
  it('judges against the base read at the folder path: a dangling reference the base had is a warning', async () => {
    const file = join(config, 'clusters', 'dev-eu-1.yaml');
    const original = readFileSync(file, 'utf8');
    try {
      // The base commit gets the dangling reference; the working tree keeps it.
      writeFileSync(
        file,
        original.replace('namespaces:\n  - id: sandbox', 'namespaces:\n  - id: sandbox\n  - id: team-gone'),
      );
      commitAll(top, 'a dangling reference');
      const againstHead = await runTool(['validate', '--base', 'HEAD'], { cwd: join(config, 'clusters') });
      expect(againstHead.status).toBe(0);
      expect(againstHead.lines[0]).toMatch(
        /^clusters\/dev-eu-1\.yaml:\d+:\d+: warning: namespaces\[1\]\.id: references namespaces "team-gone", which does not exist$/,
      );
      // A base without the folder did not have it: a new dangling reference is an error.
      const againstEmpty = await runTool(['validate', 'fleet/config', '--base', 'HEAD~3'], { cwd: top });
      expect(againstEmpty.status).toBe(1);
      expect(againstEmpty.lines[0]).toMatch(
        /^clusters\/dev-eu-1\.yaml:\d+:\d+: error: namespaces\[1\]\.id: references namespaces "team-gone"/,
      );
      // GitHub annotations name files from the top of the repository, where GitHub's workspace is.
      const github = await runTool(['validate', '.', '--base', 'HEAD~3', '--format', 'github'], { cwd: config });
      expect(github.lines[0]).toMatch(
        /^::error file=fleet\/config\/clusters\/dev-eu-1\.yaml,line=\d+,col=\d+,title=gitops-config error::/,
      );
    } finally {
      writeFileSync(file, original);
      commitAll(top, 'the dangling reference removed');
    }
  });

  it('validates the config folder above the current one when no folder is named', async () => {
    const result = await runTool(['validate'], { cwd: join(config, 'platform_components') });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe((await runTool(['validate', config])).stdout);
  });

  it('exits 2 for a revision of a folder outside any Git repository, naming it', async () => {
    const plain = tempDir('plain-config-');
    dirs.push(plain);
    cpSync(EXAMPLE, plain, { recursive: true });
    const result = await runTool(['diff', plain, 'HEAD']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('is not a Git repository, nor inside one');
    // Outside a repository nothing marks where the config repo ends: validate looks at the current folder only.
    const below = await runTool(['validate'], { cwd: join(plain, 'clusters') });
    expect(below.status).toBe(2);
    expect(below.stderr).toContain('holds no record files');
  });
});

describe('config-repo-example, a folder of this repository', () => {
  it('is read at its path in this repository', async () => {
    const result = await runTool(['diff', 'config-repo-example', 'HEAD', 'HEAD'], { cwd: ROOT });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.lines.at(-1)).toBe("Summary: no cluster's responses change (4 clusters)");
    expect((await runTool(['validate', 'config-repo-example', '--base', 'HEAD'], { cwd: ROOT })).status).toBe(0);
  });
});
