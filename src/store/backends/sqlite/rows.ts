// Rows -> records. Reading turns every row back into the record shape and runs it through
// the same validateRecord as files and the seed, so a row written by hand (the sqlite3 shell,
// another tool) is checked exactly like a YAML file would be. Records are written as rows by
// ./row-writer.ts.
import type { Database } from 'better-sqlite3';
import { type Problem, problem } from '../../../domain/problem.ts';
import { validateRecord } from '../../../domain/rules/record-schema.ts';
import type { AnyRecord, Collection, RecordSets } from '../../../domain/records.ts';
import { ROLLOUT_JSON_FIELDS, rolloutRowInputs } from './rollout-rows.ts';

export interface LoadedRows {
  records: RecordSets;
  problems: Problem[];
  /** Reference rows whose cluster row is gone (left by a delete with foreign keys off). */
  orphanReferences: number;
}

interface ComponentRow {
  id: string;
  component_path: unknown;
  component_version: unknown;
  oci_url: unknown;
  oci_tag: unknown;
  cluster_env_enabled: unknown;
  depends_on: unknown;
}
interface NamespaceRow {
  id: string;
  labels: unknown;
  annotations: unknown;
}
interface RolebindingRow {
  id: string;
  role: unknown;
  subjects: unknown;
}
interface ClusterRow {
  id: string;
  cluster_name: unknown;
  cluster_dns: unknown;
  environment: unknown;
  credential_generation: unknown;
  receiver_url: unknown;
  patches: unknown;
}
interface RefRow {
  cluster_id: string;
  ref_id: string;
}
interface ComponentRefRow extends RefRow {
  enabled: unknown;
  oci_tag: unknown;
  component_path: unknown;
}

/**
 * Validated records by "collection/id", with the row content they were built from: a reload
 * after a change to a few rows re-checks only those (the schema check is most of the cost
 * of a load). Give the map of the previous load; it is replaced by one of this load.
 */
export type RecordCache = Map<string, { source: string; record: AnyRecord }>;

/** Reads every record. Run it inside a read transaction so all tables come from one revision. */
export function readAllRecords(db: Database, previous: RecordCache = new Map()): LoadedRows & { cache: RecordCache } {
  const problems: Problem[] = [];
  const records: RecordSets = { clusters: [], platform_components: [], namespaces: [], rolebindings: [], rollouts: [] };
  const cache: RecordCache = new Map();
  const bool = (value: unknown): unknown => (value === 0 ? false : value === 1 ? true : value);
  /** `input` holds JSON columns as text (named in `jsonFields`); they are parsed only when the row changed. */
  const add = (collection: Collection, input: Record<string, unknown>, jsonFields: string[]): void => {
    const key = `${collection}/${String(input.id)}`;
    const source = JSON.stringify(input);
    const hit = previous.get(key);
    if (hit && hit.source === source) {
      cache.set(key, hit);
      (records[collection] as AnyRecord[]).push(hit.record);
      return;
    }
    const parsed = { ...input };
    for (const field of jsonFields) {
      const text = parsed[field];
      if (typeof text !== 'string') continue;
      try {
        parsed[field] = JSON.parse(text);
      } catch {
        problems.push(
          problem(
            'wrong_type',
            { record: { collection, id: String(input.id) }, field: `/${field}` },
            'is not valid JSON',
          ),
        );
        return;
      }
    }
    const result = validateRecord(collection, parsed);
    if (result.ok) {
      cache.set(key, { source, record: result.record });
      (records[collection] as AnyRecord[]).push(result.record);
    } else {
      problems.push(
        ...result.problems.map((p) => ({ ...p, at: { ...p.at, record: { collection, id: String(input.id) } } })),
      );
    }
  };

  for (const row of db.prepare('SELECT * FROM platform_components ORDER BY id').all() as ComponentRow[]) {
    add(
      'platform_components',
      {
        id: row.id,
        component_path: row.component_path,
        component_version: row.component_version,
        oci_url: row.oci_url,
        oci_tag: row.oci_tag,
        cluster_env_enabled: bool(row.cluster_env_enabled),
        depends_on: row.depends_on,
      },
      ['depends_on'],
    );
  }
  for (const row of db.prepare('SELECT * FROM namespaces ORDER BY id').all() as NamespaceRow[]) {
    add('namespaces', { id: row.id, labels: row.labels, annotations: row.annotations }, ['labels', 'annotations']);
  }
  for (const row of db.prepare('SELECT * FROM rolebindings ORDER BY id').all() as RolebindingRow[]) {
    add('rolebindings', { id: row.id, role: row.role, subjects: row.subjects }, ['subjects']);
  }
  for (const input of rolloutRowInputs(db, bool)) add('rollouts', input, ROLLOUT_JSON_FIELDS);

  const clusterRows = db.prepare('SELECT * FROM clusters ORDER BY id').all() as ClusterRow[];
  const byCluster = new Map<string, { platform_components: unknown[]; namespaces: unknown[]; rolebindings: unknown[] }>(
    clusterRows.map((row) => [row.id, { platform_components: [], namespaces: [], rolebindings: [] }]),
  );
  let orphanReferences = 0;
  const refs = <R extends RefRow>(
    sql: string,
    field: 'platform_components' | 'namespaces' | 'rolebindings',
    toRef: (row: R) => unknown,
  ) => {
    for (const row of db.prepare(sql).all() as R[]) {
      const target = byCluster.get(row.cluster_id);
      if (target) target[field].push(toRef(row));
      else orphanReferences++;
    }
  };
  refs<ComponentRefRow>(
    `SELECT cluster_id, component_id AS ref_id, enabled, oci_tag, component_path
       FROM cluster_platform_components ORDER BY cluster_id, position`,
    'platform_components',
    (row) => ({ id: row.ref_id, enabled: bool(row.enabled), oci_tag: row.oci_tag, component_path: row.component_path }),
  );
  refs<RefRow>(
    'SELECT cluster_id, namespace_id AS ref_id FROM cluster_namespaces ORDER BY cluster_id, position',
    'namespaces',
    (row) => ({
      id: row.ref_id,
    }),
  );
  refs<RefRow>(
    'SELECT cluster_id, rolebinding_id AS ref_id FROM cluster_rolebindings ORDER BY cluster_id, position',
    'rolebindings',
    (row) => ({ id: row.ref_id }),
  );
  for (const row of clusterRows) {
    add(
      'clusters',
      {
        id: row.id,
        cluster_name: row.cluster_name,
        cluster_dns: row.cluster_dns,
        environment: row.environment,
        credential_generation: row.credential_generation,
        receiver_url: row.receiver_url,
        ...byCluster.get(row.id)!,
        patches: row.patches,
      },
      ['patches'],
    );
  }
  return { records, problems, orphanReferences, cache };
}

/** True when no table holds a record. */
export function hasNoRecords(db: Database): boolean {
  const row = db
    .prepare(
      `SELECT (SELECT count(*) FROM clusters) + (SELECT count(*) FROM platform_components)
            + (SELECT count(*) FROM namespaces) + (SELECT count(*) FROM rolebindings)
            + (SELECT count(*) FROM rollouts) AS n`,
    )
    .get() as { n: number };
  return row.n === 0;
}
