// A change set's commit patches the index once for all its files: the bytes must equal those
// of one patch after another, and git must read the result as the index it means.
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexLayout, patchIndex, patchIndexEntries } from '../../../../src/store/git/format/index-file.ts';
import { objectId } from '../../../../src/store/git/format/object-id.ts';
import { git } from '../../../helpers/git-fixture.ts';
import { gitOut } from '../../../helpers/crud.ts';

describe('patchIndexEntries', () => {
  it(
    'sets, adds and removes several entries in one pass, byte ' +
      'for byte as one patch after another, and git reads it',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'index-patch-'));
      git(dir, 'init', '-q');
      for (const name of ['clusters/a.yaml', 'clusters/m.yaml', 'clusters/z.yaml', 'namespaces/n.yaml']) {
        writeFileSync(join(dir, name.replace('/', '-')), `${name}\n`);
      }
      git(dir, 'add', '.');
      // Paths with a folder, as the record files have them, through git's own update-index.
      for (const name of ['clusters/a.yaml', 'clusters/m.yaml', 'clusters/z.yaml', 'namespaces/n.yaml']) {
        const oid = gitOut(dir, 'hash-object', '-w', name.replace('/', '-'));
        git(dir, 'update-index', '--add', '--cacheinfo', `100644,${oid},${name}`);
      }
      const original = readFileSync(join(dir, '.git/index'));
      const content = 'id: new\n';
      writeFileSync(join(dir, 'new-file'), content);
      const oid = gitOut(dir, 'hash-object', '-w', 'new-file');
      expect(oid).toBe(objectId('blob', Buffer.from(content)));
      const stats = statSync(join(dir, 'new-file'), { bigint: true });
      const patches = [
        { path: 'namespaces/n.yaml', entry: { oid, stats } },
        { path: 'clusters/m.yaml', entry: null },
        { path: 'clusters/b.yaml', entry: { oid, stats } },
        { path: 'zz/last.yaml', entry: { oid, stats } },
        { path: 'aa/first.yaml', entry: { oid, stats } },
      ];
      const once = patchIndexEntries(original, patches);
      let oneByOne = indexLayout(original);
      for (const { path, entry } of patches) oneByOne = patchIndex(oneByOne, path, entry);
      expect(once.bytes.equals(oneByOne.bytes)).toBe(true);
      expect([...once.starts]).toEqual([...oneByOne.starts]);
      expect(once.entriesEnd).toBe(oneByOne.entriesEnd);
      // The layout it returns is the one a scan of its bytes finds.
      expect([...indexLayout(once.bytes).starts]).toEqual([...once.starts]);
      writeFileSync(join(dir, '.git/index'), once.bytes);
      const listed = gitOut(dir, 'ls-files', '--stage').split('\n');
      expect(listed.map((line) => line.split('\t')[1])).toEqual([
        'aa/first.yaml',
        'clusters-a.yaml',
        'clusters-m.yaml',
        'clusters-z.yaml',
        'clusters/a.yaml',
        'clusters/b.yaml',
        'clusters/z.yaml',
        'namespaces-n.yaml',
        'namespaces/n.yaml',
        'zz/last.yaml',
      ]);
      expect(listed.find((line) => line.endsWith('\tnamespaces/n.yaml'))).toContain(oid);
    },
  );

  it('refuses a path given twice', () => {
    const dir = mkdtempSync(join(tmpdir(), 'index-patch-'));
    git(dir, 'init', '-q');
    writeFileSync(join(dir, 'a'), 'a\n');
    git(dir, 'add', 'a');
    const index = readFileSync(join(dir, '.git/index'));
    expect(() =>
      patchIndexEntries(index, [
        { path: 'a', entry: null },
        { path: 'a', entry: null },
      ]),
    ).toThrow(/once per path/);
  });
});
