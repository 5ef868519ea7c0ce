// What the history of revisions keeps of each revision is bounded in bytes, whatever the store
// holds: a commit pushed to the config repo may carry a message of megabytes, an author of any
// length, and a refused revision thousands of problems. An entry keeps the start of the
// message (the subject, and of the body as much as fits), marked as cut; names of a few
// hundred characters; the first problems, with their count. So 1,000 entries stay a few
// megabytes, and a page of GET /api/v2/gitops/revisions is bounded too (./revision-history.ts).
// Here too: the facts the service gives an entry for a revision it wrote itself (writeFacts).
import type { Problem } from '../../domain/problem.ts';
import type { ChangeSet, RevisionFacts } from '../backend.ts';

/** The most of a commit message an entry keeps, in UTF-8 bytes: the subject and the body's start. */
export const HISTORY_MESSAGE_BYTES = 4096;
/** The most characters of an author's name or e-mail an entry keeps. */
export const HISTORY_NAME_CHARS = 256;
/** The most problems of a refused revision an entry keeps; it counts them all. */
export const HISTORY_PROBLEMS = 20;

/** Facts as an entry keeps them, with whether the message was cut. */
export interface BoundedFacts extends RevisionFacts {
  messageTruncated: boolean;
}

export function boundedFacts(facts: RevisionFacts): BoundedFacts {
  const message = facts.message === null ? { text: null, cut: false } : cutUtf8(facts.message, HISTORY_MESSAGE_BYTES);
  const author = facts.author && {
    name: facts.author.name.slice(0, HISTORY_NAME_CHARS),
    email: facts.author.email?.slice(0, HISTORY_NAME_CHARS) ?? null,
  };
  return { author, time: facts.time, message: message.text, messageTruncated: message.cut };
}

export function boundedProblems(problems: readonly Problem[]): { kept: readonly Problem[]; count: number } {
  return {
    kept: problems.length > HISTORY_PROBLEMS ? problems.slice(0, HISTORY_PROBLEMS) : problems,
    count: problems.length,
  };
}

/**
 * The longest start of `text` whose UTF-8 form fits in `bytes`, cut between characters (never
 * inside a surrogate pair), and whether anything was cut. A copy: a slice of a long string
 * would keep the whole string alive.
 */
export function cutUtf8(text: string, bytes: number): { text: string; cut: boolean } {
  // Each UTF-16 unit is at most 3 bytes of UTF-8 (a surrogate pair, two units, is 4).
  if (text.length * 3 <= bytes) return { text, cut: false };
  let used = 0;
  let end = 0;
  while (end < text.length) {
    const code = text.codePointAt(end)!;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (used + size > bytes) break;
    used += size;
    end += code >= 0x10000 ? 2 : 1;
  }
  if (end === text.length) return { text, cut: false };
  return { text: Buffer.from(text.slice(0, end), 'utf8').toString('utf8'), cut: true };
}

/**
 * What the service knows of a revision it wrote itself: who wrote it, when, and the message —
 * for a store that says nothing of its revisions (SQLite, memory). A Git commit says it itself.
 */
export function writeFacts(set: Pick<ChangeSet, 'who' | 'message'>): RevisionFacts {
  return {
    author: { name: set.who.name, email: set.who.email ?? null },
    time: new Date().toISOString(),
    message: set.message.replace(/\n+$/, ''),
  };
}
