// JSON Merge Patch (RFC 7386): objects merge key by key, `null` removes a key, and every
// other value (arrays included) replaces the target as a whole. Pure: neither the target
// nor the patch is modified.
//
// Keys are read and written as own properties only. JSON.parse makes "__proto__" an ordinary
// own key, but a plain assignment `result["__proto__"] = value` would instead drop a string
// value silently or swap the result's prototype for an object one. Defined as an own property,
// the key reaches validation, which refuses it by name like any other invalid key.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

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
  return value === undefined ? undefined : (structuredClone(value) as Json);
}
