// The index a crud write patches (src/store/git/format/index-file.ts), read from index files
// git wrote in each of its forms (test/fixtures/git-format/index/, made by make-fixtures.sh
// with `git ls-files -s` beside each): the forms a write may patch are read entry by entry as
// git lists them; the others are refused, each with its kind; a patch keeps what git keeps.
import { createHash } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  indexEntryOid,
  indexLayout,
  IndexNotWritable,
  patchIndex,
  patchIndexEntries,
} from '../../../../src/store/git/format/index-file.ts';
import { HASH_STEP } from '../../../../src/store/git/format/prefix-hashes.ts';

const FIXTURE = join(import.meta.dirname, '../../../fixtures/git-format/index');
const indexOf = (form: string) => readFileSync(join(FIXTURE, `${form}.index`));

/** `git ls-files -s`: mode, object id, stage and path of every entry. */
function gitEntries(form: string): { oid: string; stage: number; path: string }[] {
  return readFileSync(join(FIXTURE, `${form}.ls-files`), 'utf8')
    .trim()
    .split('\n')
    .map((line) => {
      const [, oid, stage, path] = /^\d+ ([0-9a-f]{40}) (\d)\t(.*)$/.exec(line)!;
      return { oid: oid, stage: Number(stage), path: path };
    });
}

function refusal(index: Buffer): IndexNotWritable {
  try {
    indexLayout(index);
  } catch (error) {
    if (error instanceof IndexNotWritable) return error;
    throw error;
  }
  throw new Error('the index was not refused');
}

/** What git's checksum over the bytes says: a patched index must carry the right one. */
const checksumHolds = (bytes: Buffer) =>
  createHash('sha1').update(bytes.subarray(0, -20)).digest().equals(bytes.subarray(-20));

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

describe('the forms a write patches', () => {
  it.each(['plain', 'intent-to-add', 'untracked-cache', 'resolved'])(
    '%s: every entry where git lists it, with its object id',
    (form) => {
      const index = indexOf(form);
      const layout = indexLayout(index);
      const entries = gitEntries(form);
      expect(layout.starts.length).toBe(entries.length);
      for (const entry of entries) expect(indexEntryOid(index, entry.path), entry.path).toBe(entry.oid);
      expect(indexEntryOid(index, 'clusters/absent.yaml')).toBeUndefined();
    },
  );

  it('keeps the resolve-undo record (REUC) of a resolved conflict and no cache', () => {
    expect(indexLayout(indexOf('resolved')).extensions.toString('latin1', 0, 4)).toBe('REUC');
    for (const form of ['plain', 'untracked-cache']) expect(indexLayout(indexOf(form)).extensions.length, form).toBe(0);
  });
});

describe('the forms a write refuses', () => {
  it('an index in the middle of a merge (stages 1-3), naming the path in conflict', () => {
    expect(
      gitEntries('unmerged')
        .filter((e) => e.stage > 0)
        .map((e) => e.stage),
    ).toEqual([1, 2, 3]);
    const error = refusal(indexOf('unmerged'));
    expect(error.kind).toBe('unmerged');
    expect(error.message).toContain('"clusters/c1.yaml" is in conflict');
  });

  it('version 4, a split index and a sparse one, each saying how to convert it', () => {
    const version4 = refusal(indexOf('version-4'));
    expect(version4).toMatchObject({ kind: 'unsupported' });
    expect(version4.message).toContain('the Git index is of version 4');
    expect(refusal(indexOf('split')).message).toContain('the Git index is split (core.splitIndex)');
    const sparse = refusal(indexOf('sparse'));
    expect(sparse.message).toContain('the Git index is sparse (index.sparse)');
    expect(sparse.message).toContain('git sparse-checkout init --no-sparse-index');
  });

  it('damage: a byte changed, the file cut short, another header', () => {
    const plain = indexOf('plain');
    const flipped = Buffer.from(plain);
    flipped[40] ^= 1;
    expect(refusal(flipped).message).toContain('its checksum does not match its content');
    expect(refusal(plain.subarray(0, 30)).kind).toBe('damaged');
    const renamed = Buffer.from(plain);
    renamed.write('DIRX', 0, 'latin1');
    expect(refusal(renamed).message).toContain('it does not start with an index header');
  });

  it('accepts an all-zero checksum, which git writes with index.skipHash', () => {
    const skipped = Buffer.from(indexOf('plain'));
    skipped.fill(0, skipped.length - 20);
    expect(indexLayout(skipped).starts.length).toBe(gitEntries('plain').length);
  });
});

