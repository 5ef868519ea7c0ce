// The database schema, as numbered migrations. PRAGMA user_version holds the number of the
// last one applied; each migration runs in its own transaction together with the bump of
// user_version, so a crash leaves the database at one version or the next, never between.
//
// Layout (schema version 1):
// - One table per collection, one row per record. Scalars are columns; lists of values and
//   string maps (depends_on, labels, annotations, subjects, patches) are JSON text, which
//   keeps the key order exactly as written.
// - A cluster's references are rows of cluster_platform_components, cluster_namespaces and
//   cluster_rolebindings, ordered by `position`: that order is the order of the served inputs.
//   They belong to their cluster (foreign key, ON DELETE CASCADE). They are deliberately not
//   foreign keys to the catalog or the definitions: the read contract lets a cluster reference an
//   id that has no definition (the read endpoints skip it), exactly as the other backends do;
//   REST writes refuse such references, and deleting a referenced record is refused as a conflict.
// - meta.revision counts committed changes. Triggers bump it for every row changed by
//   anyone, so a change made by another process (a second instance, the sqlite3 shell) moves
//   it too; the service's own mutation then sets it to exactly one more than before, inside
//   the same transaction, so one REST write (or one change set) is one revision.
// - audit_log: one row per record a REST write or change set changed, written in its transaction.
// - published_baseline (version 2): one row, what the rules need of the revision published
//   last (input counts per cluster, dangling references), so that a restart judges the
//   database against what was served before it (docs/decisions/0003-baseline-survives-restarts.md).
// - clusters.credential_generation (version 3): what a cluster's token is signed over; 0
//   for every cluster that had none, which is the schema's default.
// - audit_log.caller_kind, caller_name, caller_email (version 4): who wrote — a shared token by
//   its role ('write-token'), a person by the name and e-mail their issuer's token gave.
//   Rows written before are a shared token's, named after their token_role.
// - audit_log.message (version 5): the message the change was stored with (a change set's, a
//   REST write's Gitops-Commit-Message, or the one made from the change), the same on every
//   row of one change set; NULL on rows written before.
// - rollouts (version 6): one row per rollout; `set`, `waves` and `approved` are JSON text.
//   Nothing ties `component` to the catalog in the schema: the rules say a rollout of a
//   missing entry is a dangling reference, as for the other backends. audit_log is rebuilt with
//   'rollouts' among the collections its CHECK accepts (SQLite cannot change a CHECK in place).
// - clusters.receiver_url (version 7): the cluster's Flux Receiver, told after a revision that
//   changes its answers; NULL for every cluster that had none, which is the schema's default.
import type { Database } from 'better-sqlite3';

export interface Migration {
  version: number;
  description: string;
  sql: string;
}

/** The tables of record data of schema version 1; their triggers are made by its migration. */
const FIRST_DATA_TABLES = [
  'platform_components',
  'namespaces',
  'rolebindings',
  'clusters',
  'cluster_platform_components',
  'cluster_namespaces',
  'cluster_rolebindings',
] as const;

/** Tables holding record data; a change to any of them is a new revision. */
export const DATA_TABLES = [...FIRST_DATA_TABLES, 'rollouts'] as const;

const jsonArray = (column: string) => `CHECK (json_valid(${column}) AND json_type(${column}) = 'array')`;
const jsonObject = (column: string) => `CHECK (json_valid(${column}) AND json_type(${column}) = 'object')`;

