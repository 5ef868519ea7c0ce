// Writes back to back keep no memory per write on the Git backend. Each write to a cluster kept
// a 64 KiB buffer until that cluster was written again: the tree entry of its file and the
// working tree's entry for it were small views of Node's shared pool buffers (Buffer.poolSize is
// 64 KiB in Node 24), and a view keeps its whole buffer. The history's entries, each holding its
// revision's snapshot, piled up behind a wait for quiet that back-to-back writes never give.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CrudService, crudRepoOfClusters, send, startCrud } from '../../../helpers/crud.ts';
import { removeDir } from '../../../helpers/git-fixture.ts';

const CLUSTERS = 160;

// The collector on demand, without a flag on the command line.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** Memory outside the heap held by live objects, and the heap in use, after the collector ran. */
async function held(): Promise<{ external: number; heap: number }> {
  collect();
  await new Promise((resolve) => setImmediate(resolve));
  collect();
  const { external, heapUsed } = process.memoryUsage();
  return { external, heap: heapUsed };
}

describe('writes back to back on the Git backend', () => {
  let service: CrudService;
  let dir: string;
  const ids = Array.from({ length: CLUSTERS }, (_, i) => `m${i}`);

  beforeAll(async () => {
    dir = crudRepoOfClusters(ids);
    service = await startCrud('git', {}, dir);
  }, 60_000);

  afterAll(async () => {
    await service?.close();
    removeDir(dir);
  });

  const write = async (id: string, value: string) => {
    const res = await send(service, 'PATCH', `/clusters/${id}`, { patches: { podinfo: { round: value } } });
    expect(res.status).toBe(200);
  };

  it(`keep no memory per write: ${CLUSTERS} clusters written once each`, { timeout: 120_000 }, async () => {
    for (const id of ids.slice(0, 10)) await write(id, 'warm-up');
    const before = await held();
    for (const id of ids) await write(id, 'measured');
    const after = await held();
    const MiB = 2 ** 20;
    // Kept per write, each pool buffer would be 64 KiB: 160 writes, 10 MiB.
    expect((after.external - before.external) / MiB, 'outside the heap, MiB').toBeLessThan(3);
    expect((after.heap - before.heap) / MiB, 'heap, MiB').toBeLessThan(8);
  });
});
