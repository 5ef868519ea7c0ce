// What a start of the local Git backend refuses, before anything is read: a CONFIG_REPO that
// is not a directory, a repository in a form this code does not read and write correctly,
// and, in crud mode, one it cannot commit to (no Git repository, a detached HEAD, no commit,
// an index form it does not patch). A write a crash cut off is finished or undone here too.
import { existsSync, statSync } from 'node:fs';
import type { Logger } from 'pino';
import { StartupError } from '../../../shared/startup-error.ts';
import { IndexNotWritable } from '../../git/format/index-file.ts';
import { indexWriteRefusal } from '../../git/files/index-file-access.ts';
import { type GitDirectory, GitDirectoryError } from '../../git/git-directory.ts';
import { checkedGitDirectory, UnsupportedRepositoryForm } from '../../git/repository-format.ts';
import { currentBranch, headCommit } from '../../git/repository.ts';
import type { WriteRepair } from './write-journal.ts';

/** Throws StartupError for what waiting will not fix; a merge in progress or a damaged index only holds writes back. */
export async function checkAtStart(dir: string, writable: boolean, repair: WriteRepair, log: Logger): Promise<void> {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new StartupError(`CONFIG_REPO ${dir} is not a directory; point CONFIG_REPO at a config repo checkout`);
  }
  // Read or written, a repository in a form this code does not handle is refused before
  // anything is read from it (a linked worktree and a submodule checkout are handled).
  let repo: GitDirectory | undefined;
  try {
    repo = checkedGitDirectory(dir);
  } catch (error) {
    if (error instanceof GitDirectoryError || error instanceof UnsupportedRepositoryForm)
      throw new StartupError(`CONFIG_REPO ${dir}: ${error.message}`);
    throw error;
  }
  if (!writable) return;
  const howTo =
    'crud mode commits every change, so CONFIG_REPO must be a Git repository with at least one commit ' +
    `(run "git init && git add -A && git commit -m 'initial config'" in ${dir}), ` +
    'or run "npm run start:crud" to serve a scratch Git copy of config-repo-example';
  if (!repo) throw new StartupError(`CONFIG_REPO ${dir} is not a Git repository: ${howTo}`);
  if (!(await currentBranch(dir))) {
    throw new StartupError(`CONFIG_REPO ${dir} has a detached HEAD; check out the branch crud mode should commit to`);
  }
  if (!(await headCommit(dir))) throw new StartupError(`CONFIG_REPO ${dir} has no commit yet: ${howTo}`);
  // An index form that stays until the repository is converted stops the start; a merge in
  // progress or a damaged index only holds writes back until a person ends it.
  const index = await indexWriteRefusal(repo.gitdir);
  if (index?.kind === 'unsupported') throw new StartupError(`CONFIG_REPO ${dir}: ${index.message}`);
  if (index) log.warn({ reason: index.kind }, `writes are refused until this is resolved: ${index.message}`);
  // A write a crash cut off is finished or undone before anything is read, and so before
  // the service listens (and every write awaits this same repair).
  try {
    await repair.atStart();
  } catch (error) {
    if (error instanceof IndexNotWritable)
      throw new StartupError(`CONFIG_REPO ${dir}: a write a stop cut off cannot be finished: ${error.message}`);
    throw error;
  }
}
