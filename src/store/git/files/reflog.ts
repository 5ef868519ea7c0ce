// The reflog: one line per move of a ref, appended to logs/<ref> the way git appends it
// (refs/files-backend.c), so that `git reflog` lists the service's commits beside a person's
// and a branch moved by mistake can be put back from it:
//
//   <old> <new> <name> <<email>> <seconds> <zone>\t<message>\n
//
// appended with O_APPEND in one write, under the ref's lock, before the lock is renamed over
// the ref (git's order; git does not flush reflogs, and neither does this). When HEAD is a
// symbolic ref to the branch, HEAD's log gets the same line, as git's own commands do.
// core.logAllRefUpdates decides whether a missing log is created: unset means true in a
// repository with a working tree, false in a bare one; true creates logs of branches,
// remote-tracking refs, notes and HEAD; "always" of every ref; false only appends to logs
// that exist already.
import * as fs from 'node:fs';
import { constants } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import git from 'isomorphic-git';
import { makeDirectory } from './flushed-file.ts';
import { identName } from '../format/commit-object.ts';

export interface ReflogEntry {
  /** Who moved the ref: git writes the committer. */
  committer: { name: string; email: string };
  /** One line: "commit: <subject>" for a commit, as git words it. */
  message: string;
  /**
   * The working tree's own Git directory, where its HEAD and HEAD's log are, when it is not
   * the directory that holds the ref (a linked worktree: branches live in the common one).
   */
  worktreeGitdir?: string;
}

export const NO_COMMIT = '0'.repeat(40);

type LogAllRefUpdates = 'always' | 'normal' | 'none';

/**
 * Appends the move of `ref` from `from` (undefined: created) to `to` to its log, and to HEAD's when HEAD points at it.
 */
export async function appendReflog(
  gitdir: string,
  ref: string,
  from: string | undefined,
  to: string,
  entry: ReflogEntry,
): Promise<void> {
  const setting = await logAllRefUpdates(gitdir);
  const headDir = entry.worktreeGitdir ?? gitdir;
  const head = await readFile(join(headDir, 'HEAD'), 'utf8').catch(() => '');
  const line = Buffer.from(
    `${from ?? NO_COMMIT} ${to} ${identName(entry.committer)} ${Math.floor(Date.now() / 1000)} ` +
      `+0000\t${oneLine(entry.message)}\n`,
  );
  await appendLine(join(gitdir, 'logs', ref), line, createsLog(setting, ref));
  if (head.trim() === `ref: ${ref}`) await appendLine(join(headDir, 'logs', 'HEAD'), line, createsLog(setting, 'HEAD'));
}

/** The reflog message git writes for a commit: "commit: " and the message's first line. */
export function commitReflogMessage(message: string): string {
  return `commit: ${message.split('\n', 1)[0]}`;
}

async function appendLine(path: string, line: Buffer, create: boolean): Promise<void> {
  if (create) await makeDirectory(dirname(path));
  let handle;
  try {
    handle = await open(path, constants.O_WRONLY | constants.O_APPEND | (create ? constants.O_CREAT : 0), 0o644);
  } catch (error) {
    // Not to be created, and not there: this ref is not logged.
    if (!create && (error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    await handle.write(line);
  } finally {
    await handle.close();
  }
}

function createsLog(setting: LogAllRefUpdates, ref: string): boolean {
  if (setting === 'always') return true;
  if (setting === 'none') return false;
  return ref === 'HEAD' || ['refs/heads/', 'refs/remotes/', 'refs/notes/'].some((prefix) => ref.startsWith(prefix));
}

async function logAllRefUpdates(gitdir: string): Promise<LogAllRefUpdates> {
  let value: unknown;
  try {
    value = await git.getConfig({ fs, gitdir, path: 'core.logallrefupdates' });
  } catch (error) {
    // isomorphic-git reads the setting as a boolean and throws on git's third value.
    if (/always/i.test(String((error as Error).message))) return 'always';
    throw error;
  }
  if (value === undefined) {
    const bare: unknown = await git.getConfig({ fs, gitdir, path: 'core.bare' }).catch(() => undefined);
    return bare === true ? 'none' : 'normal';
  }
  return value === true ? 'normal' : 'none';
}

/** Git keeps a reflog message on one line: whitespace runs, line breaks included, become one space. */
function oneLine(message: string): string {
  return message.replace(/\s+/g, ' ').trim();
}
