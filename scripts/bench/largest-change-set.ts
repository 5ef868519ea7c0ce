// `npm run bench:change-set -- --largest [clusters=1000]`: the largest change set the service
// takes (1,000 writes, a body just under MAX_BODY_SIZE's 1 MiB), previewed, dry-run and
// committed against the real service in crud mode on a generated Git fleet, started as its
// own process with a heap of BENCH_HEAP MiB (default 256). Two shapes: 1,000 patches adding a
// key of about 1 KB each to one cluster (its record grows to most of a megabyte), and one
// patch to each of 1,000 clusters. For each: the time to the answer, the longest wait of
// /health and of a cluster's poll sent meanwhile (every 5 ms), the longest stretch the service's
// event loop was held (scripts/bench/event-loop-probe.ts: wall time, and the thread's CPU
// time, which a busy machine does not inflate), and its heap and RSS after. Then the preview
// of the one-record shape at 250, 500 and 1,000 writes (linear: the time per write stays the
// same), and BENCH_PREVIEWS (10) previews in a row: RSS before and after. BENCH_NODE_OPTIONS
// adds options to the service's Node (a preload that observes the collector, say).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateConfigRepo, clusterDns, clusterId } from '../generate-repo.ts';
import { type NodeProcess, PROJECT_ROOT, SERVICE_MAIN, startNodeProcess } from './node-process.ts';
import { longestStretchIn } from './probe-stretches.ts';
import { procMemory } from './proc-memory.ts';

const TOKEN = 'bench-largest-change-set-token';
const LIMIT = 1024 * 1024;
type Way = 'preview' | 'dry run' | 'commit';
const PATHS: Record<Way, string> = {
  preview: '/api/v2/gitops/changes/preview',
  'dry run': '/api/v2/gitops/changes?dryRun=All',
  commit: '/api/v2/gitops/changes',
};

/**
 * `writes` patches of about `valueBytes` each, to one cluster (new keys) or to `writes`
 * clusters. The one cluster's answer must stay under the consumer's 900 KiB limit, which a
 * write may not break: 840 bytes a key.
 */
export function largestSet(
  shape: 'one record' | 'many records',
  writes: number,
  round: number,
  valueBytes = shape === 'one record' ? 840 : 930,
): string {
  const value = (i: number) => `r${round}-${i}-`.padEnd(valueBytes, 'x');
  const list = Array.from({ length: writes }, (_, i) =>
    shape === 'one record'
      ? {
          op: 'patch',
          collection: 'clusters',
          id: clusterId(0),
          patch: { patches: { 'component-0': { [`key-${i}`]: value(i) } } },
        }
      : {
          op: 'patch',
          collection: 'clusters',
          id: clusterId(i),
          patch: { patches: { [`component-${i % 25}`]: { note: value(i) } } },
        },
  );
  return JSON.stringify({ message: `largest change set, round ${round}`, writes: list });
}

