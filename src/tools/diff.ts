// `gitops-config diff <repo-dir> <base-rev> [<head-rev>]`: which clusters' responses a change
// really changes. Both revisions are read from Git and loaded with the server's code, judged
// as the server would judge the head while serving the base, and compared by the domain's
// one report of a change (domain/revision-diff.ts), which the server's preview answers with
// too; problems get their file:line:col here, from the files' text.
import type { ReceiverHosts } from '../domain/receiver-hosts.ts';
import { judge } from '../domain/judge.ts';
import { isError, withSources } from '../domain/problem.ts';
import type { DiffReport } from '../domain/diff-report.ts';
import { revisionDiff } from '../domain/revision-diff.ts';
import { ObjectReader } from '../store/git/files/object-reader.ts';
import { commitAllowsShrink } from '../store/git/history.ts';
import { headCommit as headOf } from '../store/git/repository.ts';
import { RecordFileLoader } from '../store/record-files/record-file-loader.ts';
import { locateInFiles, revisionReport } from './revision-report.ts';
import { commitFiles, historyOf, resolveRevision, type RevisionFiles, workingTreeFiles } from './revisions.ts';

export interface DiffRevisions {
  base: RevisionFiles;
  head: RevisionFiles;
  /** The head's newest commit says `Gitops-Allow-Shrink: yes`. */
  headAllowsShrink: boolean;
}

/** Reads both revisions; head undefined means the working tree. */
export async function readRevisions(dir: string, baseRev: string, headRev: string | undefined): Promise<DiffRevisions> {
  const cache = {};
  const repo = historyOf(dir, baseRev);
  const baseCommit = await resolveRevision(repo, baseRev, cache);
  const headCommit = headRev === undefined ? undefined : await resolveRevision(repo, headRev, cache);
  // Blobs are addressed by content: a working-tree file whose Git blob id matches a blob of a
  // commit holds exactly that blob's text. Most files are the same in both revisions and in
  // the checkout, so only the files a change touches are read (and inflated) from the object
  // store.
  const workingTree = await workingTreeFiles(dir);
  const known = new Map(workingTree.files.flatMap((f) => (f.text === undefined ? [] : [[f.blobId, f.text] as const])));
  const reader = new ObjectReader(repo.root, cache);
  const head =
    headCommit === undefined ? workingTree : await commitFiles(repo, headRev!, headCommit, cache, known, reader);
  for (const f of head.files) if (f.text !== undefined) known.set(f.blobId, f.text);
  const base = await commitFiles(repo, baseRev, baseCommit, cache, known, reader);
  const newest = headCommit ?? (await headOf(repo.root));
  return { base, head, headAllowsShrink: newest !== undefined && (await commitAllowsShrink(repo.root, newest, cache)) };
}

export async function diffRevisions(
  { base, head, headAllowsShrink }: DiffRevisions,
  receiverHosts?: ReceiverHosts,
): Promise<DiffReport> {
  // One loader: the head's files that the base has too are parsed once.
  const loader = new RecordFileLoader();
  const before = await revisionReport(loader, base.files, base.commit ?? 'base');
  const after = await revisionReport(loader, head.files, head.commit ?? 'working-tree');
  // As the server would judge the head while it serves the base.
  const judged = judge(
    { snapshot: after.snapshot, problems: after.loadProblems, allowShrink: headAllowsShrink },
    before.snapshot,
    { receiverHosts },
  );
  const problems = await locateInFiles(withSources(judged.problems, after.sources), head.files);
  return revisionDiff(before.snapshot, after.snapshot, {
    base: {
      label: base.label,
      commit: base.commit ?? null,
      problems: await locateInFiles(before.loadProblems, base.files),
    },
    head: { label: head.label, commit: head.commit ?? null },
    judgement: { ...judged, problems, blocking: problems.filter(isError) },
  });
}
