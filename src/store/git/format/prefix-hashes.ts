// SHA-1 of content whose beginning mostly stays the same from one version to the next: the
// tree of a folder of 50,000 records (2.3 MB) and the index of every file (4.8 MB), each
// written again whole, with its SHA-1, by every write to one record. The hash's state is kept
// every STEP bytes; the next version, equal to this one up to some byte, resumes from the last
// state before it, and hashes only the rest: half the bytes on average, for a write anywhere.
import { createHash, type Hash } from 'node:crypto';

/** How often the hash's state is kept: 256 KiB, 9 states for a tree of 2.3 MB. */
export const HASH_STEP = 256 * 1024;

/** The SHA-1 states of some content: states[i] after its first (i + 1) · HASH_STEP bytes. */
export interface PrefixHashes {
  readonly states: readonly Hash[];
}

/** Where to resume: the states of an earlier version, equal to the new content in its first `same` bytes. */
export interface HashResume {
  readonly previous: PrefixHashes;
  readonly same: number;
}

/**
 * The SHA-1 of `parts` joined (hex), and its states for the next version. With `resume`,
 * the bytes up to the last state within the `same` ones are not read again.
 */
export function prefixHashed(parts: readonly Uint8Array[], resume?: HashResume): { id: string; hashes: PrefixHashes } {
  const kept = resume ? Math.min(Math.floor(resume.same / HASH_STEP), resume.previous.states.length) : 0;
  const states: Hash[] = resume ? resume.previous.states.slice(0, kept) : [];
  // A kept state is never updated: the hash goes on in a copy.
  const hash = kept > 0 ? states[kept - 1].copy() : createHash('sha1');
  let offset = 0; // in the joined content
  let hashed = kept * HASH_STEP;
  for (const part of parts) {
    const end = offset + part.length;
    while (hashed < end) {
      const boundary = (Math.floor(hashed / HASH_STEP) + 1) * HASH_STEP;
      const until = Math.min(end, boundary);
      hash.update(part.subarray(hashed - offset, until - offset));
      hashed = until;
      if (hashed === boundary) states.push(hash.copy());
    }
    offset = end;
  }
  return { id: hash.digest('hex'), hashes: { states } };
}
