// How two lists of inputs differ, input by input and field by field: what the diff of two
// revisions (./revision-diff.ts) reports for each endpoint of each cluster and for the
// clusters listing.

export interface FieldChange {
  /** Dotted name for people: "source.oci_tag", "patches.ui.color". */
  field: string;
  /** The same as a list of keys, exact even when a key holds a dot. */
  path: string[];
  /** Absent when the field did not exist before. */
  old?: unknown;
  /** Absent when the field no longer exists. */
  new?: unknown;
}

export interface InputChange {
  id: string;
  fields: FieldChange[];
}

export interface InputListDiff {
  added: string[];
  removed: string[];
  changed: InputChange[];
}

/** Inputs are matched by id: new ids are added, missing ones removed, the others compared field by field. */
export function diffInputLists(oldInputs: { id: string }[], newInputs: { id: string }[]): InputListDiff {
  const oldById = new Map(oldInputs.map((i) => [i.id, i]));
  const newById = new Map(newInputs.map((i) => [i.id, i]));
  const added = newInputs.filter((i) => !oldById.has(i.id)).map((i) => i.id);
  const removed = oldInputs.filter((i) => !newById.has(i.id)).map((i) => i.id);
  const changed: InputChange[] = [];
  for (const input of newInputs) {
    const previous = oldById.get(input.id);
    if (!previous || deepEqual(previous, input)) continue;
    const fields = diffFields(previous, input);
    if (fields.length > 0) changed.push({ id: input.id, fields });
  }
  return { added, removed, changed };
}

/** The inputs both lists hold come in another order (the consumer re-renders on an order change). */
export function reordered(oldInputs: { id: string }[], newInputs: { id: string }[]): boolean {
  const common = new Set(newInputs.map((i) => i.id));
  const oldOrder = oldInputs.map((i) => i.id).filter((id) => common.has(id));
  const kept = new Set(oldOrder);
  const newOrder = newInputs.map((i) => i.id).filter((id) => kept.has(id));
  return oldOrder.some((id, index) => newOrder[index] !== id);
}

/** Leaf-by-leaf differences; lists are compared whole, objects key by key. */
export function diffFields(oldValue: unknown, newValue: unknown): FieldChange[] {
  const oldLeaves = leaves(oldValue);
  const newLeaves = leaves(newValue);
  const changes: FieldChange[] = [];
  for (const [key, leaf] of newLeaves) {
    const previous = oldLeaves.get(key);
    if (previous === undefined) changes.push({ field: leaf.path.join('.'), path: leaf.path, new: leaf.value });
    else if (JSON.stringify(previous.value) !== JSON.stringify(leaf.value)) {
      changes.push({ field: leaf.path.join('.'), path: leaf.path, old: previous.value, new: leaf.value });
    }
  }
  for (const [key, leaf] of oldLeaves) {
    if (!newLeaves.has(key)) changes.push({ field: leaf.path.join('.'), path: leaf.path, old: leaf.value });
  }
  return changes;
}

function leaves(value: unknown, path: string[] = [], out = new Map<string, { path: string[]; value: unknown }>()) {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value)) leaves(child, [...path, key], out);
  } else {
    out.set(path.join('\u0000'), { path, value });
  }
  return out;
}

/** Structural equality of JSON values (key order ignored: it is fixed by the merge code anyway). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const aKeys = Object.keys(a);
  if (aKeys.length !== Object.keys(b).length) return false;
  for (const key of aKeys) {
    if (!Object.hasOwn(b, key) || !deepEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}
