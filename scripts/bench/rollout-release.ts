// Item 3 of the rollout benchmark: a release commit under the warm services. On the rollout's
// side a commit raises `released` by one — the next 5,000 clusters of 50,000 get the rollout's
// answer — and a cluster of that step is polled until its answer changes; on the other side
// the same kind of commit without a rollout: one namespace record's annotation edited (a
// quarter of the fleet uses it, so its namespaces answers change; no catalog entry, which
// every cluster uses), and a cluster using it polled the same way. Both are git commits in
// the checkout the service watches, the way a merged pull request reaches a read-only
// deployment. Then, once the service has had SETTLE_MS to finish what follows a publication
// (the history entry, the rollout's evaluation), each service's RSS as the kernel counts it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git } from './git.ts';
import { HttpClient } from './http-client.ts';
import type { NodeProcess } from './node-process.ts';
import { procMemory } from './proc-memory.ts';
import type { RolloutFleet, Side } from './rollout-fleet.ts';
import { ROLLOUT_COMPONENT, ROLLOUT_FILE, ROLLOUT_SET, rolloutYaml, stepCount, stepRange } from './rollout-record.ts';
import { AUTH, clusterPath } from './scale/fleet.ts';
import { type Spread, spread } from './stats.ts';

const SETTLE_MS = 3000;
const POLL_EVERY_MS = 5;
const TIMEOUT_MS = 120_000;
/** The namespace the other side edits, and a cluster that uses it (cluster i uses team-i to team-(i+4)). */
const NAMESPACE = 'team-0';
const NAMESPACE_CLUSTER = 0;

export interface ReleaseRun {
  /** The commit (the file written, then committed) → the watched cluster's new answer, ms. */
  servedMs: number;
  /** Of which writing the file and `git commit` took (a checkout of 50,000 files: git reads the whole index), ms. */
  commitMs: number;
  rssBefore: number;
  rssAfter: number;
  hwmAfter: number;
}

export interface ReleaseSide {
  runs: ReleaseRun[];
  servedMs: Spread;
  rssBefore: Spread;
  rssAfter: Spread;
}

export interface ReleaseResult {
  sides: Record<Side, ReleaseSide>;
  /** RSS after, rollout / no rollout, per repetition (the two back to back) and their median. */
  rssRatios: number[];
  rssRatio: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes one file, commits it, and polls `path` until its ETag moves; the new body must satisfy `check`. */
async function commitAndWatch(
  service: NodeProcess,
  repo: string,
  file: string,
  text: string,
  path: string,
  check: (body: string) => boolean,
): Promise<ReleaseRun> {
  const client = new HttpClient(service.port, 1, AUTH);
  try {
    const before = await client.get(path);
    const rssBefore = procMemory(service.pid)!.rss;
    const started = performance.now();
    writeFileSync(join(repo, file), text);
    git(repo, 'commit', '-q', '-a', '-m', `bench: ${file}`);
    const commitMs = performance.now() - started;
    for (;;) {
      const answer = await client.get(path);
      if (answer.status === 200 && answer.headers.etag !== before.headers.etag) {
        const servedMs = answer.sentAt + answer.ms - started;
        if (!check(answer.body.toString('utf8'))) throw new Error(`${path}: the new answer is not the commit's`);
        await pause(SETTLE_MS);
        const after = procMemory(service.pid)!;
        return { servedMs, commitMs, rssBefore, rssAfter: after.rss, hwmAfter: after.hwm };
      }
      if (performance.now() - started > TIMEOUT_MS) throw new Error(`${path}: no new answer in ${TIMEOUT_MS} ms`);
      await pause(POLL_EVERY_MS);
    }
  } finally {
    client.close();
  }
}

/** The rollout's side, repetition k: step k + 2 released, its first cluster watched until it serves the set. */
function releaseNext(fleet: RolloutFleet, service: NodeProcess, k: number): Promise<ReleaseRun> {
  const released = k + 2;
  const { first } = stepRange(released, fleet.fleet.clusters);
  const servesSet = (body: string) => {
    type Input = { id: string; component_version: string; source: { oci_tag: string } };
    const { inputs } = JSON.parse(body) as { inputs: Input[] };
    const input = inputs.find((i) => i.id === ROLLOUT_COMPONENT);
    return input?.component_version === ROLLOUT_SET.component_version && input.source.oci_tag === ROLLOUT_SET.oci_tag;
  };
  const text = rolloutYaml(fleet.fleet.clusters, released);
  const path = clusterPath(first, 'platform-components');
  return commitAndWatch(service, fleet.repos.rollout, ROLLOUT_FILE, text, path, servesSet);
}

/** The other side, repetition k: the namespace's owner annotation edited. */
function editNamespace(fleet: RolloutFleet, service: NodeProcess, k: number): Promise<ReleaseRun> {
  const file = `namespaces/${NAMESPACE}.yaml`;
  const owner = `owner-0-release-${k}@example.com`;
  const text = readFileSync(join(fleet.repos['no rollout'], file), 'utf8').replace(/owner: .*/, `owner: ${owner}`);
  const path = clusterPath(NAMESPACE_CLUSTER, 'namespaces');
  return commitAndWatch(service, fleet.repos['no rollout'], file, text, path, (body) => body.includes(owner));
}

export async function measureRelease(
  fleet: RolloutFleet,
  services: Record<Side, NodeProcess>,
  repeat: number,
  log: (line: string) => void,
): Promise<ReleaseResult> {
  const steps = stepCount(fleet.fleet.clusters);
  if (repeat + 1 > steps) throw new Error(`--repeat ${repeat}: the rollout has ${steps} steps, step 1 released`);
  const runs: Record<Side, ReleaseRun[]> = { rollout: [], 'no rollout': [] };
  const once = { rollout: releaseNext, 'no rollout': editNamespace };
  const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
  for (let k = 0; k < repeat; k++) {
    const order: Side[] = k % 2 === 0 ? ['rollout', 'no rollout'] : ['no rollout', 'rollout'];
    for (const side of order) {
      const run = await once[side](fleet, services[side], k);
      runs[side].push(run);
      const what = side === 'rollout' ? `step ${k + 2} released` : `namespace ${NAMESPACE} edited`;
      const rss = `RSS ${mib(run.rssBefore)} before, ${mib(run.rssAfter)} after (peak ${mib(run.hwmAfter)})`;
      const served = `served after ${run.servedMs.toFixed(0)} ms (the commit ${run.commitMs.toFixed(0)} ms)`;
      log(`  ${side}, ${what}: ${served}; ${rss}`);
    }
  }
  const sideOf = (rs: ReleaseRun[]): ReleaseSide => ({
    runs: rs,
    servedMs: spread(rs.map((r) => r.servedMs)),
    rssBefore: spread(rs.map((r) => r.rssBefore)),
    rssAfter: spread(rs.map((r) => r.rssAfter)),
  });
  const rssRatios = runs.rollout.map((r, k) => r.rssAfter / runs['no rollout'][k].rssAfter);
  const sides = { rollout: sideOf(runs.rollout), 'no rollout': sideOf(runs['no rollout']) };
  return { sides, rssRatios, rssRatio: spread(rssRatios).median };
}
