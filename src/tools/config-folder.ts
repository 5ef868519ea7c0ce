// The config repo a command works on when none is named: the current folder, or, for a person
// typing from below it (in clusters/, say), the nearest folder above that holds one of the
// record folders, not looking past the top of the Git repository.
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RECORD_FOLDERS } from '../domain/repo-layout/record-path.ts';

export function defaultConfigDir(cwd: string): string {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (RECORD_FOLDERS.some((folder) => isDirectory(join(dir, folder)))) return dir;
    if (existsSync(join(dir, '.git')) || dirname(dir) === dir) return cwd;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
