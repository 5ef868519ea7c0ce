// The preview of a change set and the history of revisions: `npm run bench -- --preview`.
//   1. A catalog bump on a generated Git fleet (10,000 clusters × 25 components by default):
//      POST /api/v2/gitops/changes/preview against the real service in crud mode, next to
//      `gitops-config diff HEAD~1 HEAD --format json` (a fresh process, as CI runs it) on the
//      same change committed in a clone. Both compute the same report.
//   2. What keeping the history costs a publication: which clusters' answers changed
//      (domain/changed-clusters.ts), on an in-memory fleet of 50,000 clusters by default, for a
//      write to one cluster and for a catalog bump, next to what the write path's domain step
//      (applyChangeSet) and the judgement of the bump cost on the same fleet.
// Environment: BENCH_CLUSTERS (10000), BENCH_HISTORY_CLUSTERS (50000), BENCH_RUNS (5).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { changedClusterIds } from '../src/domain/changed-clusters.ts';
import { judge } from '../src/domain/judge.ts';
import { createSnapshot, type Snapshot } from '../src/domain/snapshot.ts';
import { applyChangeSet, type ChangeSetRequest } from '../src/domain/writes/change-set.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/shared/logger.ts';
import { startService } from '../src/server.ts';
import { RecordFileLoader } from '../src/store/record-files/record-file-loader.ts';
import { readWorkingTree } from '../src/store/record-files/working-tree.ts';
import { RevisionHistory } from '../src/store/history/revision-history.ts';
import { git, pack } from './bench/git.ts';
import { describeMachine } from './bench/machine.ts';
import { timeScript } from './bench/script-timing.ts';
import { median } from './bench/stats.ts';
import { generateConfigRepo } from './generate-repo.ts';

