// A revision as a tool reports on it: its record files turned into a snapshot with the
// server's own loader and snapshot code, keeping what a tool needs to report: the problems
// that make the server refuse the revision, and which records failed to load.
import { type Problem, recordName, withSources } from '../domain/problem.ts';
import { filesToLocate, locateProblems } from '../domain/repo-layout/problem-positions.ts';
import { createSnapshot, type Snapshot } from '../domain/snapshot.ts';
import type { RecordFileEntry } from '../store/record-files/record-file-entry.ts';
import type { RecordFileLoader } from '../store/record-files/record-file-loader.ts';

export interface RevisionReport {
  files: readonly RecordFileEntry[];
  /** Problems the server refuses a revision for when it loads it: files, schema, ids, duplicates. */
  loadProblems: Problem[];
  /** The snapshot; when loadProblems is not empty, the usable part of it. */
  snapshot: Snapshot;
  /** "collection/id" -> the file that defines it. */
  sources: ReadonlyMap<string, string>;
  /** "collection/id" of the records whose file failed to load. */
  failed: ReadonlySet<string>;
}

export async function revisionReport(
  loader: RecordFileLoader,
  files: readonly RecordFileEntry[],
  revision: string,
): Promise<RevisionReport> {
  const loaded = await loader.load(files, revision);
  const built = createSnapshot(loaded.records, revision);
  const failed = new Set<string>();
  for (const p of loaded.problems) {
    if (p.at.record && !loaded.sources.has(recordName(p.at.record))) failed.add(recordName(p.at.record));
  }
  return {
    files,
    loadProblems: withSources([...loaded.problems, ...(built.ok ? [] : built.problems)], loaded.sources),
    snapshot: built.ok ? built.snapshot : built.partial,
    sources: loaded.sources,
    failed,
  };
}

/**
 * The problems with the line and column of each in its file, as `validate` prints them: the
 * text of each file a problem names is read (only those); a file that has none (one refused
 * for what it is) puts its problems at 1:1.
 */
export async function locateInFiles(
  problems: readonly Problem[],
  files: readonly RecordFileEntry[],
): Promise<Problem[]> {
  const byPath = new Map(files.map((f) => [f.path, f]));
  const texts = new Map<string, string>();
  for (const path of filesToLocate(problems)) {
    const file = byPath.get(path);
    const text = file && (file.text ?? (await file.read?.()));
    if (text !== undefined) texts.set(path, text);
  }
  return locateProblems(problems, texts, { withoutText: 'first-line' });
}
