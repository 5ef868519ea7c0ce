// `gitops-config rollout <action> <id>` in a checkout (no --server): each action edits the
// rollout's file so that only what it changes differs — comments, the id left to the file
// name, the defaults left out and the flow lists stay byte for byte — and the edited tree
// passes validate. What the record alone shows refuses an advance (paused, a wave waiting for
// approval) unless --force; an unknown id, a wave that does not exist, a step out of range and
// a rollout whose steps are all released are clear errors with exit 1; a wrong command line 2.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { load } from 'js-yaml';
import { git, makeConfigRepo } from '../helpers/git-fixture.ts';
import { runTool } from '../helpers/run-tool.ts';
import { CATALOG, ROLLED } from '../helpers/simulated-fleet.ts';
import { ROLLOUT_ID, ROLLOUT_PATH, rolloutRepoFiles, rolloutText, SET, STEP_2 } from '../fixtures/rollout-checkout.ts';

function repo(text = rolloutText()): string {
  return makeConfigRepo(rolloutRepoFiles(text));
}

const fileOf = (dir: string, path = ROLLOUT_PATH) => readFileSync(join(dir, path), 'utf8');

async function rollout(dir: string, ...args: string[]) {
  return runTool(['rollout', ...args], { cwd: dir });
}

describe('gitops-config rollout <action> in a checkout', () => {
  it('advance raises released by one and changes nothing else in the file', async () => {
    const dir = repo();
    const result = await rollout(dir, 'advance', ROLLOUT_ID);
    expect(result.status, result.stderr).toBe(0);
    expect(fileOf(dir)).toBe(rolloutText({ released: 2 }));
    expect(git(dir, 'diff', '--numstat')).toBe(`1\t1\t${ROLLOUT_PATH}`);
    expect(result.lines).toEqual([
      `edited ${ROLLOUT_PATH}`,
      `step 2 of 4 (wave non-prod, 17 clusters): ${STEP_2.slice(0, 20).join(', ')}`,
      'commit message: rollout kps-67-5: release step 2 (wave non-prod, 17 clusters)',
      'next: `gitops-config diff . HEAD` shows the answers it moves; commit it and open a pull request',
    ]);
    // It cannot see the fleet, and says so.
    expect(result.stderr).toMatch(
      /^note: a checkout does not show the fleet: whether step 1 is done and its soak passed/,
    );
    const validate = await runTool(['validate'], { cwd: dir });
    expect(validate.status, validate.stdout).toBe(0);
    // The diff lists exactly the clusters of step 2.
    const diff = await runTool(['diff', '.', 'HEAD', '--format', 'json'], { cwd: dir });
    expect(
      JSON.parse(diff.stdout)
        .clusters.map((c: { id: string }) => c.id)
        .sort(),
    ).toEqual(STEP_2);
  });

  it('finds the config repo from a folder below it, or where --repo says', async () => {
    const dir = repo();
    const below = await runTool(['rollout', 'pause', ROLLOUT_ID], { cwd: join(dir, 'clusters') });
    expect(below.status, below.stderr).toBe(0);
    const elsewhere = join(dir, '..');
    const named = await runTool(['rollout', 'resume', ROLLOUT_ID, '--repo', dir], { cwd: elsewhere });
    expect(named.status, named.stderr).toBe(0);
    // The file spells the field it was given, after the others.
    expect(fileOf(dir)).toBe(`${rolloutText()}paused: false\n`);
  });

  it('refuses an advance the record shows is not due, unless --force', async () => {
    const paused = repo(rolloutText({ paused: true }));
    const refused = await rollout(paused, 'advance', ROLLOUT_ID);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe(
      'gitops-config: rollout kps-67-5 is paused: resume it first (gitops-config rollout resume kps-67-5), or add ' +
        '--force to release it anyway\n',
    );
    expect(fileOf(paused)).toBe(rolloutText({ paused: true }));
    const forced = await rollout(paused, 'advance', ROLLOUT_ID, '--force');
    expect(forced.status, forced.stderr).toBe(0);
    expect(fileOf(paused)).toBe(rolloutText({ paused: true, released: 2 }));

    const waiting = repo(rolloutText({ released: 2 }));
    const unapproved = await rollout(waiting, 'advance', ROLLOUT_ID);
    expect(unapproved.status).toBe(1);
    expect(unapproved.stderr).toContain(
      'step 3 opens wave prod, which waits for approval: approve it first (gitops-config rollout approve kps-67-5 ' +
        'prod)',
    );
    const approved = await rollout(waiting, 'approve', ROLLOUT_ID, 'prod');
    expect(approved.status, approved.stderr).toBe(0);
    expect(approved.lines.at(-2)).toBe('commit message: rollout kps-67-5: approve wave prod');
    const text = fileOf(waiting);
    expect(load(text)).toMatchObject({ approved: ['prod'], released: 2 });
    expect(text.replace(/^approved:.*\n(?:\s+- .*\n)*/m, '')).toBe(rolloutText({ released: 2 }));
    const advanced = await rollout(waiting, 'advance', ROLLOUT_ID);
    expect(advanced.status, advanced.stderr).toBe(0);
    expect(load(fileOf(waiting))).toMatchObject({ released: 3 });
  });

  it('pause, resume and rollback edit their fields; a repeat changes nothing and says so', async () => {
    const dir = repo(rolloutText({ released: 3, approved: '[prod]' }));
    expect((await rollout(dir, 'pause', ROLLOUT_ID)).status).toBe(0);
    expect(fileOf(dir)).toBe(rolloutText({ released: 3, approved: '[prod]', paused: true }));
    const again = await rollout(dir, 'pause', ROLLOUT_ID);
    expect(again.status).toBe(0);
    expect(again.stderr).toBe('nothing to change: rollout kps-67-5 is paused already\n');
    expect((await rollout(dir, 'resume', ROLLOUT_ID)).status).toBe(0);
    expect(load(fileOf(dir))).toMatchObject({ paused: false, released: 3 });

    const back = await rollout(dir, 'rollback', ROLLOUT_ID, '--to', '1');
    expect(back.status, back.stderr).toBe(0);
    expect(back.lines).toContain(
      `back to the catalog's answer: 20 clusters: ${[...STEP_2, 'prod-eu-1', 'prod-eu-2', 'prod-eu-3'].join(', ')}`,
    );
    expect(load(fileOf(dir))).toMatchObject({ released: 1, paused: true });
    expect(fileOf(dir)).toContain('released: 1  # steps out so far\n');
    const all = await rollout(dir, 'rollback', ROLLOUT_ID);
    expect(all.status, all.stderr).toBe(0);
    expect(load(fileOf(dir))).toMatchObject({ released: 0, paused: true });
    expect((await runTool(['validate'], { cwd: dir })).status).toBe(0);
  });

  it('complete folds set into the catalog entry and removes the rollout, once every step is released', async () => {
    const dir = repo(rolloutText({ released: 2 }));
    const early = await rollout(dir, 'complete', ROLLOUT_ID);
    expect(early.status).toBe(1);
    expect(early.stderr).toContain(
      'steps 3 to 4 are not released: completing rollout kps-67-5 now changes the answers of 6 clusters at once ' +
        '(force it to do so)',
    );
    expect(existsSync(join(dir, ROLLOUT_PATH))).toBe(true);

    const entryPath = `platform_components/${ROLLED}.yaml`;
    const done = repo(rolloutText({ released: 4, approved: '[prod]' }));
    const before = fileOf(done, entryPath);
    const result = await rollout(done, 'complete', ROLLOUT_ID);
    expect(result.status, result.stderr).toBe(0);
    expect(result.lines.slice(0, 2)).toEqual([`edited ${entryPath}`, `edited ${ROLLOUT_PATH} (deleted)`]);
    expect(existsSync(join(done, ROLLOUT_PATH))).toBe(false);
    const entry = CATALOG.find((c) => c.id === ROLLED)!;
    expect(fileOf(done, entryPath)).toBe(
      before
        .replace(`component_version: ${entry.component_version}`, `component_version: ${SET.component_version}`)
        .replace(`oci_tag: ${entry.oci_tag}`, `oci_tag: ${SET.oci_tag}`),
    );
    expect((await runTool(['validate'], { cwd: done })).status).toBe(0);
    // No cluster's answer changes: every one of them had `set` already.
    const diff = await runTool(['diff', '.', 'HEAD', '--format', 'json'], { cwd: done });
    expect(JSON.parse(diff.stdout).summary.clusters_changed).toBe(0);

    const forced = await rollout(dir, 'complete', ROLLOUT_ID, '--force');
    expect(forced.status, forced.stderr).toBe(0);
    expect(existsSync(join(dir, ROLLOUT_PATH))).toBe(false);
  });

  it('names what is wrong: an unknown id, a wave, a step out of range, nothing left to release (exit 1)', async () => {
    const dir = repo(rolloutText({ released: 4, approved: '[prod]' }));
    const cases: [string[], string][] = [
      [
        ['advance', 'nope'],
        'gitops-config: no rollout "nope" in this config repo (no rollouts/nope.yaml; there are kps-67-5)\n',
      ],
      [['advance', ROLLOUT_ID], 'gitops-config: every step of rollout kps-67-5 is released already (step 4 of 4)\n'],
      [
        ['approve', ROLLOUT_ID, 'qa'],
        'gitops-config: rollout kps-67-5 has no wave "qa" (its waves: canary, non-prod, prod)\n',
      ],
      [
        ['approve', ROLLOUT_ID, 'canary'],
        'gitops-config: wave canary of rollout kps-67-5 does not wait for approval\n',
      ],
      [
        ['rollback', ROLLOUT_ID, '--to', '4'],
        'gitops-config: rollout kps-67-5 cannot roll back to 4: a step from 0 to 3\n',
      ],
    ];
    for (const [args, message] of cases) {
      const result = await rollout(dir, ...args);
      expect(result.status, args.join(' ')).toBe(1);
      expect(result.stderr, args.join(' ')).toBe(message);
    }
    expect(fileOf(dir)).toBe(rolloutText({ released: 4, approved: '[prod]' }));
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });

  it('exits 2 for a wrong command line, touching nothing', async () => {
    const dir = repo();
    const empty = join(dir, '..', 'empty');
    mkdirSync(empty, { recursive: true });
    const cases: [string[], RegExp][] = [
      [['rollback', ROLLOUT_ID, '--to', 'one'], /--to one is not a step number/],
      [['rollback', ROLLOUT_ID, '--to', '-1'], /--to -1 is not a step number|unknown option/],
      [['advance', ROLLOUT_ID, '--preview'], /--preview, --dry-run and --token-file go with --server/],
      [['advance'], /missing required argument 'id'/],
      [['approve', ROLLOUT_ID], /missing required argument 'wave'/],
      [['advance', ROLLOUT_ID, '--repo', 'nowhere'], /nowhere is not a directory/],
      [['advance', ROLLOUT_ID, '--repo', empty], /holds no record files/],
      [['advance', ROLLOUT_ID, '--repo', dir, '--server', 'http://127.0.0.1:9'], /--repo and --server name two places/],
    ];
    for (const [args, message] of cases) {
      const result = await rollout(dir, ...args);
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(message);
    }
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });
});
