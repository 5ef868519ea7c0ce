// The seed file: {"clusters": [...], "platform_components": [...], "namespaces": [...],
// "rolebindings": [...]}, the shape of the reference service (docs/decisions/0017-reference-service-compatibility.md),
// where a record's key
// may be spelled `_id` (its document store's name) as well as `id`; and "rollouts": [...], which
// the reference service does not have. Every key may be left out (an empty list). Problems are
// placed by JSON pointer into the seed document ("/clusters/0/environment").
import { type Problem, problem } from './problem.ts';
import { type AnyRecord, COLLECTIONS, type RecordSets } from './records.ts';
import { emptyRecordSets } from './repo-layout/record-files.ts';
import { validateRecord } from './rules/record-schema.ts';

export type SeedResult = { ok: true; records: RecordSets } | { ok: false; problems: Problem[] };

export function parseSeed(document: unknown): SeedResult {
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    return {
      ok: false,
      problems: [problem('seed_shape', { field: '' }, 'the seed must be a JSON object with the record arrays')],
    };
  }
  const seed = document as Record<string, unknown>;
  const problems: Problem[] = [];
  for (const key of Object.keys(seed)) {
    if (!(COLLECTIONS as readonly string[]).includes(key)) {
      problems.push(
        problem('seed_shape', { field: `/${key}` }, `unknown field "${key}"; expected ${COLLECTIONS.join(', ')}`),
      );
    }
  }
  const records = emptyRecordSets();
  for (const collection of COLLECTIONS) {
    const list = seed[collection] ?? [];
    if (!Array.isArray(list)) {
      problems.push(problem('seed_shape', { field: `/${collection}` }, 'must be an array of records'));
      continue;
    }
    list.forEach((item, index) => {
      const path = `/${collection}/${index}`;
      const normalized = withIdKey(item, path, problems);
      if (!normalized) return;
      const result = validateRecord(collection, normalized);
      if (result.ok) (records[collection] as AnyRecord[]).push(result.record);
      else problems.push(...result.problems.map((p) => ({ ...p, at: { ...p.at, field: path + p.at.field } })));
    });
  }
  return problems.length ? { ok: false, problems } : { ok: true, records };
}

function withIdKey(item: unknown, path: string, problems: Problem[]): Record<string, unknown> | undefined {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) {
    problems.push(problem('seed_shape', { field: path }, 'must be an object'));
    return undefined;
  }
  const { _id, ...rest } = item as Record<string, unknown>;
  if (_id === undefined) return rest;
  if (rest.id !== undefined && rest.id !== _id) {
    problems.push(
      problem(
        'seed_shape',
        { field: `${path}/_id` },
        `_id ${JSON.stringify(_id)} and id ${JSON.stringify(rest.id)} differ`,
      ),
    );
    return undefined;
  }
  return { id: _id, ...rest };
}