describe('patching', () => {
  it('sets one entry and removes another; the rest, the checksum and REUC stay right, the cache tree goes', () => {
    const before = gitEntries('resolved');
    const changed = '1'.repeat(40);
    const once = patchIndex(indexOf('resolved'), 'clusters/c2.yaml', { oid: changed, stats: stats(7) });
    const layout = patchIndex(once, 'namespaces/team-a.yaml', null);
    expect(checksumHolds(layout.bytes)).toBe(true);
    expect(indexLayout(layout.bytes).starts.length).toBe(before.length - 1);
    expect(indexEntryOid(layout.bytes, 'clusters/c2.yaml')).toBe(changed);
    expect(indexEntryOid(layout.bytes, 'namespaces/team-a.yaml')).toBeUndefined();
    expect(indexEntryOid(layout.bytes, 'clusters/c1.yaml')).toBe(
      before.find((e) => e.path === 'clusters/c1.yaml')!.oid,
    );
    expect(layout.bytes.includes('REUC')).toBe(true);
    expect(layout.bytes.includes('TREE')).toBe(false);
  });

  it('adds a new entry in path order, and gives the same bytes patched at once as one after another', () => {
    const added = { path: 'clusters/c10.yaml', entry: { oid: '2'.repeat(40), stats: stats(8) } };
    const removed = { path: 'clusters/c1.yaml', entry: null };
    const atOnce = patchIndexEntries(indexOf('plain'), [added, removed]);
    const oneByOne = patchIndex(patchIndex(indexOf('plain'), added.path, added.entry), removed.path, null);
    expect(atOnce.bytes.equals(oneByOne.bytes)).toBe(true);
    const paths = [...indexLayout(atOnce.bytes).starts].map((start) =>
      atOnce.bytes.toString('utf8', start + 62, atOnce.bytes.indexOf(0, start + 62)),
    );
    expect(paths).toEqual(['clusters/c10.yaml', 'clusters/c2.yaml', 'namespaces/team-a.yaml']);
  });

  it('patches a path once per change set', () => {
    const entry = { oid: '3'.repeat(40), stats: stats(1) };
    expect(() =>
      patchIndexEntries(indexOf('plain'), [
        { path: 'a.yaml', entry },
        { path: 'a.yaml', entry: null },
      ]),
    ).toThrow('the index is patched once per path: a.yaml');
  });

  it('writes no patch into an index it refuses', () => {
    expect(() => patchIndex(indexOf('unmerged'), 'clusters/c2.yaml', null)).toThrow(IndexNotWritable);
  });

  it("resumes a large index's checksum from the entry patched on; an entry added or removed starts over", () => {
    const path = (i: number) => `clusters/c-${String(i).padStart(5, '0')}.yaml`;
    const many = Array.from({ length: 8_000 }, (_, i) => ({
      path: path(i),
      entry: { oid: '4'.repeat(40), stats: stats(i) },
    }));
    let layout = patchIndexEntries(indexOf('plain'), many);
    expect(layout.bytes.length).toBeGreaterThan(2 * HASH_STEP);
    // A swap, another, a removal, the entry added back, a swap near the end.
    const steps: [number, boolean][] = [
      [7_000, false],
      [10, false],
      [4_000, true],
      [4_000, false],
      [7_999, false],
    ];
    for (const [i, remove] of steps) {
      const before = layout;
      const entry = remove ? null : { oid: String(i % 10).repeat(40), stats: stats(i) };
      layout = patchIndexEntries(
        before,
        [{ path: path(i), entry }],
        remove ? undefined : Buffer.alloc(before.bytes.length),
      );
      expect(checksumHolds(layout.bytes), `patch of ${path(i)}`).toBe(true);
      expect(indexEntryOid(layout.bytes, path(i))).toBe(entry?.oid);
      // The states before the patched entry are the earlier index's own, unless the count in the header changed.
      const at = indexOfPath(before, path(i));
      const swapped = !remove && at !== -1;
      const shared = swapped && before.hashes ? Math.floor(before.starts[at] / HASH_STEP) : 0;
      for (const [k, state] of layout.hashes!.states.entries())
        expect(state === before.hashes?.states[k]).toBe(k < shared);
    }
  });
});

/** The entry number of `path` in a layout made by patching. */
function indexOfPath(layout: ReturnType<typeof patchIndexEntries>, path: string): number {
  return [...layout.starts].findIndex(
    (start) => layout.bytes.toString('utf8', start + 62, start + 62 + path.length) === path,
  );
}
