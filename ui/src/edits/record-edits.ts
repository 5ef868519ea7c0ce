// A person's edits of one record, as operations rather than as the record they produce: kept
// that way, the same edits can be applied again to a newer version of the record (a re-base
// after someone else changed it) without undoing that person's change. Each operation has a
// key; a later edit of the same thing (the same patch key, the same field) replaces the earlier
// one. Pure: no DOM, no requests.
import type { Collection, RecordsByCollection, Subject } from '../api/types.ts';
import { ownValue, setOwn } from './own-keys.ts';

export type ReferenceList = 'namespaces' | 'rolebindings';
export type MapField = 'labels' | 'annotations';
export type ComponentField = 'enabled' | 'oci_tag' | 'component_path';

export type EditOp =
  /** A component the cluster references: enabled, its tag pin or path override (null: none). */
  | { kind: 'component'; component: string; field: ComponentField; value: boolean | string | null }
  /** Add a catalog component to the cluster (enabled), or remove it with its patches. */
  | { kind: 'component-ref'; component: string; present: boolean }
  /** One Helm value of a cluster's patches for a component; null removes the key. */
  | { kind: 'patch'; component: string; key: string; value: string | null }
  /** A reference of the cluster to a namespace or role binding definition. */
  | { kind: 'ref'; list: ReferenceList; ref: string; present: boolean }
  /** A top-level field (a catalog entry's version or tag, a role binding's role); null: its default. */
  | { kind: 'field'; field: string; value: unknown }
  /** One label or annotation of a namespace; null removes it. */
  | { kind: 'entry'; field: MapField; key: string; value: string | null }
  /** A subject of a role binding. */
  | { kind: 'subject'; subject: Subject; present: boolean }
  | { kind: 'create'; record: AnyRecord }
  | { kind: 'delete' };

export type AnyRecord = RecordsByCollection[Collection];
type Json = Record<string, unknown>;

/** Two edits with the same key change the same thing: the later replaces the earlier. */
export function editKey(op: EditOp): string {
  switch (op.kind) {
    case 'component':
      return `component\0${op.component}\0${op.field}`;
    case 'component-ref':
      return `component-ref\0${op.component}`;
    case 'patch':
      return `patch\0${op.component}\0${op.key}`;
    case 'ref':
      return `ref\0${op.list}\0${op.ref}`;
    case 'field':
      return `field\0${op.field}`;
    case 'entry':
      return `entry\0${op.field}\0${op.key}`;
    case 'subject':
      return `subject\0${op.subject.kind}\0${op.subject.name}\0${op.subject.apiGroup}`;
    case 'create':
    case 'delete':
      return op.kind;
  }
}

export interface Applied {
  /** The record after the edits; null when deleted. */
  record: AnyRecord | null;
  /** Edits that no longer apply to this version of the record (the component was removed meanwhile). */
  skipped: EditOp[];
}

/** The record the edits make of `base` (null: a record that does not exist yet). */
export function applyEdits(base: AnyRecord | null, ops: readonly EditOp[]): Applied {
  let record: Json | null = base === null ? null : clone(base as unknown as Json);
  const skipped: EditOp[] = [];
  for (const op of ops) {
    if (op.kind === 'create') {
      record = clone(op.record as unknown as Json);
      continue;
    }
    if (op.kind === 'delete') {
      record = null;
      continue;
    }
    if (record === null || !applyOne(record, op)) skipped.push(op);
  }
  return { record: record as AnyRecord | null, skipped };
}

