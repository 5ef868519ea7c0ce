// A write to one record of a large folder reuses the buffers of a tree or an index nothing
// uses any more, rather than allocating megabytes afresh: the bytes made in a reused buffer
// are exactly those made in a new one, and a buffer of the wrong size, or still the source's,
// is never written into.
import { readFileSync } from 'node:fs';
import type { BigIntStats } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indexLayout, patchIndexEntries } from '../../../../src/store/git/format/index-file.ts';
import {
  encodedTree,
  entryIndex,
  insertionPoint,
  spliceTree,
  type TreeItem,
} from '../../../../src/store/git/format/tree-object.ts';

const oid = fc.stringMatching(/^[0-9a-f]{40}$/);
const name = fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,20}\.yaml$/);
const item = (path: string, id: string, mode = '100644'): TreeItem => ({ mode, path, oid: id, type: 'blob' });
const copyOf = (tree: ReturnType<typeof encodedTree>) => ({
  items: [...tree.items],
  bytes: Buffer.from(tree.bytes),
  ends: tree.ends.slice(),
});

describe('spliceTree into a scratch tree', () => {
  it('gives the same tree as a splice into new buffers, for any entry replaced, added or removed', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(name, { minLength: 1, maxLength: 40 }),
        oid,
        oid,
        fc.nat(),
        fc.constantFrom('replace', 'add', 'remove'),
        (names, first, next, pick, kind) => {
          const tree = encodedTree(names.sort().map((n) => item(n, first)));
          const before = copyOf(tree);
          const at = pick % tree.items.length;
          const splice = (scratch?: ReturnType<typeof encodedTree>) => {
            if (kind === 'replace') return spliceTree(tree, at, 1, item(tree.items[at].path, next), scratch);
            if (kind === 'remove') return spliceTree(tree, at, 1, undefined, scratch);
            const added = item(`zz-${tree.items[at].path}`, next);
            return spliceTree(tree, insertionPoint(tree.items, added), 0, added, scratch);
          };
          const fresh = splice();
          // A scratch of the new tree's sizes (an older tree of the same folder), and one of other sizes.
          const sameSize = copyOf(encodedTree(fresh.items.map((i) => item(i.path, '0'.repeat(40), i.mode))));
          const reused = splice(sameSize);
          expect(reused.bytes.equals(fresh.bytes)).toBe(true);
          expect([...reused.ends]).toEqual([...fresh.ends]);
          expect(reused.items).toEqual(fresh.items);
          expect(reused.bytes).toBe(sameSize.bytes);
          const otherSize = copyOf(encodedTree([...fresh.items, item('~extra.yaml', first)]));
          const notReused = splice(otherSize);
          expect(notReused.bytes.equals(fresh.bytes)).toBe(true);
          expect(notReused.bytes).not.toBe(otherSize.bytes);
          // The source tree is never written.
          expect(tree.bytes.equals(before.bytes)).toBe(true);
          expect(tree.items).toEqual(before.items);
          expect([...tree.ends]).toEqual([...before.ends]);
        },
      ),
    );
  });

  it('never writes into the source tree given as its own scratch', () => {
    const tree = encodedTree(['a.yaml', 'b.yaml'].map((n) => item(n, '1'.repeat(40))));
    const before = Buffer.from(tree.bytes);
    const next = spliceTree(tree, 0, 1, item('a.yaml', '2'.repeat(40)), tree);
    expect(tree.bytes.equals(before)).toBe(true);
    expect(next.bytes).not.toBe(tree.bytes);
  });
});

describe('entryIndex', () => {
  it('finds every entry by its place, and an absent name nowhere', () => {
    fc.assert(
      fc.property(fc.uniqueArray(name, { maxLength: 60 }), name, (names, other) => {
        const items = encodedTree(names.sort().map((n) => item(n, '1'.repeat(40)))).items;
        items.forEach((entry, i) => expect(entryIndex(items, entry.path)).toBe(i));
        expect(entryIndex(items, other)).toBe(names.indexOf(other));
      }),
    );
  });

  it('looks at a few dozen of a folder of 50,000 entries to find one, not at each', () => {
    const names = Array.from({ length: 50_000 }, (_, i) => `cluster-${String(i).padStart(5, '0')}.yaml`);
    const items = names.map((n) => item(n, '1'.repeat(40)));
    let looked = 0;
    const counted = new Proxy(items, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) looked++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    for (const at of [0, 12_345, 49_999]) {
      looked = 0;
      expect(entryIndex(counted, names[at])).toBe(at);
      expect(looked).toBeLessThan(40);
    }
  });

  it('finds a folder entry, and an entry of a tree out of order', () => {
    const folder: TreeItem = { mode: '040000', path: 'clusters', oid: '2'.repeat(40), type: 'tree' };
    const items = [item('clusters.yaml', '1'.repeat(40)), folder, item('a.yaml', '3'.repeat(40))];
    expect(entryIndex(items, 'clusters')).toBe(1);
    expect(entryIndex(items, 'a.yaml')).toBe(2);
  });
});

describe('patchIndexEntries into a scratch buffer', () => {
  const plain = () => readFileSync(join(import.meta.dirname, '../../../fixtures/git-format/index/plain.index'));
  const stats = (size: number) =>
    ({
      ctimeNs: 1_700_000_000_000_000_000n,
      mtimeNs: 1_700_000_000_500_000_000n,
      dev: 1n,
      ino: 2n,
      mode: 0o100644n,
      uid: 0n,
      gid: 0n,
      size: BigInt(size),
    }) as unknown as BigIntStats;

  it('gives the same index as a patch into a new buffer, and shares the unmoved entry offsets', () => {
    const layout = indexLayout(plain());
    const patch = [{ path: 'clusters/c2.yaml', entry: { oid: '4'.repeat(40), stats: stats(9) } }];
    const fresh = patchIndexEntries(layout, patch);
    const scratch = Buffer.alloc(fresh.bytes.length, 0xee);
    const reused = patchIndexEntries(layout, patch, scratch);
    expect(reused.bytes).toBe(scratch);
    expect(reused.bytes.equals(fresh.bytes)).toBe(true);
    expect(reused.starts).toBe(layout.starts);
    expect(indexLayout(reused.bytes).starts).toEqual(reused.starts);
  });

  it('uses a new buffer when the scratch is of another size or is the source itself', () => {
    const layout = indexLayout(plain());
    const added = [{ path: 'clusters/c10.yaml', entry: { oid: '2'.repeat(40), stats: stats(8) } }];
    const fresh = patchIndexEntries(layout, added);
    const wrongSize = Buffer.alloc(layout.bytes.length);
    const patched = patchIndexEntries(layout, added, wrongSize);
    expect(patched.bytes).not.toBe(wrongSize);
    expect(patched.bytes.equals(fresh.bytes)).toBe(true);
    expect(indexLayout(patched.bytes).starts).toEqual(patched.starts);
    const source = Buffer.from(layout.bytes);
    const same = [{ path: 'clusters/c2.yaml', entry: { oid: '4'.repeat(40), stats: stats(9) } }];
    expect(patchIndexEntries(layout, same, layout.bytes).bytes).not.toBe(layout.bytes);
    expect(layout.bytes.equals(source)).toBe(true);
  });
});
