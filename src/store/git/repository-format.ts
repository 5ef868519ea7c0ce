// Whether a repository is in a form this code reads and writes correctly, judged from its
// config the way git judges it before touching a repository (setup.c): the format version
// (`core.repositoryFormatVersion`) and the `extensions.*` it declares. Everything here reads
// and writes SHA-1 objects, loose refs and packed-refs; a repository that declares anything
// else would be misread, or damaged by a write, so it is refused up front with its name.
//
// As in git: version 0 knows four extensions (noop, preciousObjects, partialClone,
// worktreeConfig) and ignores any other name (they meant nothing before version 1, and git
// itself works on such a repository as a plain one), except that an extension only version 1
// defines is an error there. Version 1 refuses any extension not known. Above 1: refused.
//
// Of the extensions known:
// - noop, noop-v1: declare nothing.
// - preciousObjects: objects must never be deleted; nothing here deletes an object.
// - partialClone: objects may be missing (git fetches them on demand); here a missing
//   object is read as missing, as in a shallow clone: the history at start is judged
//   without it, and a revision that needs it cannot be read.
// - worktreeConfig: per-worktree config files; nothing read here is per-worktree config.
// - relativeWorktrees: linked worktrees link by relative paths, which ./git-directory.ts
//   follows like absolute ones.
// - objectFormat: sha1 only. sha256 object ids are another length and another hash.
// - compatObjectFormat: refused; git keeps a map between the two hashes of every object,
//   which the objects written here would be missing from.
// - refStorage: files only. reftable keeps refs in binary tables the ref code here does not
//   read, and a branch moved by writing a loose ref file would not move for git at all.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GitConfigError, parseGitConfig } from './format/config-file.ts';
import { type GitDirectory, gitDirectoryOf } from './git-directory.ts';

/** A repository in a form this code must not read or write; the message names what and why. */
export class UnsupportedRepositoryForm extends Error {}

/** Extension names as git writes them (the config's names are case-insensitive). */
const KNOWN = [
  'noop',
  'noop-v1',
  'preciousObjects',
  'partialClone',
  'worktreeConfig',
  'relativeWorktrees',
  'objectFormat',
  'compatObjectFormat',
  'refStorage',
];
const SPELLED = new Map(KNOWN.map((name) => [name.toLowerCase(), name]));
/** Honoured by git in a version-0 repository too. */
const VERSION_0 = new Set(['noop', 'preciousobjects', 'partialclone', 'worktreeconfig']);

/** Throws UnsupportedRepositoryForm unless the repository's config declares a form read and written correctly here. */
export function checkRepositoryFormat(repo: GitDirectory): void {
  const file = join(repo.commonDir, 'config');
  const where = `the Git repository ${repo.commonDir}`;
  let config;
  try {
    config = parseGitConfig(readFileSync(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // git reads such a repository as version 0
    if (error instanceof GitConfigError)
      throw new UnsupportedRepositoryForm(`${file} cannot be read: ${error.message}`);
    throw error;
  }
  const last = (name: string) => config.get(name)?.at(-1);
  const versionText = last('core.repositoryformatversion') ?? '0';
  const version = /^\s*\d+\s*$/.test(versionText ?? '') ? Number(versionText) : Number.NaN;
  if (version !== 0 && version !== 1) {
    throw new UnsupportedRepositoryForm(
      `${where} has core.repositoryFormatVersion = ${versionText}; only versions 0 and 1 can be read and written here`,
    );
  }
  for (const [variable, values] of config) {
    if (!variable.startsWith('extensions.') || variable.split('.').length !== 2) continue;
    const key = variable.slice('extensions.'.length);
    const name = `extensions.${SPELLED.get(key) ?? key}`;
    const value = values.at(-1);
    const setting = value === null || value === undefined ? name : `${name} = ${value}`;
    if (!SPELLED.has(key)) {
      if (version === 0) continue;
      throw new UnsupportedRepositoryForm(
        `${where} uses the repository extension ${setting}, which is not known here, so it can be neither read nor ` +
          `written safely`,
      );
    }
    if (version === 0 && !VERSION_0.has(key)) {
      throw new UnsupportedRepositoryForm(
        `${where} sets ${setting} while core.repositoryFormatVersion is 0; git refuses such a repository too (the ` +
          `setting needs version 1)`,
      );
    }
    if (key === 'objectformat' && value !== 'sha1') {
      throw new UnsupportedRepositoryForm(
        `${where} uses the ${value ?? '(unset)'} object format (${setting}); only SHA-1 repositories can be read and ` +
          `written here`,
      );
    }
    if (key === 'compatobjectformat') {
      throw new UnsupportedRepositoryForm(
        `${where} keeps a second object format (${setting}); objects written here would be missing from its map, so ` +
          `it is not supported`,
      );
    }
    if (key === 'refstorage' && value !== 'files') {
      throw new UnsupportedRepositoryForm(
        `${where} stores its refs in ${value ?? '(unset)'} (${setting}); only the files ref storage (loose refs and ` +
          `packed-refs) can be read and written here`,
      );
    }
  }
}

/**
 * The Git directory of the working tree `dir` (undefined when it holds no .git), once its form
 * is checked: throws GitDirectoryError or UnsupportedRepositoryForm for one not to be touched.
 */
export function checkedGitDirectory(dir: string): GitDirectory | undefined {
  const repo = gitDirectoryOf(dir);
  if (repo) checkRepositoryFormat(repo);
  return repo;
}
