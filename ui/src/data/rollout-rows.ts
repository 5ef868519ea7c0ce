// A rollout as its page shows it: its waves, each with its steps in order and each step's
// clusters counted by state, and every cluster of every step held column by column (the way
// data/fleet-rows.ts holds the fleet), so that the clusters' table filters 50,000 of them by
// step, state and a search in one pass per keystroke. Pure: no DOM, no requests.
import {
  ROLLOUT_CLUSTER_STATES,
  type RolloutClusterCounts,
  type RolloutClusterState,
  type RolloutDetail,
  type RolloutStep,
} from '../api/types.ts';

export interface RolloutRows {
  count: number;
  id: string[];
  /** The step each cluster is in (numbered from 1 across waves). */
  step: Int32Array;
  state: RolloutClusterState[];
  since: (string | null)[];
  message: (string | undefined)[];
  /** `id` in lower case, for the search. */
  searchText: string[];
}

export interface StepSummary {
  step: RolloutStep;
  counts: RolloutClusterCounts;
  /** How many clusters the step has. */
  size: number;
}

export interface WaveSummary {
  name: string;
  steps: StepSummary[];
  size: number;
}

export interface RolloutLayout {
  rows: RolloutRows;
  waves: WaveSummary[];
  /** The wave of each step, by step number. */
  waveOf: Map<number, string>;
}

export interface RolloutFilter {
  query: string;
  /** A step number, or 0 for every step. */
  step: number;
  state: string;
}

export function emptyCounts(): RolloutClusterCounts {
  return { pending: 0, released: 0, fetched: 0, succeeded: 0, failed: 0, offline: 0, pinned: 0 };
}

/** The rollout's clusters in step order (each step's in id order, as the service lists them). */
export function layOutRollout(detail: RolloutDetail): RolloutLayout {
  let count = 0;
  for (const step of detail.steps) count += step.clusters.length;
  const rows: RolloutRows = {
    count,
    id: new Array<string>(count),
    step: new Int32Array(count),
    state: new Array<RolloutClusterState>(count),
    since: new Array<string | null>(count),
    message: new Array<string | undefined>(count),
    searchText: new Array<string>(count),
  };
  const waves: WaveSummary[] = [];
  const waveOf = new Map<number, string>();
  let i = 0;
  for (const step of detail.steps) {
    const counts = emptyCounts();
    for (const cluster of step.clusters) {
      rows.id[i] = cluster.id;
      rows.step[i] = step.step;
      rows.state[i] = cluster.state;
      rows.since[i] = cluster.since;
      rows.message[i] = cluster.message;
      rows.searchText[i] = cluster.id.toLowerCase();
      counts[cluster.state]++;
      i++;
    }
    // Steps come in order and a wave's steps one after another: a new name opens a new wave.
    let wave = waves.at(-1);
    if (!wave || wave.name !== step.wave) waves.push((wave = { name: step.wave, steps: [], size: 0 }));
    wave.steps.push({ step, counts, size: step.clusters.length });
    wave.size += step.clusters.length;
    waveOf.set(step.step, step.wave);
  }
  return { rows, waves, waveOf };
}

/** The row numbers the filter keeps, in order. */
export function filterRolloutRows(rows: RolloutRows, filter: RolloutFilter): Int32Array {
  const query = filter.query.trim().toLowerCase();
  const { step, state } = filter;
  const kept = new Int32Array(rows.count);
  let n = 0;
  for (let i = 0; i < rows.count; i++) {
    if (step && rows.step[i] !== step) continue;
    if (state && rows.state[i] !== state) continue;
    if (query && !rows.searchText[i].includes(query)) continue;
    kept[n++] = i;
  }
  return kept.subarray(0, n);
}

/** "3 fetched, 21 pending": the states that have clusters, in the order of the states. */
export function describeCounts(counts: RolloutClusterCounts): string {
  const parts = ROLLOUT_CLUSTER_STATES.filter((state) => counts[state] > 0).map(
    (state) => `${counts[state].toLocaleString('en')} ${state}`,
  );
  return parts.length ? parts.join(', ') : 'no cluster';
}

export type StepPhase = 'pending' | 'next' | 'released' | 'soaking' | 'done';

/** Where a step stands: not released (the next one, or a later one), released and not done, soaking, done. */
export function stepPhase(step: RolloutStep, released: number, now: number): StepPhase {
  if (step.step > released) return step.step === released + 1 ? 'next' : 'pending';
  if (!step.done_at) return 'released';
  if (step.soak_ends_at && Date.parse(step.soak_ends_at) > now) return 'soaking';
  return 'done';
}