const CLI = fileURLToPath(new URL('../src/tools/cli.ts', import.meta.url));
const clusters = Number(process.env.BENCH_CLUSTERS ?? 10_000);
const historyClusters = Number(process.env.BENCH_HISTORY_CLUSTERS ?? 50_000);
const runs = Number(process.env.BENCH_RUNS ?? 5);
const TOKEN = 'bench-preview-token';
const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 0)} ms`;
const s = (n: number) => `${(n / 1000).toFixed(2)} s`;

const who = { kind: 'service', name: 'write-token' } as const;
const bump: ChangeSetRequest = {
  message: 'bump component-0',
  role: 'write',
  who,
  writes: [
    {
      kind: 'merge-patch',
      collection: 'platform_components',
      id: 'component-0',
      patch: { oci_tag: '9.9.9' },
      role: 'write',
      who,
    },
  ],
};
const oneCluster: ChangeSetRequest = {
  role: 'write',
  who,
  writes: [
    {
      kind: 'merge-patch',
      collection: 'clusters',
      id: 'cluster-00042',
      patch: { patches: { 'component-17': { replicaCount: '9' } } },
      role: 'write',
      who,
    },
  ],
};

console.log(`${describeMachine()}; node ${process.version}\n`);
const dirs: string[] = [];
try {
  // ---- 1. preview vs diff -------------------------------------------------------------------
  const dir = mkdtempSync(join(tmpdir(), 'bench-preview-'));
  dirs.push(dir);
  generateConfigRepo(dir, { clusters, componentsPerCluster: 25, git: true });
  await pack(dir);
  const config = loadConfig({
    AUTH_TOKEN: TOKEN,
    CRUD_AUTH_TOKEN: TOKEN,
    API_MODE: 'crud',
    STORE_BACKEND: 'git',
    CONFIG_REPO: dir,
    LISTEN_ADDR: '127.0.0.1:0',
    LOG_LEVEL: 'warn',
  });
  const service = await startService(config, { log: createLogger('warn') });
  const body = JSON.stringify({
    message: bump.message,
    writes: [{ op: 'patch', collection: 'platform_components', id: 'component-0', patch: { oci_tag: '9.9.9' } }],
  });
  const preview = async (): Promise<{ ms: number; changed: number }> => {
    const started = performance.now();
    const res = await fetch(`${service.url}/api/v2/gitops/changes/preview`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body,
    });
    const report = (await res.json()) as { summary: { clusters_changed: number } };
    if (res.status !== 200) throw new Error(`preview answered ${res.status}`);
    return { ms: performance.now() - started, changed: report.summary.clusters_changed };
  };
  await preview(); // warm-up: JIT, the fleet analysis of the served revision
  const previews = [];
  for (let i = 0; i < runs; i++) previews.push(await preview());
  await service.close();

  const clone = mkdtempSync(join(tmpdir(), 'bench-preview-diff-'));
  dirs.push(clone);
  git(tmpdir(), 'clone', '-q', dir, clone);
  const catalogFile = join(clone, 'platform_components/component-0.yaml');
  writeFileSync(catalogFile, readFileSync(catalogFile, 'utf8').replace(/^oci_tag: .*$/m, "oci_tag: '9.9.9'"));
  git(clone, 'commit', '-q', '-am', bump.message!);
  await pack(clone);
  const diff = timeScript('diff', CLI, ['diff', clone, 'HEAD~1', 'HEAD', '--format', 'json'], runs, {
    okExits: [0, 1],
  });

  const p = previews.map((r) => r.ms);
  console.log(
    `A catalog bump on ${clusters.toLocaleString('en')} clusters × 25 components ` +
      `(${previews[0].changed.toLocaleString('en')} clusters' answers change), ${runs} runs each:\n`,
  );
  console.log('| | wall (median) | wall (min–max) |');
  console.log('|---|---:|---:|');
  console.log(
    `| \`POST /api/v2/gitops/changes/preview\` (served revision in memory) | ${s(median(p))} | ` +
      `${s(Math.min(...p))}–${s(Math.max(...p))} |`,
  );
  console.log(
    `| \`gitops-config diff HEAD~1 HEAD --format json\` (a fresh process) | ${s(median(diff.runs))} | ` +
      `${s(Math.min(...diff.runs))}–${s(Math.max(...diff.runs))} |`,
  );
  console.log(`\npreview ÷ diff: ${(median(p) / median(diff.runs)).toFixed(2)}\n`);

  // ---- 2. the history's cost per publication ------------------------------------------------
  const fleetDir = mkdtempSync(join(tmpdir(), 'bench-history-'));
  dirs.push(fleetDir);
  generateConfigRepo(fleetDir, { clusters: historyClusters, componentsPerCluster: 25, git: false });
  const loaded = await new RecordFileLoader().load(await readWorkingTree(fleetDir), 'base');
  const built = createSnapshot(loaded.records, 'base');
  if (!built.ok) throw new Error('the generated fleet does not build');
  const before = built.snapshot;
  judge({ snapshot: before, problems: [] }, undefined); // the served revision's analysis, made at its load

  const timed = <T>(f: () => T): { ms: number; value: T } => {
    const started = performance.now();
    const value = f();
    return { ms: performance.now() - started, value };
  };
  const after = (request: ChangeSetRequest): { ms: number; snapshot: Snapshot } => {
    const { ms: took, value } = timed(() => applyChangeSet(before, request));
    if (!value.ok) throw new Error(JSON.stringify(value.refusal));
    return { ms: took, snapshot: value.snapshot };
  };
  const rows: string[] = [];
  for (const [label, request] of [
    ['a write to one cluster', oneCluster],
    ['a catalog bump', bump],
  ] as const) {
    const applied = [];
    const changed = [];
    const published = [];
    const stalls: number[] = [];
    let count = 0;
    for (let i = 0; i < runs; i++) {
      const next = after(request);
      applied.push(next.ms);
      const ids = timed(() => changedClusterIds(before, next.snapshot));
      changed.push(ids.ms);
      count = ids.value.length;
      // The whole of what a publication adds: the ids worked out and kept compactly.
      const history = new RevisionHistory(async () => undefined);
      history.published(before);
      await history.settled();
      // A timer due every millisecond: the longest wait for it is the longest the event
      // loop was held while the entry was made.
      let last = performance.now();
      let stall = 0;
      const ticker = setInterval(() => {
        const now = performance.now();
        stall = Math.max(stall, now - last);
        last = now;
      }, 1);
      const started = performance.now();
      history.published({ ...next.snapshot, revision: `after-${i}` });
      await history.settled();
      published.push(performance.now() - started);
      clearInterval(ticker);
      stalls.push(Math.max(stall, performance.now() - last));
    }
    const judged = timed(() => judge({ snapshot: after(request).snapshot, problems: [] }, before)).ms;
    rows.push(
      `| ${label} (${count.toLocaleString('en')} ` +
        `${count === 1 ? "cluster's answers change" : "clusters' answers change"}) | ${ms(median(changed))} | ` +
        `${ms(median(published))} | ${ms(median(stalls))} | ${ms(median(applied))} | ${ms(judged)} |`,
    );
  }
  console.log(
    `What the history adds to a publication, on ${historyClusters.toLocaleString('en')} clusters × 25 components ` +
      `(median of ${runs}):\n`,
  );
  console.log(
    '| change | which clusters changed | history entry in all | longest event-loop stall meanwhile | applyChangeSet ' +
      '| judge |',
  );
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const row of rows) console.log(row);
} finally {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}
