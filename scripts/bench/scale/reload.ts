// Item 3 of the scale benchmark: one cluster file changes under a warm service. Measured
// from outside, as a cluster or a kubelet would see it:
//   - write → a GET of that cluster carries the new X-Config-Revision;
//   - the longest event-loop stall: the slowest answer of a tight loop of sequential
//     GET /health during the reload, minus the median /health answer at rest just before;
//   - p99 of reads of other clusters during the reload, against the same loop at rest;
//   - whether an unaffected cluster's ETags stayed the same (they must: same bytes).
import { readFileSync, writeFileSync } from 'node:fs';
import { HttpClient, loopUntil, type Sample } from '../http-client.ts';
import type { NodeProcess } from '../node-process.ts';
import { median, percentile } from '../stats.ts';
import { AUTH, clusterFile, clusterPath, ENDPOINTS, type Fleet } from './fleet.ts';

const REST_MS = 1000;
/** Loops keep running this long after the new revision is seen: work right after the switch still counts. */
const TAIL_MS = 300;
const TIMEOUT_MS = 120_000;
const POLL_EVERY_MS = 10;
const READ_LOOPS = 2;

export interface ReloadChange {
  cluster: number;
  /** Write → first GET of the cluster with the new revision, ms; null if not seen within the timeout. */
  revisionMs: number | null;
  /** Write → the service's "published a new revision" log line read, ms. */
  publishedLogMs: number | null;
  healthAtRestMs: number;
  healthMaxMs: number;
  stallMs: number;
  readP99AtRestMs: number;
  readP99Ms: number;
  /** The slowest read during the reload: a stall holds up only the few reads in flight, which p99 of a loop hides. */
  readMaxMs: number;
  reads: number;
  readErrors: number;
  unaffectedEtagUnchanged: boolean;
  changedEtagMoved: boolean;
}

export interface ReloadResult {
  changes: ReloadChange[];
  revisionMs: number | null;
  publishedLogMs: number | null;
  healthAtRestMs: number;
  stallMs: number;
  readP99AtRestMs: number;
  readP99Ms: number;
  readMaxMs: number;
  etagUnchanged: string;
}

/** Files changed, with their text before, to put back once the service is stopped. */
export type Restore = { file: string; text: string }[];

/** Samples whose request was in flight at some moment of [from, to]. */
const overlapping = (samples: Sample[], from: number, to: number) =>
  samples.filter((s) => s.sentAt <= to && s.sentAt + s.ms >= from);
/** Max by reduce: a long reload gives more samples than a spread into Math.max can take. */
const slowest = (samples: Sample[]) => (samples.length ? samples.reduce((max, s) => Math.max(max, s.ms), 0) : NaN);
const p99 = (samples: Sample[]) =>
  samples.length
    ? percentile(
        samples.map((s) => s.ms).sort((a, b) => a - b),
        99,
      )
    : NaN;

async function etags(client: HttpClient, i: number): Promise<string[]> {
  return Promise.all(ENDPOINTS.map(async (e) => String((await client.get(clusterPath(i, e))).headers.etag)));
}

/** Background loops: /health on one connection, reads of other clusters on READ_LOOPS more. */
function startLoops(service: NodeProcess, fleet: Fleet, skip: number) {
  let stopped = false;
  const health = new HttpClient(service.port, 1);
  const reads = new HttpClient(service.port, READ_LOOPS, AUTH);
  let next = skip + 1;
  const otherPath = () => {
    if (next % fleet.clusters === skip) next++;
    const path = clusterPath(next % fleet.clusters, ENDPOINTS[next % ENDPOINTS.length]);
    next++;
    return path;
  };
  const healthSamples = loopUntil(
    () => health.get('/health'),
    () => stopped,
  );
  const readSamples = Promise.all(
    Array.from({ length: READ_LOOPS }, () =>
      loopUntil(
        () => reads.get(otherPath()),
        () => stopped,
      ),
    ),
  );
  return {
    async stop() {
      stopped = true;
      const result = { health: await healthSamples, reads: (await readSamples).flat() };
      health.close();
      reads.close();
      return result;
    },
  };
}

