// The working-tree reader a server keeps: a reload reads only the files named, a full look
// re-reads only files whose stat changed (or that were written too recently to trust their
// stat), and the periodic look finds what a file watcher missed. Between two commits, the
// files that differ are found from the object store.
import { mkdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { changedBetween } from '../../../src/store/git/commit-files.ts';
import { ReadPool } from '../../../src/store/record-files/read-pool.ts';
import type { RecordFileEntry } from '../../../src/store/record-files/record-file-entry.ts';
import { WorkingTreeReader } from '../../../src/store/record-files/working-tree.ts';
import { commitAll, git, makeConfigRepo, removeDir } from '../../helpers/git-fixture.ts';

const ns = (id: string, team = 'a') => `id: ${id}\nlabels:\n  team: "${team}"\n`;

/** Sets a file's times well in the past, as a file that has not been touched for a while. */
function age(dir: string, path: string): void {
  const past = new Date(Date.now() - 60_000);
  utimesSync(join(dir, path), past, past);
}

/** The paths that came with their text: the ones read in this call. */
const readNow = (entries: { path: string; text?: string }[]) =>
  entries.filter((e) => e.text !== undefined).map((e) => e.path);

describe('WorkingTreeReader', () => {
  it(
    'reads every file once, then only what changed: named ' + 'files, or on a full look the ones whose stat changed',
    async () => {
      const dir = makeConfigRepo({
        'namespaces/a.yaml': ns('a'),
        'namespaces/b.yaml': ns('b'),
        'namespaces/c.yaml': ns('c'),
      });
      for (const name of ['a', 'b', 'c']) age(dir, `namespaces/${name}.yaml`);
      const reader = new WorkingTreeReader(dir);
      expect(readNow(await reader.readAll())).toEqual(['namespaces/a.yaml', 'namespaces/b.yaml', 'namespaces/c.yaml']);
      // Nothing changed: a full look reads nothing.
      expect(readNow(await reader.readAll())).toEqual([]);

      writeFileSync(join(dir, 'namespaces/b.yaml'), ns('b', 'changed'));
      writeFileSync(join(dir, 'namespaces/d.yaml'), ns('d'));
      rmSync(join(dir, 'namespaces/c.yaml'));
      const named = await reader.readChanged([
        'namespaces/b.yaml',
        'namespaces/c.yaml',
        'namespaces/d.yaml',
        'README.md',
        '.git/HEAD',
      ]);
      expect(named.map((e) => e.path)).toEqual(['namespaces/a.yaml', 'namespaces/b.yaml', 'namespaces/d.yaml']);
      expect(readNow(named)).toEqual(['namespaces/b.yaml', 'namespaces/d.yaml']);
      expect(named.find((e) => e.path === 'namespaces/b.yaml')!.text).toContain('changed');

      // Edited without telling the reader: the full look sees the stat change.
      age(dir, 'namespaces/b.yaml');
      age(dir, 'namespaces/d.yaml');
      await reader.readAll();
      writeFileSync(join(dir, 'namespaces/a.yaml'), ns('a', 'edited'));
      const full = await reader.readAll();
      expect(readNow(full)).toEqual(['namespaces/a.yaml']);
      expect(full.map((e) => e.path)).toEqual(['namespaces/a.yaml', 'namespaces/b.yaml', 'namespaces/d.yaml']);
    },
  );

  it('puts the files read again in place in a new list, and never changes a list it handed out', async () => {
    const names = Array.from({ length: 40 }, (_, i) => `n${String(i).padStart(2, '0')}`);
    const dir = makeConfigRepo(Object.fromEntries(names.map((n) => [`namespaces/${n}.yaml`, ns(n)])));
    const reader = new WorkingTreeReader(dir);
    await reader.readAll();
    const before = await reader.readChanged([]); // the entries as kept, without their text
    const held = [...before];
    writeFileSync(join(dir, 'namespaces/n07.yaml'), ns('n07', 'changed'));
    writeFileSync(join(dir, 'namespaces/n33.yaml'), ns('n33', 'changed'));
    const after = await reader.readChanged(['namespaces/n33.yaml', 'namespaces/n07.yaml']);
    expect(before.every((entry, i) => entry === held[i])).toBe(true);
    expect(readNow(after)).toEqual(['namespaces/n07.yaml', 'namespaces/n33.yaml']);
    expect(after.map((e) => e.path)).toEqual(before.map((e) => e.path));
    // The others are the very entries of the list before (the loader skips them by identity).
    const differing = (a: RecordFileEntry[], b: RecordFileEntry[]) => a.filter((e, i) => e !== b[i]).map((e) => e.path);
    expect(differing(after, before)).toEqual(['namespaces/n07.yaml', 'namespaces/n33.yaml']);
    expect(after[7].text).toContain('changed');
    // Nothing named: the kept entries, the two read last without their text now.
    const again = await reader.readChanged([]);
    expect(readNow(again)).toEqual([]);
    expect(differing(again, after)).toEqual(['namespaces/n07.yaml', 'namespaces/n33.yaml']);
    expect(differing(again, before)).toEqual(['namespaces/n07.yaml', 'namespaces/n33.yaml']);
  });

  it(
    'does not trust the stat of a file written moments before it was read (a same-size edit could hide in the same ' +
      'timestamp)',
    async () => {
      const dir = makeConfigRepo({ 'namespaces/a.yaml': ns('a') });
      const reader = new WorkingTreeReader(dir);
      await reader.readAll(); // written just now: racy
      expect(readNow(await reader.readAll())).toEqual(['namespaces/a.yaml']);
    },
  );

  it('the periodic look names added, removed, changed and replaced-by-a-link files without reading any', async () => {
    const dir = makeConfigRepo({
      'namespaces/a.yaml': ns('a'),
      'namespaces/b.yaml': ns('b'),
      'namespaces/c.yaml': ns('c'),
    });
    for (const name of ['a', 'b', 'c']) age(dir, `namespaces/${name}.yaml`);
    const reader = new WorkingTreeReader(dir);
    await reader.readAll();
    expect(await reader.changedPaths()).toEqual([]);
    writeFileSync(join(dir, 'namespaces/a.yaml'), ns('a', 'x'));
    rmSync(join(dir, 'namespaces/b.yaml'));
    writeFileSync(join(dir, 'namespaces/new.yaml'), ns('new'));
    rmSync(join(dir, 'namespaces/c.yaml'));
    symlinkSync('a.yaml', join(dir, 'namespaces/c.yaml'));
    mkdirSync(join(dir, 'clusters'), { recursive: true });
    expect((await reader.changedPaths()).sort()).toEqual([
      'namespaces/a.yaml',
      'namespaces/b.yaml',
      'namespaces/c.yaml',
      'namespaces/new.yaml',
    ]);
  });
});

describe('changedBetween', () => {
  it('lists the record files that differ between two commits: changed, added, removed', async () => {
    const dir = makeConfigRepo({ 'namespaces/a.yaml': ns('a'), 'namespaces/b.yaml': ns('b'), 'README.md': 'docs\n' });
    const first = git(dir, 'rev-parse', 'HEAD');
    writeFileSync(join(dir, 'namespaces/a.yaml'), ns('a', 'x'));
    rmSync(join(dir, 'namespaces/b.yaml'));
    writeFileSync(join(dir, 'namespaces/c.yaml'), ns('c'));
    writeFileSync(join(dir, 'README.md'), 'more docs\n');
    const second = commitAll(dir, 'change');
    expect((await changedBetween(dir, first, second, {})).sort()).toEqual([
      'namespaces/a.yaml',
      'namespaces/b.yaml',
      'namespaces/c.yaml',
    ]);
    expect(await changedBetween(dir, second, second, {})).toEqual([]);
  });
});

describe('ReadPool', () => {
  const failing = (code: string, times: number) => {
    let calls = 0;
    return {
      calls: () => calls,
      task: async () => {
        calls++;
        if (calls <= times) throw Object.assign(new Error(code), { code });
        return 'read';
      },
    };
  };

  it(
    'tries a read that met a passing shortage (EMFILE, ENFILE, ' +
      'EAGAIN, EBUSY) again, and fails other errors at once',
    async () => {
      const pool = new ReadPool(2);
      for (const code of ['EMFILE', 'ENFILE', 'EAGAIN', 'EBUSY']) {
        const read = failing(code, 2);
        expect(await pool.run(read.task)).toBe('read');
        expect(read.calls()).toBe(3);
      }
      const denied = failing('EACCES', 1);
      await expect(pool.run(denied.task)).rejects.toThrow('EACCES');
      expect(denied.calls()).toBe(1);
      const endless = failing('EMFILE', 100);
      await expect(pool.run(endless.task)).rejects.toThrow('EMFILE');
      expect(endless.calls()).toBe(6);
    },
  );
});

describe('WorkingTreeReader and memory', () => {
  it('keeps no bytes of the files it read: only their ids, and a way to read them again', async () => {
    // A small file's bytes are a view of one of Node's 64 KiB pool buffers (Buffer.allocUnsafe),
    // which a kept view keeps whole; the entries are kept as long as the files do not change.
    const files: Record<string, string> = {};
    for (let i = 0; i < 1000; i++) files[`namespaces/n${i}.yaml`] = ns(`n${i}`, 'x'.repeat(3000));
    const dir = makeConfigRepo(files, { git: false });
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const external = () => {
      collect();
      collect();
      return process.memoryUsage().external;
    };
    const reader = new WorkingTreeReader(dir);
    const before = external();
    const entries = await reader.readAll();
    // What the loader keeps: the entries without their text.
    const kept = entries.map(({ text: _, ...entry }) => entry);
    const grown = external() - before;
    expect(kept).toHaveLength(1000);
    // 1,000 files of about 3 KB: 3 MB held if their bytes were.
    expect(grown / 2 ** 20, 'MiB held outside the heap').toBeLessThan(1);
    expect(await kept[0].read!()).toBe(files['namespaces/n0.yaml']);
    removeDir(dir);
  });
});
