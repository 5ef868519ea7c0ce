// The config repo a command works on when none is named: the current folder, or, for a person
// typing from below it (in clusters/, say), the nearest folder above that holds one of the
// record folders, looking no further than the top of the Git repository (and not at all
// outside one).
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RECORD_FOLDERS } from '../domain/repo-layout/record-path.ts';
import { locateInGitRepository } from '../store/git/repository-root.ts';

export function defaultConfigDir(cwd: string): string {
  const location = locateInGitRepository(cwd);
  if (location === undefined) return cwd;
  for (let dir = join(location.root, location.folder); ; dir = dirname(dir)) {
    if (RECORD_FOLDERS.some((folder) => isDirectory(join(dir, folder)))) return dir;
    if (dir === location.root || dirname(dir) === dir) return cwd;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
