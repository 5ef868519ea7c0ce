// Rule: a rollout record matches schemas/rollout.schema.json, its durations are Go durations,
// its wave names are unique and `approved` names only its waves. Returns the record in
// canonical form. Like validateRecord for the other kinds (rules/record-schema.ts), and with
// the same words for what the schema says, so a file, a row and a REST body are judged alike.
import type { ErrorObject } from 'ajv';
import { type Problem, problem } from '../problem.ts';
import { compileRecordSchema, schemaProblems, type ValidationResult, withRequiredId } from '../rules/schema-check.ts';
import { rolloutSchema } from '../schema-documents.ts';
import { parseGoDuration } from './go-duration.ts';
import { canonicalRollout, type Rollout, SET_FIELDS } from './rollout-record.ts';

const validate = compileRecordSchema(withRequiredId(rolloutSchema));

const BATCH = /^\/waves\/\d+\/batch$/;
const DURATION = /^(?:\/progress_deadline|\/waves\/\d+\/soak)$/;

/**
 * Validates `input` as a rollout. The input is not modified, unless `inPlace` is set for a
 * document no one else holds (one just parsed from a file): defaults are filled in on it.
 */
export function normalizeRollout(input: unknown, options: { inPlace?: boolean } = {}): ValidationResult<Rollout> {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    const message = 'must be an object (a mapping of field names to values)';
    return { ok: false, problems: [problem('wrong_type', { field: '' }, message)] };
  }
  const copy = options.inPlace ? input : structuredClone(input);
  if (!validate(copy)) return { ok: false, problems: describeErrors(validate.errors ?? []) };
  const rollout = canonicalRollout(copy as Rollout);
  const problems = rolloutRecordProblems(rollout);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, record: rollout };
}

/** The schema's errors, with the batch, duration and `set` errors said once each, in the rollout's words. */
function describeErrors(errors: readonly ErrorObject[]): Problem[] {
  const problems: Problem[] = [];
  const said = new Set<string>();
  const rest: ErrorObject[] = [];
  for (const e of errors) {
    const field = e.instancePath;
    const own = BATCH.test(field)
      ? batchProblem(field, e.data)
      : DURATION.test(field)
        ? durationProblem(field, e.data)
        : undefined;
    if (own === undefined && !(field === '/set' && e.keyword === 'minProperties')) {
      rest.push(e);
      continue;
    }
    if (said.has(field)) continue;
    said.add(field);
    problems.push(own ?? problem('invalid_value', { field }, `must name at least one of ${SET_FIELDS.join(', ')}`));
  }
  return [...schemaProblems(rest), ...problems];
}

function batchProblem(field: string, value: unknown): Problem {
  const rule = 'must be a number of clusters (1 or more), a percentage of the wave from 1% to 100% ("10%"), or null';
  return problem('invalid_value', { field }, `${rule}, not ${JSON.stringify(value)}`);
}

function durationProblem(field: string, value: unknown): Problem {
  if (typeof value === 'string') {
    const parsed = parseGoDuration(value);
    const message = parsed.ok ? `must be written without a sign or spaces, not "${value}"` : parsed.message;
    return problem('invalid_duration', { field }, message);
  }
  const hint = typeof value === 'number' ? ` (a number needs a unit: "${value}s", "${value}m")` : '';
  return problem('invalid_duration', { field }, `must be a duration like "30s", "15m" or "2h"${hint}`);
}

/** What the schema cannot say about one rollout: durations in range, wave names unique, approvals of its waves. */
export function rolloutRecordProblems(rollout: Rollout): Problem[] {
  const problems: Problem[] = [];
  const durations: [string, string][] = [
    ['/progress_deadline', rollout.progress_deadline],
    ...rollout.waves.map((w, i): [string, string] => [`/waves/${i}/soak`, w.soak]),
  ];
  for (const [field, text] of durations) {
    const parsed = parseGoDuration(text);
    if (!parsed.ok) problems.push(problem('invalid_duration', { field }, parsed.message));
  }
  const firstOf = new Map<string, number>();
  rollout.waves.forEach((wave, index) => {
    const first = firstOf.get(wave.name);
    if (first === undefined) firstOf.set(wave.name, index);
    else {
      const message = `repeats the wave name "${wave.name}" of /waves/${first}: names are unique in a rollout`;
      problems.push(problem('duplicate_wave_name', { field: `/waves/${index}/name` }, message));
    }
  });
  rollout.approved.forEach((name, index) => {
    if (firstOf.has(name)) return;
    const waves = [...firstOf.keys()].join(', ');
    const message = `approves the wave "${name}", which the rollout does not have (its waves: ${waves})`;
    problems.push(problem('unknown_approved_wave', { field: `/approved/${index}` }, message));
  });
  return problems;
}
