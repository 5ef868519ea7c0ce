// Tree objects as the commit builder writes them: an entry swapped, added or removed by
// splicing the encoded bytes gives exactly the bytes of encoding the new entries afresh
// (and what git itself reads back).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeTree,
  encodedTree,
  type EncodedTree,
  encodeTree,
  insertionPoint,
  spliceTree,
  treeChecksum,
  type TreeItem,
  treeObjectId,
} from '../../../../src/store/git/format/tree-object.ts';
import { objectId } from '../../../../src/store/git/format/object-id.ts';
import { HASH_STEP } from '../../../../src/store/git/format/prefix-hashes.ts';
import { adler32 } from '../../../../src/store/git/format/adler32.ts';

const oid = fc.stringMatching(/^[0-9a-f]{40}$/);
const item = (path: string, id: string): TreeItem => ({ mode: '100644', path, oid: id, type: 'blob' });
const name = fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,20}\.yaml$/);

type Step = { kind: 'replace' | 'remove'; at: number; oid: string } | { kind: 'add'; name: string; oid: string };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constantFrom('replace' as const, 'remove' as const), at: fc.nat(100), oid }),
  fc.record({ kind: fc.constant('add' as const), name, oid }),
);

/** The tree with the step's change spliced in; the same tree when the step does not apply to it. */
function applied(tree: EncodedTree, s: Step): EncodedTree {
  if (s.kind === 'add') {
    if (tree.items.some((i) => i.path === s.name)) return tree;
    const added = item(s.name, s.oid);
    return spliceTree(tree, insertionPoint(tree.items, added), 0, added);
  }
  if (tree.items.length === 0) return tree;
  const at = s.at % tree.items.length;
  return s.kind === 'remove' ? spliceTree(tree, at, 1) : spliceTree(tree, at, 1, item(tree.items[at].path, s.oid));
}

/** A tree of up to 30 entries, and changes to make to it one after another. */
const changes = fc
  .tuple(fc.uniqueArray(name, { maxLength: 30 }), oid, fc.array(step, { maxLength: 25 }))
  .map(([names, first, steps]) => ({ start: encodedTree(names.sort().map((n) => item(n, first))), steps }));

describe('spliceTree', () => {
  it('gives the bytes of encoding the changed entries afresh, over any sequence of changes', () => {
    fc.assert(
      fc.property(changes, ({ start, steps }) => {
        let tree = start;
        for (const s of steps) {
          tree = applied(tree, s);
          expect(tree.bytes.equals(encodeTree(tree.items))).toBe(true);
          expect(decodeTree(tree.bytes)).toEqual(tree.items);
          expect(tree.ends.at(-1) ?? 0).toBe(tree.bytes.length);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('carries the checksum of its bytes over a swap of an entry for one of the same length, and only then', () => {
    fc.assert(
      fc.property(changes, ({ start, steps }) => {
        let tree = start;
        treeChecksum(tree);
        for (const s of steps) {
          const before = tree;
          tree = applied(tree, s);
          if (tree === before) continue;
          // A swap keeps the length; an entry added or removed changes it and leaves the sum to be worked out.
          const swapped = s.kind === 'replace' && tree.bytes.length === before.bytes.length;
          expect(tree.checksum !== undefined).toBe(swapped && before.checksum !== undefined);
          expect(treeChecksum(tree)).toBe(adler32([tree.bytes]));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('works the checksum out from the bytes that changed, written into a scratch tree too', () => {
    const names = Array.from({ length: 2_000 }, (_, i) => `cluster-${String(i).padStart(5, '0')}.yaml`);
    const first = encodedTree(names.map((n) => item(n, 'a'.repeat(40))));
    const scratch = encodedTree(names.map((n) => item(n, 'b'.repeat(40))));
    treeChecksum(first);
    const next = spliceTree(first, 1_234, 1, item(names[1_234], 'c'.repeat(40)), scratch);
    expect(next.bytes).toBe(scratch.bytes);
    expect(next.checksum).toBe(adler32([next.bytes]));
  });

  it('gives each spliced tree its object id, hashing a large one from the entry swapped on', () => {
    const names = Array.from({ length: 12_000 }, (_, i) => `cluster-${String(i).padStart(5, '0')}.yaml`);
    let tree = encodedTree(names.map((n) => item(n, '0'.repeat(40))));
    expect(tree.bytes.length).toBeGreaterThan(2 * HASH_STEP);
    expect(treeObjectId(tree)).toBe(objectId('tree', tree.bytes));
    fc.assert(
      fc.property(fc.nat(names.length - 1), oid, fc.boolean(), (at, id, addOrRemove) => {
        const before = tree;
        const entry = item(tree.items[at].path, id);
        tree = addOrRemove ? spliceTree(tree, at, 1) : spliceTree(tree, at, 1, entry);
        expect(treeObjectId(tree)).toBe(objectId('tree', tree.bytes));
        // A swap resumes from the states before it; a removal changes the header and starts over.
        const start = at === 0 ? 0 : before.ends[at - 1];
        const shared = addOrRemove ? 0 : Math.floor((start + `tree ${tree.bytes.length}\0`.length) / HASH_STEP);
        for (let i = 0; i < tree.hashes!.states.length; i++)
          expect(tree.hashes!.states[i] === before.hashes!.states[i]).toBe(i < shared);
        if (addOrRemove) tree = spliceTree(tree, at, 0, entry);
        treeObjectId(tree);
      }),
      { numRuns: 30 },
    );
  });
});
