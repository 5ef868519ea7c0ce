// `npm run start:crud`: serves crud mode on a scratch Git copy of config-repo-example, so
// that trying the REST endpoints never changes the example itself. The copy is made once,
// in data/crud-config-repo (a Git repository with one commit); later runs keep serving it,
// with every change made since. Delete that folder to start over. Needs AUTH_TOKEN, like
// `npm start`; CRUD_AUTH_TOKEN sets a separate write token.
import * as fs from 'node:fs';
import { cpSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import git from 'isomorphic-git';

export const EXAMPLE_REPO = 'config-repo-example';
export const CRUD_REPO = 'data/crud-config-repo';

/**
 * Copies `source` to `target` and commits it there as the first commit of a new Git
 * repository, unless `target` exists already. Returns true when it made the copy.
 */
export async function prepareCrudRepo(source = EXAMPLE_REPO, target = CRUD_REPO): Promise<boolean> {
  if (existsSync(target)) return false;
  if (!existsSync(source)) throw new Error(`${source} does not exist; run this from the project folder`);
  cpSync(source, target, { recursive: true, filter: (path) => !/(^|[\\/])\.git$/.test(path) });
  const dir = resolve(target);
  await git.init({ fs, dir, defaultBranch: 'main' });
  const files = await git.statusMatrix({ fs, dir });
  for (const [filepath] of files) await git.add({ fs, dir, filepath });
  await git.commit({
    fs,
    dir,
    message: `Copy of ${source}\n\nA scratch config repo for crud mode (npm run start:crud).\n`,
    author: {
      name: process.env.GIT_AUTHOR_NAME || 'gitops-config-api',
      email: process.env.GIT_AUTHOR_EMAIL || 'gitops-config-api@localhost',
    },
  });
  return true;
}

if (import.meta.main) {
  try {
    const made = await prepareCrudRepo();
    process.stderr.write(
      made
        ? `start:crud: copied ${EXAMPLE_REPO} to ${CRUD_REPO} (a new Git repository); REST writes are committed there\n`
        : `start:crud: serving ${CRUD_REPO} (delete it to start again from ${EXAMPLE_REPO})\n`,
    );
  } catch (error) {
    process.stderr.write(`start:crud: ${(error as Error).message}\n`);
    process.exit(2);
  }
  process.env.API_MODE = 'crud';
  process.env.STORE_BACKEND = 'git';
  process.env.CONFIG_REPO = CRUD_REPO;
  await import('../src/main.ts');
}
