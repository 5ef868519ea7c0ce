// The detail of a rollout written in slices is the very text JSON.stringify makes of the one
// shape (domain/rollouts/rollout-shapes.ts), messages and nulls included, as UTF-8 bytes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLUSTER_STATES } from '../../src/domain/rollouts/cluster-progress.ts';
import { type RolloutProgress, rolloutProgress } from '../../src/domain/rollouts/rollout-progress.ts';
import { rolloutView } from '../../src/domain/rollouts/rollout-view.ts';
import { rolloutDetail } from '../../src/domain/rollouts/rollout-shapes.ts';
import { rolloutDetailJson } from '../../src/http/routes/rollout-json.ts';
import { catalogMap, clustersMap, fourEnvironments, KPS, rollout } from '../fixtures/rollout-fleet.ts';
import { evaluate, fetched, HOUR, MINUTE, STEP_1, T0 } from '../helpers/rollout-progress.ts';

const WAVES = [
  { name: 'canary', clusters: ['dev-eu-1'] },
  { name: 'non-prod', environments: ['dev', 'qa', 'uat'], soak: '2h' },
  { name: 'prod', environments: ['prod'], batch: '50%', approval: true },
];

describe('the detail of a rollout in slices', () => {
  it.each([
    ['nothing released', 0, {}],
    ['a step fetched, another soaking, an offline member with its message', 2, { ...fetched(STEP_1, T0 + MINUTE) }],
  ])('%s: the same text as JSON.stringify of the shape', async (_name, released, facts) => {
    const times = new Map([[1, { released_in: 'rev-0', released_at: T0, done_at: T0 + 2 * MINUTE }]]);
    const progress = evaluate({
      rollout: rollout({ waves: WAVES, released }),
      now: T0 + HOUR,
      facts,
      times,
      trackingSince: T0 - HOUR,
    });
    const text = (await rolloutDetailJson(progress)).toString('utf8');
    expect(text).toBe(JSON.stringify(rolloutDetail(progress)));
    if (released === 2) expect(text).toContain('"message":"no poll');
  });

  it('any cluster entries, messages of any text and times of any moment: the same text as JSON.stringify', async () => {
    const progress = evaluate({ rollout: rollout({ waves: WAVES, released: 2 }), now: T0 + HOUR, trackingSince: T0 });
    const cluster = fc.record(
      {
        id: fc.string({ unit: 'binary' }),
        state: fc.constantFrom(...CLUSTER_STATES),
        since: fc.option(fc.integer({ min: 0, max: 8.64e15 }), { nil: null }),
        message: fc.string({ unit: 'binary' }),
      },
      { requiredKeys: ['id', 'state', 'since'] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(cluster, { maxLength: 70 }), { minLength: 1, maxLength: 3 }),
        async (lists) => {
          const steps = lists.map((clusters, i) => ({ ...progress.steps[i % progress.steps.length], clusters }));
          const shaped: RolloutProgress = { ...progress, steps };
          const text = (await rolloutDetailJson(shaped)).toString('utf8');
          expect(text).toBe(JSON.stringify(rolloutDetail(shaped)));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('the steps to come, written once per plan, read the same at the next evaluation and once released', async () => {
    const sources = { clusters: clustersMap(fourEnvironments()), platform_components: catalogMap(KPS) };
    const evaluated = async (released: number, now: number) => {
      const record = rollout({ waves: WAVES, released });
      const view = rolloutView({ ...sources, rollouts: new Map([[record.id, record]]) });
      const progress = rolloutProgress({
        serving: view.byComponent.get(KPS.id)!,
        revision: `rev-${released}`,
        times: new Map([[1, { released_in: 'rev-0', released_at: T0, done_at: T0 + 2 * MINUTE }]]),
        facts: () => undefined,
        now,
        offlineAfterMs: HOUR,
        trackingSince: T0,
      });
      const text = (await rolloutDetailJson(progress)).toString('utf8');
      expect(text).toBe(JSON.stringify(rolloutDetail(progress)));
      return text;
    };
    const first = await evaluated(1, T0 + MINUTE);
    // The same plan an hour later: the steps to come are the same bytes, the released one's clusters are offline.
    const later = await evaluated(1, T0 + 2 * HOUR);
    expect(later).not.toBe(first);
    // Another record (step 2 released): step 2 is written from its members' progress, not from the kept text.
    expect(await evaluated(2, T0 + 2 * HOUR)).toContain('"step":2,"wave":"non-prod","released_in":"rev-2"');
  });
});
