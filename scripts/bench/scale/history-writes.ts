// Back-to-back writes of definitions (a namespace replaced, a catalog entry's tag bumped: each
// changes the answers of clusters all over the fleet, which the history of revisions then
// finds by a walk of the fleet) on one crud service with the history as it is and one whose
// history records nothing (../without-history.ts), running at once, the writes in alternating
// rounds: what the history's walk costs the writes that follow it.
//
// The warm-up writes every catalog entry and namespace the rounds write, once: the first write
// of each may cost more than the next (a definition that grows is checked against the fleet),
// and a round that holds those first writes would compare them with later ones. After each of
// its rounds the service with the history is asked for its list, which waits for the walks
// that round left behind: they would otherwise run during the other service's round, on the
// same two cores, and slow that one instead.
import { dirname, join } from 'node:path';
import { git } from '../git.ts';
import { type NodeProcess, SERVICE_MAIN, startNodeProcess, untilReady } from '../node-process.ts';
import { timedWrite } from '../rest-write.ts';
import { median } from '../stats.ts';
import { AUTH, MAX_OPEN_FILES, serviceEnv, WRITE_TOKEN } from './fleet.ts';

/** Pairs written before the rounds: every catalog entry (25) and namespace (20) the rounds write. */
const WARMUP = 25;

export interface HistoryWritesResult {
  clusters: number;
  /**
   * p50 of `PUT /namespaces/{id}`, ms, with the history and without it over all rounds; the
   * ratio is the median of the rounds' own ratios (each round's p50s), which a machine whose
   * load changes between rounds moves less than the ratio of the two p50s.
   */
  putNamespace: Pair;
  /** The same for a merge patch of a catalog entry's oci_tag. */
  patchCatalog: Pair;
  writes: number;
}

interface Pair {
  withHistory: number;
  withoutHistory: number;
  ratio: number;
  /** Each round's ratio of the p50s, in order. */
  rounds: number[];
}

interface Target {
  history: boolean;
  service: NodeProcess;
  serial: number;
  namespaces: number[];
  catalog: number[];
}

async function writeBoth(t: Target, record: boolean): Promise<void> {
  const i = t.serial++;
  const base = `http://127.0.0.1:${t.service.port}`;
  const namespace = {
    labels: { team: `team-${i % 20}`, tier: 'app', serial: String(i) },
    annotations: { owner: `owner-${i % 20}@example.com` },
  };
  const put = await timedWrite(`${base}/namespaces/team-${i % 20}`, 'PUT', WRITE_TOKEN, namespace);
  const patch = await timedWrite(
    `${base}/platform_components/component-${i % 25}`,
    'PATCH',
    WRITE_TOKEN,
    { oci_tag: `1.0.${1000 + i}` },
    'application/merge-patch+json',
  );
  if (!record) return;
  t.namespaces.push(put);
  t.catalog.push(patch);
}

/** Waits until the service's history lists every revision written so far. */
async function settled(t: Target): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${t.service.port}/api/v2/gitops/revisions?limit=1`, { headers: AUTH });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`GET /revisions: ${res.status}`);
}

/**
 * `repo`: a Git repo of the fleet, cloned once per service. `writes` pairs (a PUT and a PATCH)
 * per service, in `rounds` rounds; `serviceMain`: the service to start (another checkout's).
 */
export async function measureHistoryWrites(
  repo: string,
  root: string,
  clusters: number,
  writes: number,
  rounds: number,
  log: (line: string) => void,
  serviceMain = SERVICE_MAIN,
): Promise<HistoryWritesResult> {
  const targets: Target[] = [];
  const perRound = Math.ceil(writes / rounds);
  try {
    for (const history of [true, false]) {
      const copy = join(root, `history-writes-${history ? 'with' : 'without'}`);
      git(root, 'clone', '-q', `file://${repo}`, copy);
      const extra: Record<string, string> = { API_MODE: 'crud', CRUD_AUTH_TOKEN: WRITE_TOKEN };
      // The checkout's own copy: the history it switches off must be the one its service loads.
      const withoutHistory = join(dirname(serviceMain), '..', 'scripts', 'bench', 'without-history.ts');
      if (!history) extra.NODE_OPTIONS = `--import ${withoutHistory}`;
      const service = await startNodeProcess(serviceMain, {
        env: serviceEnv(copy, extra),
        maxOpenFiles: MAX_OPEN_FILES,
      });
      const readyMs = await untilReady(service);
      log(`  crud service ${history ? 'with' : 'without'} the history ready in ${(readyMs / 1000).toFixed(2)} s`);
      targets.push({ history, service, serial: 0, namespaces: [], catalog: [] });
    }
    for (const t of targets) for (let i = 0; i < WARMUP; i++) await writeBoth(t, false);
    for (const t of targets) if (t.history) await settled(t);
    for (let round = 0; round < rounds; round++) {
      for (const t of round % 2 === 0 ? targets : [...targets].reverse()) {
        for (let i = 0; i < perRound; i++) await writeBoth(t, true);
        if (t.history) await settled(t);
      }
    }
  } finally {
    await Promise.all(targets.map((t) => t.service.stop()));
  }
  const [withHistory, withoutHistory] = targets;
  const pair = (of: (t: Target) => number[]): Pair => {
    const [a, b] = [of(withHistory), of(withoutHistory)];
    const roundRatios = Array.from({ length: rounds }, (_, r) => {
      const slice = (ms: number[]) => ms.slice(r * perRound, (r + 1) * perRound);
      return median(slice(a)) / median(slice(b));
    });
    return { withHistory: median(a), withoutHistory: median(b), ratio: median(roundRatios), rounds: roundRatios };
  };
  const result = {
    clusters,
    putNamespace: pair((t) => t.namespaces),
    patchCatalog: pair((t) => t.catalog),
    writes: withHistory.namespaces.length,
  };
  const { putNamespace: put, patchCatalog: patch } = result;
  log(
    `  back-to-back at ${clusters}: PUT /namespaces p50 ${put.withHistory.toFixed(1)} ms with the history, ` +
      `${put.withoutHistory.toFixed(1)} without (rounds ${put.rounds.map((r) => r.toFixed(2)).join(', ')}: ` +
      `${put.ratio.toFixed(2)}×); PATCH of a catalog entry ${patch.withHistory.toFixed(1)} / ` +
      `${patch.withoutHistory.toFixed(1)} ms (rounds ${patch.rounds.map((r) => r.toFixed(2)).join(', ')}: ` +
      `${patch.ratio.toFixed(2)}×)`,
  );
  return result;
}
