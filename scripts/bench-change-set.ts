// One change set of N writes against N single writes, on the git backend: generates a config
// repo of 10,000 clusters (scripts/generate-repo.ts), starts the real service in crud mode on
// it, and times, round after round, N merge patches of N different clusters sent one by one
// (N commits) and the same kind of patches sent as one change set (one commit), each until
// the last change is served by the read endpoint. Prints both side by side and their ratio.
// Usage:
//   npm run bench -- --change-set [clusters=10000] [writes=100] [rounds=5]
//   npm run bench:change-set -- [clusters=10000] [writes=100] [rounds=5]
// With --largest, the largest change set the service takes instead (./bench/largest-change-set.ts):
//   npm run bench:change-set -- --largest [clusters=1000]
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { timedWrite } from './bench/rest-write.ts';
import { crudFleetDir, startCrudFleet } from './bench/crud-fleet.ts';
import { spread } from './bench/stats.ts';
import { benchLargestChangeSet } from './bench/largest-change-set.ts';
import { clusterDns, clusterId } from './generate-repo.ts';

const [clustersArg, writesArg = '100', roundsArg = '5'] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
if (process.argv.includes('--largest')) {
  await benchLargestChangeSet(Number(clustersArg ?? 1000));
  process.exit(0);
}
const CLUSTERS = Number(clustersArg ?? 10000);
const WRITES = Number(writesArg);
const ROUNDS = Number(roundsArg);
const TOKEN = 'bench-change-set-token';

const dir = crudFleetDir('bench-change-set-');
const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
try {
  const { service } = await startCrudFleet(dir, CLUSTERS, TOKEN);

  let serial = 0;
  /** The write of cluster i in a round: a new replicaCount for one of its components. */
  const patchOf = (i: number) => ({ patches: { [`component-${i % 25}`]: { replicaCount: String(1000 + ++serial) } } });
  /** WRITES clusters spread over the fleet, different in every round. */
  const targets = (round: number) => Array.from({ length: WRITES }, (_, k) => ((round * WRITES + k) * 4099) % CLUSTERS);

  /** Resolves once the read endpoint serves `value` for the cluster: the change is served. */
  const served = async (i: number, value: string): Promise<void> => {
    for (;;) {
      const res = await fetch(`${service.url}/api/v2/gitops/clusters/${clusterDns(i)}/platform-components`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      const body = (await res.json()) as { inputs: { id: string; patches: Record<string, string> }[] };
      if (body.inputs.find((input) => input.id === `component-${i % 25}`)?.patches.replicaCount === value) return;
    }
  };

  const singles: number[] = [];
  const sets: number[] = [];
  // Warm-up: JIT, file system caches, the Git index cache, for both ways.
  for (let i = 0; i < 5; i++)
    await timedWrite(
      `${service.url}/clusters/${clusterId(i)}`,
      'PATCH',
      TOKEN,
      patchOf(i),
      'application/merge-patch+json',
    );
  await timedWrite(`${service.url}/api/v2/gitops/changes`, 'POST', TOKEN, {
    writes: [5, 6, 7].map((i) => ({ op: 'patch', collection: 'clusters', id: clusterId(i), patch: patchOf(i) })),
  });

  const commitsBefore = Number(git('rev-list', '--count', 'HEAD'));
  for (let round = 0; round < ROUNDS; round++) {
    // One by one: N requests, N commits.
    let clusters = targets(2 * round);
    let started = performance.now();
    let last = '';
    for (const i of clusters) {
      const patch = patchOf(i);
      last = Object.values(patch.patches)[0].replicaCount;
      await timedWrite(
        `${service.url}/clusters/${clusterId(i)}`,
        'PATCH',
        TOKEN,
        patch,
        'application/merge-patch+json',
      );
    }
    await served(clusters.at(-1)!, last);
    singles.push(performance.now() - started);

    // As one change set: one request, one commit.
    clusters = targets(2 * round + 1);
    started = performance.now();
    const writes = clusters.map((i) => ({ op: 'patch', collection: 'clusters', id: clusterId(i), patch: patchOf(i) }));
    last = Object.values(writes.at(-1)!.patch.patches)[0].replicaCount;
    await timedWrite(`${service.url}/api/v2/gitops/changes`, 'POST', TOKEN, {
      message: `bench round ${round}`,
      writes,
    });
    await served(clusters.at(-1)!, last);
    sets.push(performance.now() - started);
  }
  await service.close();

  const commits = Number(git('rev-list', '--count', 'HEAD')) - commitsBefore;
  const status = git('status', '--porcelain');
  const one = spread(singles);
  const set = spread(sets);
  const ms = (v: number) => `${v.toFixed(0)} ms`;
  console.log(
    `\n${WRITES} merge patches of ${WRITES} clusters of ${CLUSTERS}, until the last is served (${ROUNDS} rounds ` +
      `each, median [min-max]):`,
  );
  console.log(
    `  one by one    ${ms(one.median).padStart(9)} [${ms(one.min)}-${ms(one.max)}]  ` +
      `${(one.median / WRITES).toFixed(1)} ms a write, ${WRITES} commits`,
  );
  console.log(
    `  one change set${ms(set.median).padStart(9)} [${ms(set.min)}-${ms(set.max)}]  ` +
      `${(set.median / WRITES).toFixed(1)} ms a write, 1 commit`,
  );
  console.log(`  ratio         ${(one.median / set.median).toFixed(1)}x faster as one change set`);
  const expected = ROUNDS * (WRITES + 1);
  console.log(
    `\n${commits} commits (expected ${expected}); working tree ${status === '' ? 'clean' : `NOT clean:\n${status}`}`,
  );
  if (commits !== expected || status !== '') process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
