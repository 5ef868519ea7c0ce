// What differs between two versions of a record, field by field, for a person: what someone
// else changed in a record while it was being edited here (a 412). Lists of records named by
// id (a cluster's components, namespaces) are compared by id; other lists as a whole. Pure.
import { sameJson } from './record-edits.ts';

export interface FieldDifference {
  /** "patches.podinfo.replicaCount", "platform_components[podinfo].oci_tag". */
  field: string;
  /** Absent: the field was not there. */
  before?: unknown;
  after?: unknown;
}

export function diffRecords(before: unknown, after: unknown, at = ''): FieldDifference[] {
  if (sameJson(before, after)) return [];
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((key) => {
      const field = at ? `${at}.${key}` : key;
      if (!Object.hasOwn(after, key)) return [{ field, before: before[key] }];
      if (!Object.hasOwn(before, key)) return [{ field, after: after[key] }];
      return diffRecords(before[key], after[key], field);
    });
  }
  if (byId(before) && byId(after)) {
    const old = new Map(before.map((item) => [item.id, item]));
    const now = new Map(after.map((item) => [item.id, item]));
    const ids = [...new Set([...old.keys(), ...now.keys()])];
    const differences = ids.flatMap((id) => {
      const field = `${at}[${id}]`;
      if (!now.has(id)) return [{ field, before: old.get(id) }];
      if (!old.has(id)) return [{ field, after: now.get(id) }];
      return diffRecords(old.get(id), now.get(id), field);
    });
    return differences.length > 0
      ? differences
      : [{ field: `${at} (order)`, before: before.map((i) => i.id), after: after.map((i) => i.id) }];
  }
  return [{ field: at || '(record)', before, after }];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function byId(value: unknown): value is { id: string; [key: string]: unknown }[] {
  return Array.isArray(value) && value.every((item) => isObject(item) && typeof item.id === 'string');
}

/** A value as a person reads it in a difference: strings bare, the rest as JSON. */
export function shown(value: unknown): string {
  if (value === undefined) return '(none)';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}
