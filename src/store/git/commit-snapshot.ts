// Builds a snapshot from a commit, read straight from the Git object store. Parsed files are
// remembered by path and blob id, so a new commit costs only the files it changed.
import { attachFiles, parseConfigRepo, type ParsedRecordFile, parseRecordFile } from '../../domain/config-repo.ts';
import type { Problem } from '../../domain/problems.ts';
import { createSnapshot, type Snapshot } from '../../domain/snapshot.ts';
import { BlobReader } from './blob-reader.ts';
import { recordBlobsOfCommit } from './commit-tree.ts';

export type CommitLoad = { ok: true; snapshot: Snapshot; fileOf: Map<string, string> } | { ok: false; problems: Problem[]; error: string };

export class CommitSnapshotLoader {
  readonly #dir: string;
  readonly #gitCache: object;
  #parsed = new Map<string, ParsedRecordFile | undefined>();

  constructor(dir: string, gitCache: object = {}) {
    this.#dir = dir;
    this.#gitCache = gitCache;
  }

  async load(commit: string): Promise<CommitLoad> {
    const blobs = await recordBlobsOfCommit(this.#dir, commit, this.#gitCache);
    // A new reader each time: a fetch may have added packs since the last load.
    const reader = new BlobReader(this.#dir, this.#gitCache);
    const parsed = new Map<string, ParsedRecordFile | undefined>();
    const files: { path: string; text: string }[] = [];
    const keyOf = new Map<string, string>();
    for (const blob of blobs) {
      const key = `${blob.path}\u0000${blob.oid}`;
      if (!this.#parsed.has(key)) {
        const text = await reader.readText(blob.oid);
        this.#parsed.set(key, parseRecordFile({ path: blob.path, text }));
      }
      parsed.set(key, this.#parsed.get(key));
      // The parse function below answers from the cache; the text is not needed again.
      files.push({ path: blob.path, text: '' });
      keyOf.set(blob.path, key);
    }
    // Only the files of the latest commit are worth remembering.
    this.#parsed = parsed;
    const repo = parseConfigRepo(files, (file) => parsed.get(keyOf.get(file.path)!));
    if (repo.problems.length > 0) {
      return { ok: false, problems: repo.problems, error: `${repo.problems.length} problem(s) in commit ${commit.slice(0, 12)}` };
    }
    const built = createSnapshot(repo.records, commit);
    if (!built.ok) {
      const problems = attachFiles(built.problems, repo.fileOf);
      return { ok: false, problems, error: `${problems.length} problem(s) in commit ${commit.slice(0, 12)}` };
    }
    return { ok: true, snapshot: built.snapshot, fileOf: repo.fileOf };
  }
}
