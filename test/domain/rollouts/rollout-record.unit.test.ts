// The rollout record (src/domain/rollouts/rollout-record.ts, rollout-normalize.ts): its schema,
// its canonical form with every default filled, and the problems of one record on its own.
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { normalizeRollout } from '../../../src/domain/rollouts/rollout-normalize.ts';
import { applySet, changedFields, setKey } from '../../../src/domain/rollouts/rollout-record.ts';

/** The example of the product decisions, as a person writes it. */
const EXAMPLE = {
  id: 'kube-prometheus-stack-67-5',
  component: 'kube-prometheus-stack',
  set: { oci_tag: '67.5.0', component_version: '67.5.0' },
  waves: [
    { name: 'canary', clusters: ['dev-eu-1'] },
    { name: 'non-prod', environments: ['dev', 'qa', 'uat'], soak: '2h', approval: true },
    { name: 'prod', environments: ['prod'], batch: '10%', soak: '30m' },
  ],
  failure_budget: 0,
  progress_deadline: '1h',
  released: 1,
  paused: false,
  approved: ['canary'],
};

const minimal = { id: 'r', component: 'podinfo', set: { oci_tag: '6.8.0' }, waves: [{ name: 'all' }] };

function problemsOf(input: unknown) {
  const result = normalizeRollout(input);
  if (result.ok) throw new Error('accepted');
  return result.problems.map((p) => ({ code: p.code, field: p.at.field, message: p.message }));
}

describe('the canonical form', () => {
  it('fills every default, in one key order, the set in its own order', () => {
    const result = normalizeRollout(minimal);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(JSON.stringify(result.record)).toBe(
      JSON.stringify({
        id: 'r',
        component: 'podinfo',
        set: { oci_tag: '6.8.0' },
        waves: [{ name: 'all', clusters: [], environments: [], batch: null, soak: '0s', approval: false }],
        failure_budget: 0,
        progress_deadline: '1h',
        require_reports: false,
        released: 0,
        paused: false,
        approved: [],
      }),
    );
  });

  it('keeps the example of the product decisions as written, the set fields in canonical order', () => {
    const result = normalizeRollout(EXAMPLE);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.keys(result.record.set)).toEqual(['component_version', 'oci_tag']);
    expect(result.record.waves[2]).toEqual({
      name: 'prod',
      clusters: [],
      environments: ['prod'],
      batch: '10%',
      soak: '30m',
      approval: false,
    });
    expect(result.record.released).toBe(1);
  });

  it('leaves its input alone, unless asked to fill it in place', () => {
    const input = structuredClone(minimal);
    normalizeRollout(input);
    expect(input).toEqual(minimal);
    normalizeRollout(input, { inPlace: true });
    expect(input).toMatchObject({ released: 0, approved: [] });
  });

  it('as published, the schema accepts the example without its id, as an editor checks a file', () => {
    const schema = JSON.parse(readFileSync(new URL('../../../schemas/rollout.schema.json', import.meta.url), 'utf8'));
    const check = new Ajv({ allErrors: true, strict: false }).compile(schema);
    const { id: _id, ...withoutId } = EXAMPLE;
    expect(check(withoutId), JSON.stringify(check.errors)).toBe(true);
  });
});

describe('a set', () => {
  const entry = {
    id: 'podinfo',
    component_path: 'podinfo',
    component_version: '6.7.1',
    oci_url: 'oci://ghcr.io/x',
    oci_tag: '6.7.1',
    cluster_env_enabled: true,
    depends_on: ['cert-manager'],
  };

  it('is the same key whatever the order of its fields', () => {
    expect(setKey({ oci_tag: 'a', component_version: 'b' })).toBe(setKey({ component_version: 'b', oci_tag: 'a' }));
    expect(setKey({ oci_tag: 'a' })).not.toBe(setKey({ oci_tag: 'b' }));
  });

  it('applied to an entry changes only its fields, in the catalog key order', () => {
    const applied = applySet(entry, { oci_tag: '6.8.0', component_path: 'charts/podinfo' });
    const expected = { ...entry, component_path: 'charts/podinfo', oci_tag: '6.8.0' };
    expect(JSON.stringify(applied)).toBe(JSON.stringify(expected));
  });

  it('changes the fields whose value differs from the entry', () => {
    expect(changedFields({ oci_tag: '6.7.1', component_version: '6.8.0' }, entry)).toEqual(['component_version']);
    expect(changedFields({ oci_tag: '6.7.1' }, entry)).toEqual([]);
  });
});

