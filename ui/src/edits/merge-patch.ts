// The JSON Merge Patch (RFC 7386) that turns one record into another: what changed, and only
// that, so the commit changes only those lines of the record's file. Objects are compared key
// by key (one patch key of a cluster's `patches` is one entry), arrays are replaced whole (the
// standard has no other way), a key that is gone becomes null. Keys are own properties only
// (./own-keys.ts), as in the service's merge patch: a key named `__proto__` or `constructor`
// is patched like any other. Pure.
import { ownValue, setOwn } from './own-keys.ts';
import { sameJson } from './record-edits.ts';

type Json = Record<string, unknown>;

export function mergePatch(before: Json, after: Json): Json {
  const patch: Json = {};
  for (const key of Object.keys(before)) {
    if (!Object.hasOwn(after, key)) setOwn(patch, key, null);
  }
  for (const [key, value] of Object.entries(after)) {
    const old = ownValue(before, key);
    if (sameJson(old, value)) continue;
    setOwn(patch, key, isObject(old) && isObject(value) ? mergePatch(old, value) : value);
  }
  return patch;
}

/** Applies a merge patch (to check one, and to show a record as a patch would leave it). */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const result: Json = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else setOwn(result, key, applyMergePatch(ownValue(result, key), value));
  }
  return result;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
