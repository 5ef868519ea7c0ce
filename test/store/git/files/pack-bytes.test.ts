// A pack's bytes are read where they are needed (src/store/git/files/pack-bytes.ts): one commit
// read out of the pack of a large fleet must not read hundreds of megabytes, while a reader that
// reads many objects of one pack reads it whole once. Pack indexes are parsed once per pack and
// repository, and forgotten when a repack removes their pack.
import { randomBytes } from 'node:crypto';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ObjectReader } from '../../../../src/store/git/files/object-reader.ts';
import {
  PackBytes,
  packIndexes,
  SMALL_PACK_BYTES,
  WHOLE_AFTER_READS,
} from '../../../../src/store/git/files/pack-bytes.ts';
import { commitAll, git, makeConfigRepo, tempDir } from '../../../helpers/git-fixture.ts';

/** A file of `size` bytes, each the low byte of its offset. */
function countingFile(size: number): string {
  const path = join(tempDir('pack-bytes-'), 'data.pack');
  writeFileSync(path, Buffer.from(Array.from({ length: size }, (_, i) => i & 0xff)));
  return path;
}

describe('the bytes of a pack', () => {
  it('reads a large pack where asked, until many reads were made: then whole, once', () => {
    const path = countingFile(SMALL_PACK_BYTES + 4096);
    const bytes = new PackBytes(path);
    expect([...bytes.at(1000, 3)]).toEqual([1000 & 0xff, 1001 & 0xff, 1002 & 0xff]);
    // Read where asked: a change made since is seen (packs never change; this tells the reads apart).
    writeFileSync(path, Buffer.alloc(SMALL_PACK_BYTES + 4096, 7));
    expect([...bytes.at(2000, 2)]).toEqual([7, 7]);
    for (let i = 2; i < WHOLE_AFTER_READS; i++) bytes.at(i, 1);
    // The read past the limit takes the whole file; later changes are not seen any more.
    expect([...bytes.at(SMALL_PACK_BYTES + 4094, 8)]).toEqual([7, 7]); // fewer at the end of the file
    writeFileSync(path, Buffer.alloc(SMALL_PACK_BYTES + 4096, 9));
    expect([...bytes.at(10, 2)]).toEqual([7, 7]);
  });

  it('reads a small pack whole at the first read', () => {
    const path = countingFile(4096);
    const bytes = new PackBytes(path);
    expect([...bytes.at(300, 2)]).toEqual([300 & 0xff, 301 & 0xff]);
    writeFileSync(path, Buffer.alloc(4096, 7));
    expect([...bytes.at(300, 2)]).toEqual([300 & 0xff, 301 & 0xff]);
  });
});

describe('a reader of a large pack', () => {
  it('reads blobs, deltas and commits as git does, by positioned reads', () => {
    // Random text does not compress: 24 files of 96 KB make a pack past the size read whole,
    // and a second version of each (one line changed) packs as a delta of the first.
    const path = (i: number) => `clusters/c${i}.yaml`;
    const first = Array.from(
      { length: 24 },
      (_, i) => `id: c${i}\nv: 1\nfill: ${randomBytes(48_000).toString('hex')}\n`,
    );
    const second = first.map((text) => text.replace('v: 1', 'v: 2'));
    const dir = makeConfigRepo(Object.fromEntries(first.map((text, i) => [path(i), text])));
    second.forEach((text, i) => writeFileSync(join(dir, path(i)), text));
    const head = commitAll(dir, 'version 2');
    git(dir, 'repack', '-a', '-d', '-f', '-q');
    git(dir, 'prune-packed');
    const packDir = join(dir, '.git/objects/pack');
    const pack = join(
      packDir,
      readdirSync(packDir).find((n) => n.endsWith('.pack'))!,
    );
    expect(statSync(pack).size).toBeGreaterThan(SMALL_PACK_BYTES);
    // git lists a delta with its chain's depth and base: at least one of each version's pair is one.
    expect(git(dir, 'verify-pack', '-v', pack.replace(/\.pack$/, '.idx'))).toMatch(/ blob +\d+ \d+ \d+ 1 [0-9a-f]{40}/);

    const reader = new ObjectReader(dir);
    expect(reader.readCommit(head)?.message).toBe('version 2\n');
    const oids = (commit: string) => git(dir, 'ls-tree', '-r', '--object-only', commit, 'clusters/').split('\n');
    const versions: [string[], string[]] = [first, second];
    ['HEAD~1', 'HEAD'].forEach((commit, n) => {
      const byPath = new Map(versions[n].map((text, i) => [path(i), text]));
      const listed = git(dir, 'ls-tree', '-r', '--name-only', commit, 'clusters/').split('\n');
      oids(commit).forEach((oid, k) => {
        expect(reader.readNative(oid)?.toString('utf8')).toBe(byPath.get(listed[k]));
        expect(reader.blobSize(oid)).toBe(Buffer.byteLength(byPath.get(listed[k])!));
      });
    });
  });
});

describe('pack indexes', () => {
  it('are parsed once per pack and repository, and forgotten once a repack removed their pack', () => {
    const dir = makeConfigRepo({ 'clusters/a.yaml': 'id: a\n' });
    git(dir, 'repack', '-a', '-d', '-q');
    const cache = {};
    const objects = join(dir, '.git/objects');
    const [index] = packIndexes(objects, cache);
    expect(packIndexes(objects, cache)[0]).toBe(index);
    expect(packIndexes(objects, {})[0]).not.toBe(index); // another repository's cache: its own
    writeFileSync(join(dir, 'clusters/b.yaml'), 'id: b\n');
    commitAll(dir, 'b');
    git(dir, 'repack', '-a', '-d', '-q');
    const after = packIndexes(objects, cache);
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(index);
    expect(after[0].packPath).not.toBe(index.packPath);
  });
});
