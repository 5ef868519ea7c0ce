// `gitops-config validate <repo-dir> [--base <rev>]`: the working tree judged as the server
// judges a revision (domain/judge.ts, every rule of src/domain/rules), reported as
// file:line:col lines a person (or GitHub) can jump to. With --base, as the server would
// publish it after <rev>: a dangling reference <rev> already had is a warning, a new one an
// error, and the shrink guard applies (honouring the trailer of HEAD's message). Without it
// there is nothing to tell an old dangling reference from a new one, and the bare command is
// what a config repo's CI runs: every dangling reference is an error, so a deleted folder or
// a typo fails the check. (The server's own first revision skips them instead: it has no
// history, and refusing would leave it nothing to serve.) Rendering: ./validate-render.ts.
import type { ReceiverHosts } from '../domain/receiver-hosts.ts';
import { judge } from '../domain/judge.ts';
import { problem, type Problem, recordName } from '../domain/problem.ts';
import type { Collection } from '../domain/records.ts';
import { commitAllowsShrink } from '../store/git/history.ts';
import { headCommit } from '../store/git/repository.ts';
import { DEFAULT_MAX_RECORD_BYTES } from '../store/record-files/record-file-entry.ts';
import { RecordFileLoader } from '../store/record-files/record-file-loader.ts';
import { ignoredWorkingTreeFiles, readWorkingTree } from '../store/record-files/working-tree.ts';
import { locateInFiles, type RevisionReport, revisionReport } from './revision-report.ts';
import { commitFiles, historyOf, resolveRevision } from './revisions.ts';

export interface ValidationReport {
  /** Sorted by file, line and column; every problem with a severity (warnings count as errors with --strict). */
  problems: Problem[];
  errors: number;
  warnings: number;
  files: number;
  records: Record<Collection, number>;
  /** The revision judged against (--base), as given and as a commit. */
  base?: { label: string; commit: string };
}

export interface ValidateOptions {
  strict?: boolean;
  /** A revision (branch, tag, commit, HEAD~1) the tree is judged against, as the server would. */
  base?: string;
  maxRecordBytes?: number;
  /** RECEIVER_HOSTS, as the server reads it: what a cluster's receiver_url may name. */
  receiverHosts?: ReceiverHosts;
}

export class NotAConfigRepoError extends Error {}

/** Validates the working tree of a config repo directory. */
export async function validateRepo(dir: string, options: ValidateOptions = {}): Promise<ValidationReport> {
  const maxBytes = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
  const files = await readWorkingTree(dir, maxBytes);
  const ignored = await ignoredWorkingTreeFiles(dir);
  if (files.length === 0 && ignored.length === 0) {
    throw new NotAConfigRepoError(
      `${dir} holds no record files (clusters/*.yaml, platform_components/*.yaml, namespaces/*.yaml, ` +
        `rolebindings/*.yaml); is it the config repo?`,
    );
  }
  const cache = {};
  const loader = new RecordFileLoader();
  let base: RevisionReport | undefined;
  let baseCommit: string | undefined;
  let allowShrink = false;
  // Git is read only to judge against a base: the shrink guard applies only then, and it
  // honours the trailer of the newest commit of the repository that holds the folder.
  if (options.base !== undefined) {
    const repo = historyOf(dir, options.base);
    baseCommit = await resolveRevision(repo, options.base, cache);
    base = await revisionReport(
      loader,
      (await commitFiles(repo, options.base, baseCommit, cache, undefined, undefined, maxBytes)).files,
      baseCommit,
    );
    const head = await headCommit(repo.root);
    allowShrink = head !== undefined && (await commitAllowsShrink(repo.root, head, cache));
  }
  const loaded = await revisionReport(loader, files, 'validate');
  const judgement = judge({ snapshot: loaded.snapshot, problems: loaded.loadProblems, allowShrink }, base?.snapshot, {
    danglingWithoutBaseline: 'error',
    receiverHosts: options.receiverHosts,
  });
  const problems: Problem[] = [
    ...judgement.problems,
    ...ignored.map((file) => ({
      ...problem(
        'ignored_file',
        { field: '', file, line: 1, column: 1 },
        'is ignored: record files must end in .yaml or .yml',
      ),
      severity: 'warning' as const,
    })),
  ];
  const located = (await locateInFiles(withFiles(problems, loaded), files)).map((p) =>
    options.strict && p.severity === 'warning' ? { ...p, severity: 'error' as const } : p,
  );
  located.sort(compareProblems);
  return {
    problems: located,
    errors: located.filter((p) => p.severity === 'error').length,
    warnings: located.filter((p) => p.severity === 'warning').length,
    files: files.length,
    records: {
      clusters: loaded.snapshot.clusters.size,
      platform_components: loaded.snapshot.platform_components.size,
      namespaces: loaded.snapshot.namespaces.size,
      rolebindings: loaded.snapshot.rolebindings.size,
      rollouts: loaded.snapshot.rollouts.size,
    },
    ...(options.base !== undefined ? { base: { label: options.base, commit: baseCommit! } } : {}),
  };
}

function withFiles(problems: Problem[], loaded: RevisionReport): Problem[] {
  return problems.map((p) => {
    const file = p.at.record && p.at.file === undefined ? loaded.sources.get(recordName(p.at.record)) : undefined;
    return file === undefined ? p : { ...p, at: { ...p.at, file } };
  });
}

function compareProblems(a: Problem, b: Problem): number {
  const fa = a.at.file ?? '\uffff';
  const fb = b.at.file ?? '\uffff';
  if (fa !== fb) return fa < fb ? -1 : 1;
  return (
    (a.at.line ?? 0) - (b.at.line ?? 0) ||
    (a.at.column ?? 0) - (b.at.column ?? 0) ||
    (a.message < b.message ? -1 : a.message > b.message ? 1 : 0)
  );
}
