// The index a write last renamed into place is kept in memory, so that a write on a large
// fleet does not read a megabyte first. It must never stand in for an index someone else
// wrote: a person's `git add` waiting for index.lock takes it the moment the service's rename
// frees it, and can replace the index before the service has looked at what it renamed.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IndexFileCache } from '../../../../src/store/git/files/index-file-access.ts';
import { indexLayout } from '../../../../src/store/git/format/index-file.ts';
import { git } from '../../../helpers/git-fixture.ts';

describe('IndexFileCache', () => {
  it(
    'reads the file again when the index on disk is not the one it was told of, even when the stamp was taken of ' +
      "the other's",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'index-cache-'));
      git(dir, 'init', '-q');
      const gitdir = join(dir, '.git');
      writeFileSync(join(dir, 'a.yaml'), 'a: 1\n');
      git(dir, 'add', 'a.yaml');
      const ours = indexLayout(readFileSync(join(gitdir, 'index')));
      // A person's `git add` replaces the index right after the service's rename...
      writeFileSync(join(dir, 'b.yaml'), 'b: 1\n');
      git(dir, 'add', 'b.yaml');
      const theirs = readFileSync(join(gitdir, 'index'));
      // ...before the service stats the file to remember what it renamed.
      const cache = new IndexFileCache();
      await cache.remember(gitdir, ours);
      const read = await cache.read(gitdir);
      expect(read?.bytes.equals(theirs)).toBe(true);
    },
  );

  it('keeps the index it wrote while the file is that one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'index-cache-'));
    git(dir, 'init', '-q');
    writeFileSync(join(dir, 'a.yaml'), 'a: 1\n');
    git(dir, 'add', 'a.yaml');
    const gitdir = join(dir, '.git');
    const ours = indexLayout(readFileSync(join(gitdir, 'index')));
    const cache = new IndexFileCache();
    await cache.remember(gitdir, ours);
    expect(await cache.read(gitdir)).toBe(ours);
  });
});