/** Applies one edit in place; false when it does not apply to this record. */
function applyOne(record: Json, op: EditOp): boolean {
  switch (op.kind) {
    case 'component': {
      const ref = components(record).find((entry) => entry.id === op.component);
      if (!ref) return false;
      ref[op.field] = op.value === '' ? null : op.value;
      return true;
    }
    case 'component-ref': {
      const list = components(record);
      const at = list.findIndex((entry) => entry.id === op.component);
      if (op.present) {
        if (at === -1) list.push({ id: op.component, enabled: true, oci_tag: null, component_path: null });
      } else if (at !== -1) {
        list.splice(at, 1);
        // A patch of a component the cluster no longer references is refused (stray_patch).
        delete (record.patches as Json | undefined)?.[op.component];
      }
      return true;
    }
    case 'patch': {
      // Component ids (`constructor`) and Helm value paths (`__proto__`) are own keys only.
      const patches = (record.patches as Json | undefined) ?? (record.patches = {});
      const values = ownValue(patches, op.component) as Json | undefined;
      if (op.value === null) {
        if (values) {
          delete values[op.key];
          if (Object.keys(values).length === 0) delete patches[op.component];
        }
      } else if (values) {
        setOwn(values, op.key, op.value);
      } else {
        const created: Json = {};
        setOwn(created, op.key, op.value);
        setOwn(patches, op.component, created);
      }
      return true;
    }
    case 'ref': {
      const list = ((record[op.list] as { id: string }[] | undefined) ?? (record[op.list] = [])) as { id: string }[];
      const at = list.findIndex((entry) => entry.id === op.ref);
      if (op.present && at === -1) list.push({ id: op.ref });
      if (!op.present && at !== -1) list.splice(at, 1);
      return true;
    }
    case 'field':
      record[op.field] = op.value;
      return true;
    case 'entry': {
      // A label or annotation a person typed: `__proto__` is a key like any other.
      const map = (record[op.field] as Json | undefined) ?? (record[op.field] = {});
      if (op.value === null) delete map[op.key];
      else setOwn(map, op.key, op.value);
      return true;
    }
    case 'subject': {
      const list = (record.subjects as Subject[] | undefined) ?? (record.subjects = []);
      const same = (s: Subject) =>
        s.kind === op.subject.kind && s.name === op.subject.name && s.apiGroup === op.subject.apiGroup;
      const at = list.findIndex(same);
      if (op.present && at === -1) list.push({ ...op.subject });
      if (!op.present && at !== -1) list.splice(at, 1);
      return true;
    }
    default:
      return false;
  }
}

function components(record: Json): { id: string; [field: string]: unknown }[] {
  return (record.platform_components as { id: string }[] | undefined) ?? (record.platform_components = []);
}

/** An edit in words, for the list of pending changes. */
export function describeEdit(op: EditOp): string {
  switch (op.kind) {
    case 'component':
      if (op.field === 'enabled') return `${op.value ? 'enable' : 'disable'} component ${op.component}`;
      return op.value === null || op.value === ''
        ? `${op.component}: no ${op.field} override`
        : `${op.component}: ${op.field} ${String(op.value)}`;
    case 'component-ref':
      return `${op.present ? 'add' : 'remove'} component ${op.component}`;
    case 'patch':
      return op.value === null
        ? `${op.component}: remove patch ${op.key}`
        : `${op.component}: patch ${op.key} = ${op.value}`;
    case 'ref':
      return `${op.present ? 'add' : 'remove'} ${op.list === 'namespaces' ? 'namespace' : 'role binding'} ${op.ref}`;
    case 'field':
      return op.value === null ? `${op.field}: default` : `${op.field} = ${fieldValueText(op.value)}`;
    case 'entry':
      return op.value === null
        ? `remove ${singular(op.field)} ${op.key}`
        : `${singular(op.field)} ${op.key} = ${op.value}`;
    case 'subject':
      return `${op.present ? 'add' : 'remove'} subject ${op.subject.kind} ${op.subject.name}`;
    case 'create':
      return 'create';
    case 'delete':
      return 'delete';
  }
}

function singular(field: MapField): string {
  return field === 'labels' ? 'label' : 'annotation';
}

export function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Deep equality of JSON values, object keys in any order. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a))
    return a.length === (b as unknown[]).length && a.every((item, i) => sameJson(item, (b as unknown[])[i]));
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  return (
    keysA.length === keysB.length &&
    keysA.every((key) => Object.hasOwn(b as Json, key) && sameJson((a as Json)[key], (b as Json)[key]))
  );
}

/** A field's value as the list of edits shows it: a list joined, text as it is, anything else as JSON. */
function fieldValueText(value: unknown): string {
  if (Array.isArray(value)) return value.join(', ');
  return typeof value === 'string' ? value : JSON.stringify(value);
}
