// Rollouts <-> rows of the `rollouts` table (schema version 6). Scalars are columns; `set`,
// `waves` and `approved` are JSON text, as the other kinds' lists and maps are. A row is read
// back into the record shape and checked by the same validateRecord as a file (rows.ts).
import type { Database } from 'better-sqlite3';
import type { Rollout } from '../../../domain/records.ts';

interface RolloutRow {
  id: string;
  component: unknown;
  set: unknown;
  waves: unknown;
  failure_budget: unknown;
  progress_deadline: unknown;
  require_reports: unknown;
  released: unknown;
  paused: unknown;
  approved: unknown;
}

/** The columns of a rollout row holding JSON text. */
export const ROLLOUT_JSON_FIELDS = ['set', 'waves', 'approved'];

/** Every rollout row as the record's fields, JSON columns still as text, booleans as read. */
export function rolloutRowInputs(db: Database, bool: (value: unknown) => unknown): Record<string, unknown>[] {
  return (db.prepare('SELECT * FROM rollouts ORDER BY id').all() as RolloutRow[]).map((row) => ({
    id: row.id,
    component: row.component,
    set: row.set,
    waves: row.waves,
    failure_budget: row.failure_budget,
    progress_deadline: row.progress_deadline,
    require_reports: bool(row.require_reports),
    released: row.released,
    paused: bool(row.paused),
    approved: row.approved,
  }));
}

/** Inserts the rollout or replaces the one of its id; bind it with rolloutRowValues. */
export const UPSERT_ROLLOUT = `INSERT INTO rollouts
    (id, component, "set", waves, failure_budget, progress_deadline, require_reports, released, paused, approved)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (id) DO UPDATE SET component = excluded.component, "set" = excluded."set", waves = excluded.waves,
    failure_budget = excluded.failure_budget, progress_deadline = excluded.progress_deadline,
    require_reports = excluded.require_reports, released = excluded.released, paused = excluded.paused,
    approved = excluded.approved`;

export function rolloutRowValues(r: Rollout): unknown[] {
  return [
    r.id,
    r.component,
    JSON.stringify(r.set),
    JSON.stringify(r.waves),
    r.failure_budget,
    r.progress_deadline,
    r.require_reports ? 1 : 0,
    r.released,
    r.paused ? 1 : 0,
    JSON.stringify(r.approved),
  ];
}
