// The JSON of one rollout's progress (domain/rollouts/rollout-shapes.ts: RolloutDetail),
// written a slice of clusters at a time: a rollout of 50,000 clusters is several megabytes of
// JSON, and written in one piece every poll would wait for it. Each step's text is turned into
// bytes in its own slice too: the whole text converted at once (a string of steps joined,
// flattened and encoded by the answer) held the event loop for tens of milliseconds at 50,000
// clusters. The bytes are what JSON.stringify(rolloutDetail(progress)) makes (a test holds the
// two to each other).
import type { RolloutProgress } from '../../domain/rollouts/rollout-progress.ts';
import { clusterView, rolloutListItem, stepFields, timeWithMemory } from '../../domain/rollouts/rollout-shapes.ts';
import type { Steps } from '../../domain/steps.ts';
import { runInSlices } from '../../store/runner/event-loop.ts';

export function rolloutDetailJson(progress: RolloutProgress): Promise<Buffer> {
  return runInSlices(detailPieces(progress));
}

function* detailPieces(progress: RolloutProgress): Steps<Buffer> {
  const { steps: _count, ...item } = rolloutListItem(progress);
  const head = JSON.stringify(item);
  const pieces = [Buffer.from(`${head.slice(0, -1)},"steps":[`)];
  const since = timeWithMemory();
  for (const [n, s] of progress.steps.entries()) {
    const clusters: string[] = [];
    for (let i = 0; i < s.clusters.length; i++) {
      clusters.push(JSON.stringify(clusterView(s.clusters[i]!, since)));
      if (i % 64 === 63) yield;
    }
    const fields = JSON.stringify(stepFields(s)).slice(0, -1);
    pieces.push(Buffer.from(`${n === 0 ? '' : ','}${fields},"clusters":[${clusters.join(',')}]}`));
    yield;
  }
  pieces.push(Buffer.from(']}'));
  return Buffer.concat(pieces);
}