export async function benchLargestChangeSet(clusters: number): Promise<void> {
  const heap = Number(process.env.BENCH_HEAP ?? 256);
  const previews = Number(process.env.BENCH_PREVIEWS ?? 10);
  const dir = mkdtempSync(join(tmpdir(), 'bench-largest-'));
  const probeFile = join(dir, 'event-loop-probe.jsonl');
  const repo = join(dir, 'repo');
  try {
    generateConfigRepo(repo, { clusters, componentsPerCluster: 25, git: true });
    const probe = join(PROJECT_ROOT, 'scripts', 'bench', 'event-loop-probe.ts');
    const service = await startNodeProcess(SERVICE_MAIN, {
      env: {
        AUTH_TOKEN: TOKEN,
        API_MODE: 'crud',
        STORE_BACKEND: 'git',
        CONFIG_REPO: repo,
        LISTEN_ADDR: '127.0.0.1:0',
        LOG_LEVEL: 'info',
        NODE_OPTIONS: `--max-old-space-size=${heap} ${process.env.BENCH_NODE_OPTIONS ?? ''} --import ${probe}`,
        BENCH_PROBE_FILE: probeFile,
      },
    });
    try {
      await measure(service, clusters, probeFile, heap, previews);
    } finally {
      await service.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measure(
  service: NodeProcess,
  clusters: number,
  probeFile: string,
  heap: number,
  previews: number,
): Promise<void> {
  const url = `http://127.0.0.1:${service.port}`;
  const auth = { authorization: `Bearer ${TOKEN}` };
  console.log(`${clusters} clusters x 25 components, service heap ${heap} MiB (node ${process.version})`);

  // Polls all along: the longest wait since the last reset.
  let worstWait = 0;
  let polling = true;
  const poll = async (path: string) => {
    while (polling) {
      const started = performance.now();
      await fetch(`${url}${path}`, { headers: auth }).then((res) => res.arrayBuffer());
      worstWait = Math.max(worstWait, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const pollers = [
    poll('/health'),
    poll(`/api/v2/gitops/clusters/${clusterDns(Math.min(5, clusters - 1))}/platform-components`),
  ];
  const heapUsed = async () =>
    Number(/^nodejs_heap_size_used_bytes (\S+)$/m.exec(await (await fetch(`${url}/metrics`)).text())?.[1]);
  const mib = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MiB`;

  const send = async (way: Way, body: string) => {
    if (body.length > LIMIT) throw new Error(`the set is ${body.length} bytes, over MAX_BODY_SIZE`);
    worstWait = 0;
    const from = process.hrtime.bigint();
    const started = performance.now();
    const res = await fetch(`${url}${PATHS[way]}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body,
    });
    const answer = await res.text();
    const ms = performance.now() - started;
    if (res.status >= 300) throw new Error(`${way}: ${res.status} ${answer.slice(0, 300)}`);
    const stalls = longestStretchIn(probeFile, from, process.hrtime.bigint());
    return {
      ms,
      wait: worstWait,
      ...stalls,
      answerBytes: answer.length,
      heap: await heapUsed(),
      memory: procMemory(service.pid)!,
    };
  };

  try {
    let round = 0;
    // A warm-up of each path: the first request of a kind pays for compiling its code.
    for (const way of ['preview', 'dry run', 'commit'] as const)
      await send(way, largestSet('one record', 100, round++));
    console.log(
      '\n| set | way | body | answer | time | longest poll wait | event loop held (wall / CPU) | heap used after | ' +
        'RSS after (peak) |',
    );
    console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const shape of ['one record', 'many records'] as const) {
      if (shape === 'many records' && clusters < 1000) continue;
      for (const way of ['preview', 'dry run', 'commit'] as const) {
        const body = largestSet(shape, 1000, round++);
        const r = await send(way, body);
        console.log(
          `| 1,000 patches, ${shape === 'one record' ? 'one cluster' : '1,000 clusters'} | ${way} | ` +
            `${(body.length / 1024).toFixed(0)} KiB | ${(r.answerBytes / 1024).toFixed(0)} KiB | ` +
            `${r.ms.toFixed(0)} ms | ${r.wait.toFixed(0)} ms | ${r.wallMs.toFixed(0)} / ${r.cpuMs.toFixed(0)} ms | ` +
            `${mib(r.heap)} | ${mib(r.memory.rss)} (${mib(r.memory.hwm)}) |`,
        );
      }
    }

    console.log('\nThe preview of 250 to 1,000 writes to one cluster (linear: the time per write stays the same):');
    for (const writes of [250, 500, 1000]) {
      const runs: number[] = [];
      for (let i = 0; i < 3; i++) runs.push((await send('preview', largestSet('one record', writes, round++))).ms);
      const best = Math.min(...runs);
      console.log(
        `  ${String(writes).padStart(5)} writes: ${best.toFixed(0)} ms (best of 3), ${(best / writes).toFixed(2)} ms ` +
          `a write`,
      );
    }

    const before = procMemory(service.pid)!.rss;
    const body = largestSet('one record', 1000, round++);
    let worst = 0;
    for (let i = 0; i < previews; i++) worst = Math.max(worst, (await send('preview', body)).wait);
    const after = procMemory(service.pid)!.rss;
    console.log(
      `\n${previews} previews in a row: RSS ${mib(before)} before, ${mib(after)} after ` +
        `(${(after / before).toFixed(2)}x); longest poll wait ${worst.toFixed(0)} ms`,
    );
  } finally {
    polling = false;
    await Promise.all(pollers);
  }
}