describe('problems of one rollout', () => {
  it('is an object', () => {
    const message = 'must be an object (a mapping of field names to values)';
    expect(problemsOf([])).toEqual([{ code: 'wrong_type', field: '', message }]);
  });

  it('names its component, a set and at least one wave', () => {
    expect(problemsOf({ id: 'r' }).map((p) => p.message)).toEqual([
      'missing required field "component"',
      'missing required field "set"',
      'missing required field "waves"',
    ]);
    expect(problemsOf({ ...minimal, waves: [] })).toEqual([
      { code: 'invalid_value', field: '/waves', message: 'must NOT have fewer than 1 items' },
    ]);
  });

  it('sets at least one field, only the four, each not empty', () => {
    expect(problemsOf({ ...minimal, set: {} })).toEqual([
      {
        code: 'invalid_value',
        field: '/set',
        message: 'must name at least one of component_version, oci_tag, oci_url, component_path',
      },
    ]);
    expect(problemsOf({ ...minimal, set: { oci_tag: '1', chart: 'x' } })).toEqual([
      { code: 'unknown_field', field: '/set/chart', message: 'unknown field "chart"' },
    ]);
    expect(problemsOf({ ...minimal, set: { oci_url: '' } })).toEqual([
      { code: 'invalid_value', field: '/set/oci_url', message: 'must NOT have fewer than 1 characters' },
    ]);
  });

  it.each([0, -1, '0%', '101%', '10', '5.5%', 1.5, true])('refuses the batch %j, naming the field', (batch) => {
    expect(problemsOf({ ...minimal, waves: [{ name: 'all', batch }] })).toEqual([
      {
        code: 'invalid_value',
        field: '/waves/0/batch',
        message:
          'must be a number of clusters (1 or more), a percentage of the wave from 1% to 100% ("10%"), or null, ' +
          `not ${JSON.stringify(batch)}`,
      },
    ]);
  });

  it.each([1, 250, '1%', '10%', '100%', null])('accepts the batch %j', (batch) => {
    expect(normalizeRollout({ ...minimal, waves: [{ name: 'all', batch }] }).ok).toBe(true);
  });

  it.each([
    ['2d', /has the unknown unit "d" \(days are not a unit: write 48h for 2d\)$/],
    ['-5m', /^must not be negative: "-5m"$/],
    ['', /^must be a duration like .*, not ""$/],
    [30, /^must be a duration like "30s", "15m" or "2h" \(a number needs a unit: "30s", "30m"\)$/],
    ['3000000h', /^is too long: "3000000h" is more than 2562047h47m16.854775807s$/],
    ['1 h', /without spaces: "1 h"$/],
  ] as const)('refuses the soak %j as a duration', (soak, message) => {
    const problems = problemsOf({ ...minimal, waves: [{ name: 'all', soak }] });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ code: 'invalid_duration', field: '/waves/0/soak' });
    expect(problems[0].message).toMatch(message);
  });

  it('refuses a progress deadline that is not a duration', () => {
    expect(problemsOf({ ...minimal, progress_deadline: '1hour' })).toEqual([
      {
        code: 'invalid_duration',
        field: '/progress_deadline',
        message:
          'must be a duration like "30s", "15m", "2h" or "1h30m" (units ns, us, ms, s, m, h): ' +
          '"1hour" has the unknown unit "hour"',
      },
    ]);
  });

  it.each(['0', '+1.5h', '2h45m', '300ms', '.5s', '1\u00b5s'])('accepts the duration %j', (soak) => {
    expect(normalizeRollout({ ...minimal, progress_deadline: soak, waves: [{ name: 'all', soak }] }).ok).toBe(true);
  });

  it('has unique wave names, and approves only its waves', () => {
    const waves = [{ name: 'a' }, { name: 'b' }, { name: 'a' }];
    expect(problemsOf({ ...minimal, waves, approved: ['b', 'prod'] })).toEqual([
      {
        code: 'duplicate_wave_name',
        field: '/waves/2/name',
        message: 'repeats the wave name "a" of /waves/0: names are unique in a rollout',
      },
      {
        code: 'unknown_approved_wave',
        field: '/approved/1',
        message: 'approves the wave "prod", which the rollout does not have (its waves: a, b)',
      },
    ]);
  });

  it('has numbers where numbers go, and environments it knows', () => {
    const waves = [{ name: 'all', environments: ['production'] }];
    const input = { ...minimal, released: -1, failure_budget: '1', waves };
    expect(problemsOf(input)).toEqual([
      { code: 'invalid_value', field: '/waves/0/environments/0', message: 'must be one of: dev, qa, uat, prod' },
      { code: 'wrong_type', field: '/failure_budget', message: 'must be a integer' },
      { code: 'invalid_value', field: '/released', message: 'must be >= 0' },
    ]);
  });

  it('has an id of the portable syntax, and names its component and waves the same way', () => {
    const input = { ...minimal, id: '../x', component: 'a b', waves: [{ name: '-x' }] };
    const fields = problemsOf(input).map((p) => p.field);
    expect(fields).toEqual(['/id', '/component', '/waves/0/name']);
  });
});
