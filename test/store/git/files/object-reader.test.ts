// The fast object reader returns exactly what isomorphic-git returns (blobs, trees, commits),
// from loose objects and from packs with offset and reference deltas.
import * as fs from 'node:fs';
import { join } from 'node:path';
import git from 'isomorphic-git';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBlobText, recordBlobsOfCommit } from '../../../../src/store/git/commit-files.ts';
import { ObjectReader } from '../../../../src/store/git/files/object-reader.ts';
import { commitAll, git as gitCli, makeConfigRepo, removeDir, writeFiles } from '../../../helpers/git-fixture.ts';

let dir: string;
const commits: string[] = [];

beforeAll(() => {
  const cluster = (i: number, replicas: number) =>
    `id: c${i}\ncluster_name: k8s-c${i}\ncluster_dns: c${i}.example.com\nenvironment: dev\npatches:\n  podinfo:\n    ` +
    `replicaCount: "${replicas}"\n${'    filler.key: "some text to make deltas worth it"\n'.repeat(20)}`;
  dir = makeConfigRepo({
    ...Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`clusters/c${i}.yaml`, cluster(i, 1)])),
    // A nested folder and a file that is not a record: both as the tree walk must see them.
    'namespaces/team-a/ns-a.yaml': 'id: ns-a\n',
    'namespaces/README.md': 'not a record\n',
  });
  commits.push(gitCli(dir, 'rev-parse', 'HEAD'));
  for (let version = 2; version <= 4; version++) {
    writeFiles(
      dir,
      Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`clusters/c${i}.yaml`, cluster(i, version)])),
    );
    commits.push(commitAll(dir, `version ${version}`));
  }
});
afterAll(() => removeDir(dir));

async function allBlobs(): Promise<string[]> {
  const oids = new Set<string>();
  for (const commit of commits) for (const blob of await recordBlobsOfCommit(dir, commit)) oids.add(blob.oid);
  return [...oids];
}

/** Every blob, read natively (no fallback), is exactly what isomorphic-git reads. */
async function expectSameAsIsomorphicGit(): Promise<void> {
  const reader = new ObjectReader(dir);
  const oids = await allBlobs();
  expect(oids.length).toBe(81); // 20 clusters in 4 versions, and ns-a
  for (const oid of oids) {
    const expected = await readBlobText(dir, oid);
    expect(reader.readNative(oid)?.toString('utf8')).toBe(expected);
    expect(await reader.readText(oid)).toBe(expected);
    // The size from the object's header or pack entry (for a delta, from the delta), unread.
    expect(reader.blobSize(oid)).toBe(Buffer.byteLength(expected));
    const size = Buffer.byteLength(expected);
    await expect(reader.readText(oid, size - 1)).rejects.toThrow(`the blob is ${size} bytes`);
  }
  // Commits and trees too: what the start-up history walk reads natively.
  for (const commit of commits) {
    const { commit: expected } = await git.readCommit({ fs, dir, oid: commit });
    expect(reader.readCommit(commit)).toEqual({
      tree: expected.tree,
      parents: expected.parent,
      message: expected.message,
      author: { name: expected.author.name, email: expected.author.email, timestamp: expected.author.timestamp },
    });
    const { tree } = await git.readTree({ fs, dir, oid: expected.tree });
    expect(reader.readTree(expected.tree)).toEqual(
      tree.map(({ mode, path, oid, type }) => ({ mode, path, oid, type })),
    );
    expect(await recordBlobsOfCommit(dir, commit, {}, reader)).toEqual(await recordBlobsOfCommit(dir, commit));
  }
  // An object of another type is never taken for the one asked for.
  expect(reader.readCommit(oids[0])).toBeUndefined();
  expect(reader.readTree(commits[0])).toBeUndefined();
}

describe('ObjectReader', () => {
  it('reads loose objects', async () => {
    await expectSameAsIsomorphicGit();
  });

  it('reads packs with offset deltas', async () => {
    gitCli(dir, 'repack', '-a', '-d', '-f', '-q');
    gitCli(dir, 'prune-packed');
    await expectSameAsIsomorphicGit();
  });

  it('reads packs with reference deltas', async () => {
    gitCli(dir, '-c', 'repack.useDeltaBaseOffset=false', 'repack', '-a', '-d', '-f', '-q');
    await expectSameAsIsomorphicGit();
  });

  it('falls back to isomorphic-git for what it cannot read, and never returns a wrong blob', async () => {
    const oid = (await allBlobs())[0];
    const reader = new ObjectReader(dir);
    // A corrupt copy of the pack index makes the fast path fail its checks.
    const packDir = join(dir, '.git/objects/pack');
    const idx = fs.readdirSync(packDir).find((n) => n.endsWith('.idx'))!;
    const original = fs.readFileSync(join(packDir, idx));
    const corrupt = Buffer.from(original);
    corrupt.writeUInt32BE(3, 4); // an index version it does not know
    fs.chmodSync(join(packDir, idx), 0o644);
    fs.writeFileSync(join(packDir, idx), corrupt);
    try {
      expect(reader.readNative(oid)).toBeUndefined();
      await expect(reader.readText(oid)).rejects.toThrow(); // isomorphic-git cannot read it either
    } finally {
      fs.writeFileSync(join(packDir, idx), original);
    }
    const again = new ObjectReader(dir);
    const { blob } = await git.readBlob({ fs, dir, oid });
    expect(await again.readText(oid)).toBe(Buffer.from(blob).toString('utf8'));
    expect(again.readNative(oid)?.toString('utf8')).toBe(Buffer.from(blob).toString('utf8'));
  });
});
