// JSON Merge Patch (RFC 7386): objects merge key by key, `null` removes a key, and every
// other value (arrays included) replaces the target as a whole. Pure: neither the target
// nor the patch is modified.
//
// Keys are read and written as own properties only. JSON.parse makes "__proto__" an ordinary
// own key, but a plain assignment `result["__proto__"] = value` would instead drop a string
// value silently or swap the result's prototype for an object one. Defined as an own property,
// the key reaches validation, which refuses it by name like any other invalid key.

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The result of applying `patch` to `target` (RFC 7386, section 2). */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return clone(patch);
  const result: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      delete result[key];
    } else {
      const merged = applyMergePatch(Object.hasOwn(result, key) ? result[key] : undefined, value);
      Object.defineProperty(result, key, { value: merged, enumerable: true, writable: true, configurable: true });
    }
  }
  return result;
}

function clone(value: unknown): unknown {
  return value === undefined ? undefined : structuredClone(value);
}

/**
 * What `patch` does to each key of `target`, level by level, told before it is applied: it
 * removes the key, sets its value whole, or merges into the object there. A write checks only
 * these parts of the record it patches (../rules/patched-record.ts).
 */
export type PatchShape = ReadonlyMap<string, 'removed' | 'set' | PatchShape>;

export function patchShape(target: unknown, patch: Record<string, unknown>): PatchShape {
  const shape = new Map<string, 'removed' | 'set' | PatchShape>();
  for (const [key, value] of Object.entries(patch)) {
    const current = isObject(target) && Object.hasOwn(target, key) ? target[key] : undefined;
    shape.set(
      key,
      value === null ? 'removed' : isObject(value) && isObject(current) ? patchShape(current, value) : 'set',
    );
  }
  return shape;
}

/**
 * Applies `patch` to `target` in place, as applyMergePatch would to a copy, in time that grows
 * with the patch alone. `owned` holds the objects the caller made and may change (`target`
 * among them); an object of `target` not in it (one a stored record shares) is copied before
 * it is changed, once, and owned from then on. What the patch sets is copied, so the patch
 * itself is never shared.
 */
export function mergePatchInto(
  target: Record<string, unknown>,
  patch: Record<string, unknown>,
  owned: WeakSet<object>,
): void {
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      delete target[key];
      continue;
    }
    const current = Object.hasOwn(target, key) ? target[key] : undefined;
    let merged: unknown;
    if (isObject(value) && isObject(current)) {
      const into = owned.has(current) ? current : { ...current };
      owned.add(into);
      mergePatchInto(into, value, owned);
      merged = into;
    } else {
      merged = ownAll(applyMergePatch(undefined, value), owned);
    }
    Object.defineProperty(target, key, { value: merged, enumerable: true, writable: true, configurable: true });
  }
}

/** Every object and array of a value just made, marked as owned. */
export function ownAll(value: unknown, owned: WeakSet<object>): unknown {
  if (value !== null && typeof value === 'object') {
    owned.add(value);
    for (const child of Object.values(value)) ownAll(child, owned);
  }
  return value;
}
