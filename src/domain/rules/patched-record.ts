// A record after a merge patch, checked against its JSON Schema by what the patch touched
// alone. The record was valid before the patch, and at each object the patch merges into the
// schema judges every key on its own (./schema-shape.ts), so the keys the patch left alone
// are still valid: checking the keys it removed, set and merged into finds every problem the
// whole record has. A change set of many patches to one large record then costs what the
// patches hold, not the record's size for each of them. The record as the set leaves it is
// still checked whole once, before it is stored (../writes/change-set.ts).
import type { PatchShape } from '../writes/merge-patch.ts';
import { type Problem, problem } from '../problem.ts';
import type { Collection } from '../records.ts';
import { dedupe, escapePointer, partProblems, RECORD_SCHEMAS, validateRecord } from './record-schema.ts';
import { isKeywiseObject, keySchema, requiredKeys, resolveRef, type SchemaNode } from './schema-shape.ts';

/**
 * The problems of `record` (valid before the patch whose shape is `shape`, patched since), as validateRecord would find
 * them.
 */
export function patchedRecordProblems(
  collection: Collection,
  record: Record<string, unknown>,
  shape: PatchShape,
): Problem[] {
  const root = RECORD_SCHEMAS[collection] as SchemaNode;
  // A rollout has rules beyond its schema (../rollouts/rollout-normalize.ts), and is small.
  if (collection === 'rollouts' || !isKeywiseObject(root)) {
    const whole = validateRecord(collection, record);
    return whole.ok ? [] : whole.problems;
  }
  const missing: Problem[] = [];
  const parts = touchedParts(root, resolveRef(root, root), record, shape, '', missing);
  return dedupe([...missing, ...partProblems(collection, parts)]);
}

/**
 * The keys of `value` the patch touched, with their values (objects merged into: their touched
 * keys in turn). A required key the patch removed is a problem; a value set whole has the
 * required keys of its objects checked here, since the schema the parts are checked with
 * leaves them out.
 */
function touchedParts(
  root: SchemaNode,
  node: SchemaNode,
  value: Record<string, unknown>,
  shape: PatchShape,
  path: string,
  missing: Problem[],
): Record<string, unknown> {
  const parts: Record<string, unknown> = {};
  const required = requiredKeys(node);
  for (const [key, what] of shape) {
    const at = `${path}/${escapePointer(key)}`;
    if (what === 'removed') {
      if (required.includes(key)) missing.push(missingField(at, key));
      continue;
    }
    const child = keySchema(root, node, key);
    const keywise = typeof child === 'object' && isKeywiseObject(child);
    const part =
      what !== 'set' && keywise && isObject(value[key])
        ? touchedParts(root, child, value[key], what, at, missing)
        : value[key];
    if (what === 'set' && keywise) requiredOfWhole(root, child, value[key], at, missing);
    Object.defineProperty(parts, key, { value: part, enumerable: true, writable: true, configurable: true });
  }
  return parts;
}

/** The required keys of every keywise object in a value set whole, as the whole schema would check them. */
function requiredOfWhole(root: SchemaNode, node: SchemaNode, value: unknown, path: string, missing: Problem[]): void {
  if (!isObject(value)) return;
  for (const key of requiredKeys(node))
    if (!Object.hasOwn(value, key)) missing.push(missingField(`${path}/${escapePointer(key)}`, key));
  for (const [key, child] of Object.entries(value)) {
    const schema = keySchema(root, node, key);
    if (typeof schema === 'object' && isKeywiseObject(schema))
      requiredOfWhole(root, schema, child, `${path}/${escapePointer(key)}`, missing);
  }
}

/** As record-schema.ts words a missing required field. */
function missingField(at: string, key: string): Problem {
  return problem('missing_field', { field: at }, `missing required field "${key}"`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