function revisionTriggers(tables: readonly string[]): string {
  const events = ['INSERT', 'UPDATE', 'DELETE'] as const;
  return tables
    .flatMap((table) =>
      events.map(
        (event) => `
CREATE TRIGGER ${table}_after_${event.toLowerCase()}_bump_revision AFTER ${event} ON ${table}
BEGIN
  UPDATE meta SET value = value + 1 WHERE key = 'revision';
END;`,
      ),
    )
    .join('\n');
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'records, cluster references, revision counter, audit log',
    sql: `
CREATE TABLE meta (
  key   TEXT PRIMARY KEY NOT NULL,
  value ANY
) STRICT;
INSERT INTO meta (key, value) VALUES ('revision', 0);

CREATE TABLE platform_components (
  id                  TEXT PRIMARY KEY NOT NULL,
  component_path      TEXT NOT NULL,
  component_version   TEXT NOT NULL,
  oci_url             TEXT NOT NULL,
  oci_tag             TEXT NOT NULL,
  cluster_env_enabled INTEGER NOT NULL DEFAULT 0 CHECK (cluster_env_enabled IN (0, 1)),
  depends_on          TEXT NOT NULL DEFAULT '[]' ${jsonArray('depends_on')}
) STRICT;

CREATE TABLE namespaces (
  id          TEXT PRIMARY KEY NOT NULL,
  labels      TEXT NOT NULL DEFAULT '{}' ${jsonObject('labels')},
  annotations TEXT NOT NULL DEFAULT '{}' ${jsonObject('annotations')}
) STRICT;

CREATE TABLE rolebindings (
  id       TEXT PRIMARY KEY NOT NULL,
  role     TEXT NOT NULL,
  subjects TEXT NOT NULL DEFAULT '[]' ${jsonArray('subjects')}
) STRICT;

CREATE TABLE clusters (
  id           TEXT PRIMARY KEY NOT NULL,
  cluster_name TEXT NOT NULL,
  cluster_dns  TEXT NOT NULL,
  environment  TEXT NOT NULL CHECK (environment IN ('dev', 'qa', 'uat', 'prod')),
  patches      TEXT NOT NULL DEFAULT '{}' ${jsonObject('patches')}
) STRICT;
-- The read endpoints find a cluster by its DNS name, case-insensitively.
CREATE UNIQUE INDEX clusters_cluster_dns ON clusters (lower(cluster_dns));

CREATE TABLE cluster_platform_components (
  cluster_id     TEXT NOT NULL REFERENCES clusters (id) ON DELETE CASCADE ON UPDATE CASCADE,
  position       INTEGER NOT NULL,
  component_id   TEXT NOT NULL,
  enabled        INTEGER NOT NULL CHECK (enabled IN (0, 1)),
  oci_tag        TEXT,
  component_path TEXT,
  PRIMARY KEY (cluster_id, position),
  UNIQUE (cluster_id, component_id)
) STRICT;
CREATE INDEX cluster_platform_components_component ON cluster_platform_components (component_id);

CREATE TABLE cluster_namespaces (
  cluster_id   TEXT NOT NULL REFERENCES clusters (id) ON DELETE CASCADE ON UPDATE CASCADE,
  position     INTEGER NOT NULL,
  namespace_id TEXT NOT NULL,
  PRIMARY KEY (cluster_id, position),
  UNIQUE (cluster_id, namespace_id)
) STRICT;
CREATE INDEX cluster_namespaces_namespace ON cluster_namespaces (namespace_id);

CREATE TABLE cluster_rolebindings (
  cluster_id     TEXT NOT NULL REFERENCES clusters (id) ON DELETE CASCADE ON UPDATE CASCADE,
  position       INTEGER NOT NULL,
  rolebinding_id TEXT NOT NULL,
  PRIMARY KEY (cluster_id, position),
  UNIQUE (cluster_id, rolebinding_id)
) STRICT;
CREATE INDEX cluster_rolebindings_rolebinding ON cluster_rolebindings (rolebinding_id);

CREATE TABLE audit_log (
  seq             INTEGER PRIMARY KEY,
  at              TEXT NOT NULL,
  action          TEXT NOT NULL CHECK (action IN ('create', 'update', 'delete')),
  collection      TEXT NOT NULL CHECK (collection IN ('clusters', 'platform_components', 'namespaces', 'rolebindings')),
  record_id       TEXT NOT NULL,
  token_role      TEXT NOT NULL CHECK (token_role IN ('read', 'write')),
  changed_fields  TEXT NOT NULL ${jsonArray('changed_fields')},
  revision_before INTEGER NOT NULL,
  revision_after  INTEGER NOT NULL
) STRICT;
CREATE INDEX audit_log_record ON audit_log (collection, record_id);
${revisionTriggers(FIRST_DATA_TABLES)}
`,
  },
  {
    version: 2,
    description: 'the facts of the revision published last, to judge the next one against after a restart',
    sql: `
CREATE TABLE published_baseline (
  id       INTEGER PRIMARY KEY CHECK (id = 1),
  revision TEXT NOT NULL,
  facts    TEXT NOT NULL ${jsonObject('facts')},
  at       TEXT NOT NULL
) STRICT;
`,
  },
  {
    version: 3,
    description: "a cluster's credential generation, raised to revoke its token",
    sql: `
ALTER TABLE clusters ADD COLUMN credential_generation INTEGER NOT NULL DEFAULT 0 CHECK (credential_generation >= 0);
`,
  },
  {
    version: 4,
    description: 'who made each write: the caller kind, name and e-mail in audit_log',
    sql: `
ALTER TABLE audit_log ADD COLUMN caller_kind TEXT NOT NULL DEFAULT 'service'
  CHECK (caller_kind IN ('service', 'cluster', 'person'));
ALTER TABLE audit_log ADD COLUMN caller_name TEXT NOT NULL DEFAULT '';
ALTER TABLE audit_log ADD COLUMN caller_email TEXT;
UPDATE audit_log SET caller_name = token_role || '-token';
CREATE INDEX audit_log_caller ON audit_log (caller_kind, caller_name);
`,
  },
  {
    version: 5,
    description: 'the message of each write or change set in audit_log',
    sql: `
ALTER TABLE audit_log ADD COLUMN message TEXT;
`,
  },
  {
    version: 6,
    description: 'rollouts, and audit_log accepting them',
    sql: `
CREATE TABLE rollouts (
  id                TEXT PRIMARY KEY NOT NULL,
  component         TEXT NOT NULL,
  "set"             TEXT NOT NULL DEFAULT '{}' ${jsonObject('"set"')},
  waves             TEXT NOT NULL DEFAULT '[]' ${jsonArray('waves')},
  failure_budget    INTEGER NOT NULL DEFAULT 0,
  progress_deadline TEXT NOT NULL DEFAULT '1h',
  require_reports   INTEGER NOT NULL DEFAULT 0 CHECK (require_reports IN (0, 1)),
  released          INTEGER NOT NULL DEFAULT 0,
  paused            INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1)),
  approved          TEXT NOT NULL DEFAULT '[]' ${jsonArray('approved')}
) STRICT;
CREATE INDEX rollouts_component ON rollouts (component);
${revisionTriggers(['rollouts'])}

CREATE TABLE audit_log_v6 (
  seq             INTEGER PRIMARY KEY,
  at              TEXT NOT NULL,
  action          TEXT NOT NULL CHECK (action IN ('create', 'update', 'delete')),
  collection      TEXT NOT NULL
                  CHECK (collection IN ('clusters', 'platform_components', 'namespaces', 'rolebindings', 'rollouts')),
  record_id       TEXT NOT NULL,
  token_role      TEXT NOT NULL CHECK (token_role IN ('read', 'write')),
  changed_fields  TEXT NOT NULL ${jsonArray('changed_fields')},
  revision_before INTEGER NOT NULL,
  revision_after  INTEGER NOT NULL,
  caller_kind     TEXT NOT NULL DEFAULT 'service' CHECK (caller_kind IN ('service', 'cluster', 'person')),
  caller_name     TEXT NOT NULL DEFAULT '',
  caller_email    TEXT,
  message         TEXT
) STRICT;
INSERT INTO audit_log_v6 (seq, at, action, collection, record_id, token_role, changed_fields, revision_before,
    revision_after, caller_kind, caller_name, caller_email, message)
  SELECT seq, at, action, collection, record_id, token_role, changed_fields, revision_before,
    revision_after, caller_kind, caller_name, caller_email, message FROM audit_log;
DROP TABLE audit_log;
ALTER TABLE audit_log_v6 RENAME TO audit_log;
CREATE INDEX audit_log_record ON audit_log (collection, record_id);
CREATE INDEX audit_log_caller ON audit_log (caller_kind, caller_name);
`,
  },
  {
    version: 7,
    description: "a cluster's Flux Receiver, told to poll after a revision that changes its answers",
    sql: `
ALTER TABLE clusters ADD COLUMN receiver_url TEXT CHECK (receiver_url IS NULL OR receiver_url LIKE 'https://%');
`,
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Brings the schema up to SCHEMA_VERSION. Returns the versions applied. The caller has set a
 * busy timeout: a second instance starting at the same moment waits for the first one's
 * migration and then finds nothing left to do.
 */
export function migrate(db: Database): number[] {
  const applied: number[] = [];
  for (const migration of MIGRATIONS) {
    const run = db.transaction(() => {
      // Read inside the write transaction: another process may have just migrated.
      if (schemaVersion(db) >= migration.version) return false;
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
      return true;
    });
    if (run.immediate()) applied.push(migration.version);
  }
  return applied;
}
