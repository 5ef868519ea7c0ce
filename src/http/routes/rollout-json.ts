// The JSON of one rollout's progress (domain/rollouts/rollout-shapes.ts: RolloutDetail),
// written a slice of clusters at a time: a rollout of 50,000 clusters is several megabytes of
// JSON, and written in one piece every poll would wait for it. The bytes are the UTF-8 of what
// JSON.stringify(rolloutDetail(progress)) makes (a test holds the two to each other), each
// piece encoded in its own step (../rest/json-in-slices.ts says why).
import type { RolloutProgress } from '../../domain/rollouts/rollout-progress.ts';
import { clusterView, rolloutListItem, stepFields, timeWithMemory } from '../../domain/rollouts/rollout-shapes.ts';
import type { Steps } from '../../domain/steps.ts';
import { runInSlices } from '../../store/runner/event-loop.ts';
import { TextBytes } from '../rest/json-in-slices.ts';

export function rolloutDetailJson(progress: RolloutProgress): Promise<Buffer> {
  return runInSlices(detailPieces(progress));
}

function* detailPieces(progress: RolloutProgress): Steps<Buffer> {
  const { steps: _count, ...item } = rolloutListItem(progress);
  const out = new TextBytes();
  out.add(`${JSON.stringify(item).slice(0, -1)},"steps":[`);
  const since = timeWithMemory();
  for (const [n, s] of progress.steps.entries()) {
    out.add(`${n === 0 ? '' : ','}${JSON.stringify(stepFields(s)).slice(0, -1)},"clusters":[`);
    // 64 clusters a piece: each piece is a step, and one string to encode.
    for (let from = 0; from < s.clusters.length; from += 64) {
      const clusters = s.clusters.slice(from, from + 64).map((cluster) => JSON.stringify(clusterView(cluster, since)));
      out.add(`${from === 0 ? '' : ','}${clusters.join(',')}`);
      yield;
    }
    out.add(']}');
    yield;
  }
  out.add(']}');
  return out.bytes();
}
