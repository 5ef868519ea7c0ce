// Records -> rows: the statements that store one record (its row, and a cluster's reference
// rows in their order) or delete one, prepared once per database. Reading them back is ./rows.ts's.
import type { Database, Statement } from 'better-sqlite3';
import type {
  AnyRecord,
  Cluster,
  Collection,
  NamespaceDef,
  PlatformComponent,
  RoleBindingDef,
  Rollout,
} from '../../../domain/records.ts';
import { rolloutRowValues, UPSERT_ROLLOUT } from './rollout-rows.ts';

/** Prepared statements that write one record (insert or replace) or delete one. */
export class RowWriter {
  readonly #db: Database;
  readonly #statements = new Map<string, Statement>();

  constructor(db: Database) {
    this.#db = db;
  }

  #stmt(sql: string): Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  /** Stores the record, replacing a record of the same id. */
  put(collection: Collection, record: AnyRecord): void {
    switch (collection) {
      case 'platform_components': {
        const r = record as PlatformComponent;
        this.#stmt(
          `INSERT INTO platform_components (id, component_path, component_version, oci_url, oci_tag, ` +
            `cluster_env_enabled, depends_on)
           VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET component_path = excluded.component_path,
             component_version = excluded.component_version,
             oci_url = excluded.oci_url, oci_tag = excluded.oci_tag, cluster_env_enabled = excluded.cluster_env_enabled,
             depends_on = excluded.depends_on`,
        ).run(
          r.id,
          r.component_path,
          r.component_version,
          r.oci_url,
          r.oci_tag,
          r.cluster_env_enabled ? 1 : 0,
          JSON.stringify(r.depends_on),
        );
        return;
      }
      case 'namespaces': {
        const r = record as NamespaceDef;
        this.#stmt(
          `INSERT INTO namespaces (id, labels, annotations) VALUES (?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET labels = excluded.labels, annotations = excluded.annotations`,
        ).run(r.id, JSON.stringify(r.labels), JSON.stringify(r.annotations));
        return;
      }
      case 'rolebindings': {
        const r = record as RoleBindingDef;
        this.#stmt(
          `INSERT INTO rolebindings (id, role, subjects) VALUES (?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET role = excluded.role, subjects = excluded.subjects`,
        ).run(r.id, r.role, JSON.stringify(r.subjects));
        return;
      }
      case 'rollouts':
        this.#stmt(UPSERT_ROLLOUT).run(...rolloutRowValues(record as Rollout));
        return;
      case 'clusters': {
        const r = record as Cluster;
        this.#stmt(
          `INSERT INTO clusters (id, cluster_name, cluster_dns, environment, credential_generation, receiver_url, ` +
            `patches)
           VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET cluster_name = excluded.cluster_name, cluster_dns = excluded.cluster_dns,
             environment = excluded.environment, credential_generation = excluded.credential_generation,
             receiver_url = excluded.receiver_url, patches = excluded.patches`,
        ).run(
          r.id,
          r.cluster_name,
          r.cluster_dns,
          r.environment,
          r.credential_generation,
          r.receiver_url ?? null,
          JSON.stringify(r.patches),
        );
        this.#deleteReferences(r.id);
        const component = this.#stmt(
          `INSERT INTO cluster_platform_components (cluster_id, position, component_id, enabled, oci_tag, ` +
            `component_path)
           VALUES (?, ?, ?, ?, ?, ?)`,
        );
        r.platform_components.forEach((ref, i) =>
          component.run(r.id, i, ref.id, ref.enabled ? 1 : 0, ref.oci_tag ?? null, ref.component_path ?? null),
        );
        const namespace = this.#stmt(
          'INSERT INTO cluster_namespaces (cluster_id, position, namespace_id) VALUES (?, ?, ?)',
        );
        r.namespaces.forEach((ref, i) => namespace.run(r.id, i, ref.id));
        const rolebinding = this.#stmt(
          'INSERT INTO cluster_rolebindings (cluster_id, position, rolebinding_id) VALUES (?, ?, ?)',
        );
        r.rolebindings.forEach((ref, i) => rolebinding.run(r.id, i, ref.id));
        return;
      }
    }
  }

  delete(collection: Collection, id: string): void {
    // Reference rows go explicitly too, whether or not foreign keys are enforced.
    if (collection === 'clusters') this.#deleteReferences(id);
    this.#stmt(`DELETE FROM ${collection} WHERE id = ?`).run(id);
  }

  #deleteReferences(clusterId: string): void {
    for (const table of ['cluster_platform_components', 'cluster_namespaces', 'cluster_rolebindings']) {
      this.#stmt(`DELETE FROM ${table} WHERE cluster_id = ?`).run(clusterId);
    }
  }
}
