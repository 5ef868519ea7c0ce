// The detail of a rollout written in slices is the very text JSON.stringify makes of the one
// shape (domain/rollouts/rollout-shapes.ts), messages and nulls included, as UTF-8 bytes.
import { describe, expect, it } from 'vitest';
import { rolloutDetail } from '../../src/domain/rollouts/rollout-shapes.ts';
import { rolloutDetailJson } from '../../src/http/routes/rollout-json.ts';
import { rollout } from '../fixtures/rollout-fleet.ts';
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
});
