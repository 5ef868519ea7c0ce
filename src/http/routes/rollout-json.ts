// The JSON of one rollout's progress (domain/rollouts/rollout-shapes.ts: RolloutDetail),
// written a slice of clusters at a time: a rollout of 50,000 clusters is several megabytes of
// JSON, and written in one piece every poll would wait for it. The bytes are the UTF-8 of what
// JSON.stringify(rolloutDetail(progress)) makes (a test holds the two to each other), each
// piece encoded in its own step (../rest/json-in-slices.ts says why).
import type { RolloutProgress } from '../../domain/rollouts/rollout-progress.ts';
import { rolloutListItem, stepFields, timeWithMemory } from '../../domain/rollouts/rollout-shapes.ts';
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
    if (n > 0) out.add(',');
    if (s.released) {
      yield* stepPieces(s, since, out);
      continue;
    }
    let written = unreleasedJson.get(s);
    if (written === undefined) {
      const own = new TextBytes();
      yield* stepPieces(s, since, own);
      unreleasedJson.set(s, (written = Buffer.from(own.bytes())));
    }
    out.addBytes(written);
    yield;
  }
  out.add(']}');
  return out.bytes();
}

type StepProgress = RolloutProgress['steps'][number];

/**
 * The JSON of unreleased steps by their progress, which the domain shares from one evaluation
 * to the next while the plan stays the same (domain/rollouts/rollout-progress.ts): the pending
 * entries of a rollout's steps to come are written once, not at every request.
 */
const unreleasedJson = new WeakMap<StepProgress, Buffer>();

function* stepPieces(s: StepProgress, since: (ms: number | null) => string | null, out: TextBytes): Steps<void> {
  out.add(`${JSON.stringify(stepFields(s)).slice(0, -1)},"clusters":[`);
  // 64 clusters a piece: each piece is a step, and one string to encode.
  for (let from = 0; from < s.clusters.length; from += 64) {
    let piece = '';
    for (let i = from; i < Math.min(from + 64, s.clusters.length); i++)
      piece += `${i === 0 ? '' : ','}${clusterJson(s.clusters[i], since(s.clusters[i].since))}`;
    out.add(piece);
    yield;
  }
  out.add(']}');
}

type ClusterProgress = StepProgress['clusters'][number];

/**
 * JSON.stringify(clusterView(c, since)) written directly: 50,000 objects made only to be
 * stringified were most of the answer's time. The state is one of a few words and the time an
 * RFC 3339 string, neither needing escapes; the id and the message go through JSON.stringify.
 */
function clusterJson(c: ClusterProgress, since: string | null): string {
  const time = since === null ? 'null' : `"${since}"`;
  const message = c.message === undefined ? '' : `,"message":${JSON.stringify(c.message)}`;
  return `{"id":${JSON.stringify(c.id)},"state":"${c.state}","since":${time}${message}}`;
}
