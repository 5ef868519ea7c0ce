// Writes to a folder large enough that its tree object is stored without compression (over
// 64 KiB) and that the SHA-1 of the tree and of the index resume from kept states (over
// 256 KiB: 7,000 clusters make a tree of about 300 KB and an index of about 700 KB). The
// Adler-32 that ends each such object's zlib stream, the tree's id and the index's checksum
// are carried from one write to the next when an entry is swapped for one of the same length,
// and worked out afresh when an entry comes or goes: whichever way they were made, git
// inflates every object (zlib checks the sum), finds each one under its hash, the index's
// checksum right and the repository whole.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRUD_DATA, type CrudService, crudRepoOfClusters, gitOut, send, startCrud } from '../../../helpers/crud.ts';
import { removeDir } from '../../../helpers/git-fixture.ts';
import { HASH_STEP } from '../../../../src/store/git/format/prefix-hashes.ts';

const CLUSTERS = 7_000;

describe('writes to a folder whose tree is stored uncompressed', () => {
  let service: CrudService;
  let dir: string;
  const template = CRUD_DATA.clusters[0];
  const ids = Array.from({ length: CLUSTERS }, (_, i) => `large-${String(i).padStart(4, '0')}`);

  beforeAll(async () => {
    dir = crudRepoOfClusters(ids);
    service = await startCrud('git', {}, dir);
  }, 60_000);

  afterAll(async () => {
    await service?.close();
    removeDir(dir);
  });

  const patch = async (id: string, value: string) => {
    const res = await send(service, 'PATCH', `/clusters/${id}`, { patches: { podinfo: { round: value } } });
    expect(res.status, `PATCH ${id}`).toBe(200);
  };

  it('leaves every object whole: swaps, an entry added and removed, swaps again', { timeout: 120_000 }, async () => {
    const treeSize = Number(gitOut(dir, 'cat-file', '-s', 'HEAD:clusters'));
    expect(treeSize, 'the folder tree is over a hash step').toBeGreaterThan(HASH_STEP);

    for (const [i, id] of [ids[0], ids[3999], ids[6999], ids[3999]].entries()) await patch(id, `first-${i}`);
    const added = { ...template, id: 'large-new', cluster_name: 'large-new', cluster_dns: 'large-new.k8s.example.com' };
    expect((await send(service, 'POST', '/clusters', added)).status).toBe(201);
    for (const [i, id] of [ids[5], 'large-new', ids[4500]].entries()) await patch(id, `second-${i}`);
    expect((await send(service, 'DELETE', '/clusters/large-new')).status).toBe(204);
    for (const [i, id] of [ids[7], ids[7], ids[6234]].entries()) await patch(id, `third-${i}`);

    // Each of the 12 commits wrote its own clusters tree; every one inflates (zlib checks
    // the Adler-32) and hashes to its name.
    const trees = gitOut(dir, 'log', '-12', '--format=%H').split('\n');
    expect(new Set(trees.map((commit) => gitOut(dir, 'rev-parse', `${commit}:clusters`))).size).toBe(12);
    // fsck checks every loose object against its name and the index against its checksum.
    expect(gitOut(dir, 'fsck', '--full', '--strict', '--no-dangling', '--no-progress')).toBe('');
    expect(statSync(join(dir, '.git/index')).size, 'the index is over two hash steps').toBeGreaterThan(2 * HASH_STEP);
    expect(gitOut(dir, 'status', '--porcelain')).toBe('');
    expect(gitOut(dir, 'show', 'HEAD:clusters/large-6234.yaml')).toContain('third-2');
  });
});
