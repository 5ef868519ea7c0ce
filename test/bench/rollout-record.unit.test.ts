// The rollout benchmark's record (scripts/bench/rollout-record.ts): a valid rollout whose steps,
// as the domain plans them over clusters named as the generator names them, are the runs of
// cluster numbers the benchmark polls and counts.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ENVIRONMENTS } from '../../src/domain/records.ts';
import { normalizeRollout } from '../../src/domain/rollouts/rollout-normalize.ts';
import { planRollout, releasedSteps } from '../../src/domain/rollouts/rollout-plan.ts';
import {
  ROLLOUT_COMPONENT,
  ROLLOUT_ID,
  ROLLOUT_SET,
  rolloutYaml,
  stepCount,
  stepRange,
  stepSize,
} from '../../scripts/bench/rollout-record.ts';
import { cluster, clustersMap } from '../fixtures/rollout-fleet.ts';

const id = (i: number) => `cluster-${String(i).padStart(5, '0')}`;

/** Clusters numbered and spread over the environments as scripts/generate-repo.ts makes them, in a shuffled order. */
function generatedFleet(n: number) {
  const environment = (i: number) => ENVIRONMENTS[i % ENVIRONMENTS.length];
  const list = Array.from({ length: n }, (_, i) => cluster(id(i), environment(i), ['component-0', ROLLOUT_COMPONENT]));
  return clustersMap(list.map((c, i) => list[(i * 7919) % n]));
}

function recordOf(text: string) {
  const result = normalizeRollout({ id: ROLLOUT_ID, ...(parse(text) as object) });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.record;
}

describe('the rollout of the rollout benchmark', () => {
  it('is a valid record of the component with its set, released as asked', () => {
    const record = recordOf(rolloutYaml(50_000, 3));
    expect(record.component).toBe(ROLLOUT_COMPONENT);
    expect(record.set).toEqual(ROLLOUT_SET);
    expect(record.released).toBe(3);
    expect(record.waves).toHaveLength(1);
    expect(record.waves[0].batch).toBe(5000);
  });

  for (const n of [50, 1000, 1003]) {
    it(`cuts ${n} clusters into the steps the benchmark counts on`, () => {
      const plan = planRollout(recordOf(rolloutYaml(n, 2)), generatedFleet(n));
      expect(plan.steps).toHaveLength(stepCount(n));
      expect(releasedSteps(plan)).toBe(2);
      for (const step of plan.steps) {
        const { first, end } = stepRange(step.step, n);
        expect(step.members).toEqual(Array.from({ length: end - first }, (_, k) => id(first + k)));
      }
    });
  }

  it('has a tenth of the fleet in a step: 5,000 of 50,000', () => {
    expect(stepSize(50_000)).toBe(5000);
    expect(stepCount(50_000)).toBe(10);
    expect(stepRange(2, 50_000)).toEqual({ first: 5000, end: 10_000 });
    expect(stepRange(10, 1003)).toEqual({ first: 909, end: 1003 });
  });
});
