// Turns the record files of one revision into a snapshot with the server's own code
// (parseConfigRepo, createSnapshot), keeping everything a tool needs to report on it: the
// problems that make the server refuse the revision, and which records failed to load.
import { attachFiles, type ConfigFile, parseConfigRepo, parseRecordFile, type ParsedRecordFile, recordFileLocation } from '../domain/config-repo.ts';
import type { Problem } from '../domain/problems.ts';
import { COLLECTIONS, type Collection } from '../domain/records.ts';
import { createSnapshot, type Snapshot } from '../domain/snapshot.ts';

export interface LoadedRevision {
  files: ConfigFile[];
  /** Problems the server refuses a revision for: YAML, schema, ids, duplicates. */
  loadProblems: Problem[];
  /** The snapshot; when loadProblems is not empty, the usable part of it. */
  snapshot: Snapshot;
  /** "collection/id" -> the file that defines it. */
  fileOf: Map<string, string>;
  /** Ids (taken from file names) of records whose file failed to load, by collection. */
  failedIds: Record<Collection, Set<string>>;
}

export type RecordFileParser = (file: ConfigFile) => ParsedRecordFile | undefined;

export function loadRevision(files: ConfigFile[], revision: string, parse: RecordFileParser = parseRecordFile): LoadedRevision {
  const failedIds = Object.fromEntries(COLLECTIONS.map((c) => [c, new Set<string>()])) as Record<Collection, Set<string>>;
  const parsed = parseConfigRepo(files, (file) => {
    const result = parse(file);
    if (result && !result.record) failedIds[result.collection].add(recordFileLocation(file.path)!.name);
    return result;
  });
  const built = createSnapshot(parsed.records, revision);
  const snapshotProblems = built.ok ? [] : attachFiles(built.problems, parsed.fileOf);
  return {
    files,
    loadProblems: [...parsed.problems, ...snapshotProblems],
    snapshot: built.ok ? built.snapshot : built.partial,
    fileOf: parsed.fileOf,
    failedIds,
  };
}

/** A parser that remembers results by path and content, for loading two revisions that share most files. */
export function cachingParser(): RecordFileParser {
  const cache = new Map<string, ParsedRecordFile | undefined>();
  return (file) => {
    const key = `${file.path}\u0000${(file as { blobId?: string }).blobId ?? file.text}`;
    if (cache.has(key)) return cache.get(key);
    const parsed = parseRecordFile(file);
    cache.set(key, parsed);
    return parsed;
  };
}
