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

/**
 * Leaf-by-leaf differences; lists are compared whole, objects key by key: the leaves the new
 * value has that the old one has not or has with another value, in the new value's order,
 * then the leaves only the old one has, in its order. Walked side by side, so that the many
 * inputs a catalog bump changes in one field cost one walk each.
 */
export function diffFields(oldValue: unknown, newValue: unknown): FieldChange[] {
  const changes: FieldChange[] = [];
  addedOrChanged(oldValue, true, newValue, [], changes);
  removedLeaves(oldValue, newValue, true, [], changes);
  return changes;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `had`: the old value has something at this path; a leaf there is what is compared. */
function addedOrChanged(old: unknown, had: boolean, now: unknown, path: string[], out: FieldChange[]): void {
  if (isMapping(now)) {
    const oldMapping = had && isMapping(old) ? old : undefined;
    for (const [key, child] of Object.entries(now))
      addedOrChanged(
        oldMapping?.[key],
        oldMapping !== undefined && Object.hasOwn(oldMapping, key),
        child,
        [...path, key],
        out,
      );
    return;
  }
  if (!had || isMapping(old)) out.push({ field: path.join('.'), path, new: now });
  else if (old !== now && JSON.stringify(old) !== JSON.stringify(now))
    out.push({ field: path.join('.'), path, old, new: now });
}

/** `has`: the new value has something at this path; an old leaf is gone unless a leaf is there. */
function removedLeaves(old: unknown, now: unknown, has: boolean, path: string[], out: FieldChange[]): void {
  if (isMapping(old)) {
    const newMapping = has && isMapping(now) ? now : undefined;
    for (const [key, child] of Object.entries(old))
      removedLeaves(
        child,
        newMapping?.[key],
        newMapping !== undefined && Object.hasOwn(newMapping, key),
        [...path, key],
        out,
      );
    return;
  }
  if (!has || isMapping(now)) out.push({ field: path.join('.'), path, old });
}

/**
 * Whether two values are written as the same JSON text — keys in the same order, keys whose
 * value JSON leaves out (undefined) left out — without writing either: an answer is compared
 * with the one before it as bytes, and most differ early (a catalog bump's input comes first).
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i] ?? null, b[i] ?? null)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  // Nearly always the same keys in the same order, none undefined: compared as they come.
  const xKeys = Object.keys(x);
  const yKeys = Object.keys(y);
  if (xKeys.length === yKeys.length) {
    let i = 0;
    for (; i < xKeys.length; i++) {
      const key = xKeys[i];
      if (key !== yKeys[i] || x[key] === undefined || y[key] === undefined) break;
      if (!sameJson(x[key], y[key])) return false;
    }
    if (i === xKeys.length) return true;
  }
  const defined = (o: Record<string, unknown>, keys: string[]) => keys.filter((key) => o[key] !== undefined);
  const xDefined = defined(x, xKeys);
  const yDefined = defined(y, yKeys);
  return (
    xDefined.length === yDefined.length && xDefined.every((key, i) => key === yDefined[i] && sameJson(x[key], y[key]))
  );
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
    if (!Object.hasOwn(b, key) || !deepEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
      return false;
  }
  return true;
}
