// One record file of a revision, as a file source lists it: its path and the Git object id of
// its content (equal ids, equal text), with the text when it has been read already — or the
// problem that kept it from being read at all (not a regular file, too large).
import { createHash } from 'node:crypto';
import type { Problem } from '../../domain/problem.ts';
import { SliceTimer } from '../runner/event-loop.ts';

/** MAX_RECORD_BYTES: a record file larger than this is refused without being read whole. */
export const DEFAULT_MAX_RECORD_BYTES = 1024 * 1024;

export interface RecordFileEntry {
  /** Path inside the repo, with forward slashes: "clusters/demo.yaml". */
  path: string;
  /** Git blob id of the content; for a refused file, a stand-in that changes when the file does. */
  blobId: string;
  /** The text, when it was read to list the file. */
  text?: string;
  /** Reads the text (files listed from a Git tree are read only when their parse is not known). */
  read?: () => Promise<string>;
  /** Why the file is not read: it is a problem of the revision. */
  refused?: Problem;
}

/** Thrown by an entry's read(): the file turned out to be one that is not read (too large). */
export class RecordRefused extends Error {
  readonly problem: Problem;

  constructor(problem: Problem) {
    super(problem.message);
    this.problem = problem;
  }
}

/** The object id Git gives a file's content (SHA-1 of "blob <size>\0" + bytes). */
export function gitBlobId(bytes: Buffer): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/**
 * A hash of a set of files (paths and contents), for a revision id outside Git or of edits not
 * committed; with the event loop's turns between slices of files (50,000 took some 15 ms).
 */
export async function contentHashInSlices(
  files: readonly { path: string; blobId: string }[],
  /** Said first, so that lists of different meaning never share a hash. */
  kind?: string,
): Promise<string> {
  const hash = createHash('sha256');
  if (kind !== undefined) hash.update(`${kind}\n`);
  const slices = new SliceTimer();
  for (const [i, f] of files.entries()) {
    if (i % 1024 === 0) await slices.turnIfDue();
    hash.update(`${f.path}\0${f.blobId}\n`);
  }
  return hash.digest('hex');
}

export function byPath(a: { path: string }, b: { path: string }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}
