// The JSON of one rollout's progress (domain/rollouts/rollout-shapes.ts: RolloutDetail),
// written a slice of clusters at a time: a rollout of 50,000 clusters is several megabytes of
// JSON, and written in one piece every poll would wait for it. The text is what
// JSON.stringify(rolloutDetail(progress)) makes (a test holds the two to each other).
import type { RolloutProgress } from '../../domain/rollouts/rollout-progress.ts';
import { clusterView, rolloutListItem, stepFields, timeWithMemory } from '../../domain/rollouts/rollout-shapes.ts';
import type { Steps } from '../../domain/steps.ts';
import { runInSlices } from '../../store/runner/event-loop.ts';

export function rolloutDetailJson(progress: RolloutProgress): Promise<string> {
  return runInSlices(detailPieces(progress));
}

function* detailPieces(progress: RolloutProgress): Steps<string> {
  const { steps: _count, ...item } = rolloutListItem(progress);
  const head = JSON.stringify(item);
  const steps: string[] = [];
  const since = timeWithMemory();
  for (const s of progress.steps) {
    const clusters: string[] = [];
    for (let i = 0; i < s.clusters.length; i++) {
      clusters.push(JSON.stringify(clusterView(s.clusters[i]!, since)));
      if (i % 64 === 63) yield;
    }
    steps.push(`${JSON.stringify(stepFields(s)).slice(0, -1)},"clusters":[${clusters.join(',')}]}`);
    yield;
  }
  return `${head.slice(0, -1)},"steps":[${steps.join(',')}]}`;
}
