// What the service keeps once every answer has been asked for: a generated fleet served by the
// real service, its memory read at ready and after a plain and a gzip pass over every endpoint
// of every cluster (scale/memory-passes.ts), each time after the collector ran
// (bench/memory-probe.ts). "At ready" is once the first revision is published (`/ready` answers
// 200): the service listens before its first load ends, and memory read at the listening line
// would count part of that load as growth (some 130 MB of heap at 50,000 clusters). Prints how
// the growth splits between the heap, memory outside it, the C heap and the heap's reserve, per
// answer (docs/decisions/0045-a-compact-store-of-answers.md).
//   npm run bench:memory                 (10,000 clusters x 25 components)
//   npm run bench:memory -- 50000
//   BENCH_NODE_OPTIONS=--max-old-space-size=1300 npm run bench:memory -- 50000
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT, SERVICE_MAIN, startNodeProcess, type NodeProcess, untilReady } from './bench/node-process.ts';
import { ENDPOINTS, generateFleet, serviceEnv } from './bench/scale/fleet.ts';
import { measureMemory } from './bench/scale/memory-passes.ts';

interface Reading {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  cHeap: number;
}

const clusters = Number(process.argv[2] ?? 10_000);
const MB = 2 ** 20;

async function read(service: NodeProcess, file: string): Promise<Reading> {
  const lines = () => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : []);
  const before = lines().length;
  process.kill(service.pid, 'SIGUSR2');
  const deadline = Date.now() + 60_000;
  while (lines().length === before) {
    if (Date.now() > deadline) throw new Error('the service wrote no memory reading within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return JSON.parse(lines().at(-1)!) as Reading;
}

const fleet = await generateFleet(clusters, 25);
const file = join(fleet.root, 'memory.jsonl');
const probe = join(PROJECT_ROOT, 'scripts', 'bench', 'memory-probe.ts');
const nodeOptions = `--expose-gc --import ${probe} ${process.env.BENCH_NODE_OPTIONS ?? ''}`;
const service = await startNodeProcess(SERVICE_MAIN, {
  env: serviceEnv(fleet.repo, { NODE_OPTIONS: nodeOptions, BENCH_MEMORY_FILE: file }),
  maxOpenFiles: 1024,
});
try {
  const loaded = (await untilReady(service)) - service.readyMs;
  console.log(
    `${clusters} clusters x 25 components, listening after ${(service.readyMs / 1000).toFixed(1)} s, ` +
      `first revision published ${(loaded / 1000).toFixed(1)} s later`,
  );
  const ready = await read(service, file);
  await measureMemory(fleet, service, ready.rss, ready.rss, 16, (line) => console.log(line));
  const after = await read(service, file);
  const answers = clusters * ENDPOINTS.length;
  const row = (name: string, key: keyof Reading) =>
    `| ${name} | ${(ready[key] / MB).toFixed(0)} | ${(after[key] / MB).toFixed(0)} | ` +
    `${(((after[key] - ready[key]) / answers) | 0).toLocaleString('en')} |`;
  console.log(`\n| after the collector ran | at ready, MB | every answer asked for, MB | growth per answer, bytes |`);
  console.log('|---|---:|---:|---:|');
  console.log(row('RSS', 'rss'));
  console.log(row('heap in use', 'heapUsed'));
  console.log(row('heap reserved', 'heapTotal'));
  console.log(row('outside the heap', 'external'));
  console.log(row('of which ArrayBuffers (gzip and plain bytes)', 'arrayBuffers'));
  console.log(row('C heap resident (malloc: ArrayBuffers and the rest)', 'cHeap'));
  console.log(`\nRSS every answer asked for / at ready: ${(after.rss / ready.rss).toFixed(2)}x`);
} finally {
  await service.stop();
  rmSync(fleet.root, { recursive: true, force: true });
}
