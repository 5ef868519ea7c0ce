// The JSON of one rollout's progress (domain/rollouts/rollout-shapes.ts: RolloutDetail),
// written a slice of clusters at a time: a rollout of 50,000 clusters is several megabytes of
// JSON, and written in one piece every poll would wait for it. The text is what
// JSON.stringify(rolloutDetail(progress)) makes (a test holds the two to each other).
import type { ClusterProgress } from '../../domain/rollouts/cluster-progress.ts';
import type { RolloutProgress } from '../../domain/rollouts/rollout-progress.ts';
import { rolloutListItem } from '../../domain/rollouts/rollout-shapes.ts';
import type { Steps } from '../../domain/steps.ts';
import { runInSlices } from '../../store/runner/event-loop.ts';

export function rolloutDetailJson(progress: RolloutProgress): Promise<string> {
  return runInSlices(detailPieces(progress));
}

const time = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

function* detailPieces(progress: RolloutProgress): Steps<string> {
  const { steps: _count, ...item } = rolloutListItem(progress);
  const head = JSON.stringify(item);
  const steps: string[] = [];
  // The members of a step mostly share their `since` (its release): converted once.
  let lastMs: number | null = null;
  let lastText: string | null = null;
  const since = (ms: number | null): string | null => {
    if (ms !== lastMs) [lastMs, lastText] = [ms, time(ms)];
    return lastText;
  };
  for (const s of progress.steps) {
    const fields = {
      step: s.plan.step,
      wave: s.plan.wave,
      released_in: s.times.released_in,
      released_at: time(s.times.released_at),
      done_at: time(s.times.done_at),
      soak_ends_at: time(s.soakEndsAt),
    };
    const clusters: string[] = [];
    for (let i = 0; i < s.clusters.length; i++) {
      clusters.push(JSON.stringify(clusterView(s.clusters[i]!, since)));
      if (i % 64 === 63) yield;
    }
    steps.push(`${JSON.stringify(fields).slice(0, -1)},"clusters":[${clusters.join(',')}]}`);
    yield;
  }
  return `${head.slice(0, -1)},"steps":[${steps.join(',')}]}`;
}

function clusterView(c: ClusterProgress, since: (ms: number | null) => string | null): object {
  const view: { id: string; state: string; since: string | null; message?: string } = { id: c.id, state: c.state, since: since(c.since) };
  if (c.message !== undefined) view.message = c.message;
  return view;
}