async function changeOne(
  fleet: Fleet,
  service: NodeProcess,
  target: number,
  serial: number,
  restore: Restore,
): Promise<ReloadChange> {
  const client = new HttpClient(service.port, 1, AUTH);
  const unaffected = (target + 1) % fleet.clusters;
  const watched = clusterPath(target, 'platform-components');
  try {
    // At rest: the same loops for a second, for the yardsticks.
    const rest = startLoops(service, fleet, target);
    await new Promise((r) => setTimeout(r, REST_MS));
    const atRest = await rest.stop();
    const before = await client.get(watched);
    const revisionBefore = before.headers['x-config-revision'];
    const unaffectedBefore = await etags(client, unaffected);

    const loops = startLoops(service, fleet, target);
    let publishedAt: number | undefined;
    const unlisten = service.onLine((line, at) => {
      if (line.msg === 'published a new revision' && publishedAt === undefined) publishedAt = at;
    });
    const file = clusterFile(fleet.repo, target);
    const text = readFileSync(file, 'utf8');
    restore.push({ file, text });
    const wroteAt = performance.now();
    writeFileSync(file, text.replace(/^cluster_name: .*$/m, `cluster_name: k8s-${target}-bench-change-${serial}`));
    let seenAt: number | undefined;
    let after = before;
    while (seenAt === undefined && performance.now() - wroteAt < TIMEOUT_MS) {
      await new Promise((r) => setTimeout(r, POLL_EVERY_MS));
      after = await client.get(watched);
      if (after.status === 200 && after.headers['x-config-revision'] !== revisionBefore)
        seenAt = after.sentAt + after.ms;
    }
    await new Promise((r) => setTimeout(r, TAIL_MS));
    const during = await loops.stop();
    unlisten();
    const end = (seenAt ?? performance.now()) + TAIL_MS;

    const healthAtRestMs = median(atRest.health.map((s) => s.ms));
    const healthMaxMs = slowest(overlapping(during.health, wroteAt, end));
    const reads = overlapping(during.reads, wroteAt, end);
    return {
      cluster: target,
      revisionMs: seenAt === undefined ? null : seenAt - wroteAt,
      publishedLogMs: publishedAt === undefined ? null : publishedAt - wroteAt,
      healthAtRestMs,
      healthMaxMs,
      stallMs: healthMaxMs - healthAtRestMs,
      readP99AtRestMs: p99(atRest.reads),
      readP99Ms: p99(reads),
      readMaxMs: slowest(reads),
      reads: reads.length,
      readErrors: reads.filter((s) => s.status !== 200).length,
      unaffectedEtagUnchanged: (await etags(client, unaffected)).join() === unaffectedBefore.join(),
      changedEtagMoved: after.headers.etag !== before.headers.etag,
    };
  } finally {
    client.close();
  }
}

export async function measureReload(
  fleet: Fleet,
  service: NodeProcess,
  repeat: number,
  restore: Restore,
  log: (line: string) => void,
): Promise<ReloadResult> {
  const changes: ReloadChange[] = [];
  for (let k = 0; k < repeat; k++) {
    const target = Math.floor(((k + 0.5) * fleet.clusters) / repeat);
    const change = await changeOne(fleet, service, target, k, restore);
    changes.push(change);
    const ms = (v: number | null) => (v === null ? 'not seen' : `${v.toFixed(0)} ms`);
    log(
      `  change ${k + 1}/${repeat} (cluster ${target}): new revision after ${ms(change.revisionMs)}, stall ` +
        `${change.stallMs.toFixed(0)} ms, ` +
        `read p99 ${change.readP99Ms.toFixed(1)} ms (at rest ${change.readP99AtRestMs.toFixed(1)} ms), max ` +
        `${change.readMaxMs.toFixed(0)} ms, unaffected ETag ` +
        `${change.unaffectedEtagUnchanged ? 'unchanged' : 'CHANGED'}`,
    );
    // Let the service settle before the next change, so one reload's tail is not the next one's start.
    await new Promise((r) => setTimeout(r, 1000));
  }
  const med = (values: (number | null)[]) => {
    const known = values.filter((v): v is number => v !== null && Number.isFinite(v));
    return known.length === values.length ? median(known) : null;
  };
  return {
    changes,
    revisionMs: med(changes.map((c) => c.revisionMs)),
    publishedLogMs: med(changes.map((c) => c.publishedLogMs)),
    healthAtRestMs: median(changes.map((c) => c.healthAtRestMs)),
    stallMs: median(changes.map((c) => c.stallMs)),
    readP99AtRestMs: median(changes.map((c) => c.readP99AtRestMs)),
    readP99Ms: median(changes.map((c) => c.readP99Ms)),
    readMaxMs: median(changes.map((c) => c.readMaxMs)),
    etagUnchanged: `${changes.filter((c) => c.unaffectedEtagUnchanged).length}/${changes.length}`,
  };
}

/** Puts the changed files back (after the service has stopped, so that no reload follows). */
export function restoreFiles(restore: Restore): void {
  for (const { file, text } of [...restore].reverse()) writeFileSync(file, text);
}
