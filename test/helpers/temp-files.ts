// Temporary folders and the files written into them: plain file system work, which unit tests
// use as well (./git-fixture.ts adds the git command line on top).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { dump } from 'js-yaml';

export type RepoFiles = Record<string, string | object>;

export function tempDir(prefix = 'gitops-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Writes files (objects become YAML) into dir. */
export function writeFiles(dir: string, files: RepoFiles): void {
  for (const [path, content] of Object.entries(files)) {
    const full = join(dir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, typeof content === 'string' ? content : dump(content));
  }
}
