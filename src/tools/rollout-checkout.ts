// `gitops-config rollout <action> <id>` without --server: the action edits the rollout's file
// in a checkout of the config repo (and, for complete, the catalog entry's), for a person to
// commit and propose in a pull request — how a read-only deployment moves a rollout. The
// change is the domain's (domain/rollouts/rollout-actions.ts), the same the service makes; the
// files are edited in place (domain/repo-layout/record-file-edit.ts), so comments, key order
// and the defaults a file leaves out stay as they were and the diff shows only what changed.
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { editRecordFileText } from '../domain/repo-layout/record-file-edit.ts';
import { type RolloutAction, rolloutAction, type RolloutChange } from '../domain/rollouts/rollout-actions.ts';
import { planRollout, type RolloutPlan } from '../domain/rollouts/rollout-plan.ts';
import { count, listed } from '../domain/rollouts/rollout-words.ts';
import { renameFlushed, syncDirectory, writeFlushedFile } from '../store/git/files/flushed-file.ts';
import { RecordFileLoader } from '../store/record-files/record-file-loader.ts';
import { readWorkingTree } from '../store/record-files/working-tree.ts';
import type { CliIo } from './cli-io.ts';
import { EXIT_OK, EXIT_PROBLEMS } from './exit-codes.ts';
import { type RevisionReport, revisionReport } from './revision-report.ts';
import { checkoutGate, refused } from './rollout-gate.ts';
import { NotAConfigRepoError } from './validate.ts';

export async function actInCheckout(
  dir: string,
  id: string,
  action: RolloutAction,
  force: boolean,
  io: CliIo,
): Promise<number> {
  const files = await readWorkingTree(dir);
  if (files.length === 0) {
    throw new NotAConfigRepoError(`${dir} holds no record files; is it the config repo? (--repo names it)`);
  }
  const report = await revisionReport(new RecordFileLoader(), files, 'working tree');
  const rollout = report.snapshot.rollouts.get(id);
  if (rollout === undefined) return unknown(report, id, io);
  const plan = planRollout(rollout, report.snapshot.clusters);
  if (action.kind === 'advance' && !force) {
    const gate = checkoutGate(plan);
    if (!gate.pass) {
      io.stderr(`gitops-config: ${gate.why}\n`);
      return EXIT_PROBLEMS;
    }
    if (gate.note !== undefined) io.stderr(`note: ${gate.note}\n`);
  }
  const result = rolloutAction(action, { plan, entry: report.snapshot.platform_components.get(rollout.component) });
  if (!result.ok) return refused(result.refusal, io);
  const edited = await writeChange(dir, report, result.change);
  io.stdout(summary(plan, action, result.change, edited, relative(io.cwd, dir) || '.'));
  return EXIT_OK;
}

function unknown(report: RevisionReport, id: string, io: CliIo): number {
  const name = `rollouts/${id}`;
  if (report.failed.has(name)) {
    io.stderr(`gitops-config: ${name}.yaml does not load; fix it first (gitops-config validate names its problems)\n`);
    return EXIT_PROBLEMS;
  }
  const ids = [...report.snapshot.rollouts.keys()].sort();
  const here = ids.length === 0 ? 'there is none' : `there are ${listed(ids, 20)}`;
  io.stderr(`gitops-config: no rollout "${id}" in this config repo (no ${name}.yaml; ${here})\n`);
  return EXIT_PROBLEMS;
}

/** Applies the change set's writes to the files of the checkout; the files changed, as "path" or "path (deleted)". */
async function writeChange(dir: string, report: RevisionReport, change: RolloutChange): Promise<string[]> {
  const edited: string[] = [];
  for (const write of change.writes) {
    const path = report.sources.get(`${write.collection}/${write.id}`) ?? `${write.collection}/${write.id}.yaml`;
    const file = join(dir, path);
    if (write.op === 'delete') {
      rmSync(file);
      await syncDirectory(dirname(file));
      edited.push(`${path} (deleted)`);
      continue;
    }
    const record = write.op === 'replace' ? write.record : change.rollout!;
    await replaceFile(file, editRecordFileText(write.collection, readFileSync(file, 'utf8'), record));
    edited.push(path);
  }
  return edited;
}

/** The new text under a temporary name beside the file, flushed, then renamed over it. */
async function replaceFile(file: string, text: string): Promise<void> {
  const temporary = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  await writeFlushedFile(temporary, text);
  await renameFlushed(temporary, file);
}

function summary(
  plan: RolloutPlan,
  action: RolloutAction,
  change: RolloutChange,
  edited: string[],
  repo: string,
): string {
  const lines = edited.map((path) => `edited ${path}`);
  const { rollout, steps } = plan;
  if (action.kind === 'advance') {
    const next = steps[rollout.released];
    const clusters = count(next.members.length, 'cluster');
    lines.push(`step ${next.step} of ${steps.length} (wave ${next.wave}, ${clusters}): ${listed(next.members, 20)}`);
  }
  if (action.kind === 'rollback') {
    const back = steps.slice(action.step, rollout.released).flatMap((s) => s.members);
    lines.push(`back to the catalog's answer: ${count(back.length, 'cluster')}: ${listed(back, 20)}`);
  }
  lines.push(`commit message: ${change.message}`);
  lines.push(`next: \`gitops-config diff ${repo} HEAD\` shows the answers it moves; commit it and open a pull request`);
  return `${lines.join('\n')}\n`;
}
