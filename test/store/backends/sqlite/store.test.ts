// STORE_BACKEND=sqlite beyond the read API (which the parity suites cover): schema and seed,
// the revision counter and audit_log, changes made by other processes, and faults (a lock
// held by another process, a failing write, rows that do not load).
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from 'pino';
import { createLogger } from '../../../../src/shared/logger.ts';
import type { Collection } from '../../../../src/domain/records.ts';
import type { WriteRequest } from '../../../../src/domain/writes/write-request.ts';
import { singleWrite } from '../../../../src/domain/writes/change-set.ts';
import { toApiError } from '../../../../src/http/error-mapping.ts';
import type { ApiError } from '../../../../src/http/errors.ts';
import { parseSqliteDsn } from '../../../../src/store/backends/sqlite/dsn.ts';
import { MIGRATIONS } from '../../../../src/store/backends/sqlite/migrations.ts';
import { SqliteBackend } from '../../../../src/store/backends/sqlite/sqlite-backend.ts';
import { StoreRunner } from '../../../../src/store/runner/store-runner.ts';
import { referenceSeedData } from '../../../helpers/backends.ts';
import { asSeedFile } from '../../../helpers/fixture-data.ts';
import { eventually, request } from '../../../helpers/http.ts';
import { READ_TOKEN, startTestService, type TestService, WRITE_TOKEN } from '../../../helpers/service.ts';
import { holdExclusiveLock, type LockHolder, sqlInOtherProcess, tempDatabase } from '../../../helpers/sqlite.ts';

/** The shared write token, as the audit trail names it. */
const WRITE_TOKEN_CALLER = { kind: 'service', name: 'write-token' } as const;

const silent: Logger = createLogger('silent');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A store runner on a new database seeded with the test fixture; it does not look for other processes' commits unless
 * asked.
 */
async function openStore(options: { url?: string; seedFile?: string; watch?: boolean } = {}) {
  const url = options.url ?? tempDatabase('rwc').url;
  const dsn = parseSqliteDsn(url);
  const backend = new SqliteBackend({
    dsn,
    seedFile: options.seedFile ?? asSeedFile(),
    log: silent,
    pollIntervalMs: options.watch ? undefined : 3_600_000,
  });
  const store = new StoreRunner(backend, { log: silent });
  await store.start();
  cleanups.push(() => store.stop());
  const path = dsn.kind === 'file' ? dsn.path : ':memory:';
  const revision = () => store.published()?.snapshot.revision;
  const snapshot = () => store.published()!.snapshot;
  /** One write, its outcome flattened. */
  const write = async (request: WriteRequest) => {
    const { applied, revisionBefore, revisionAfter } = await store.write({
      writes: [request],
      role: request.role,
      who: request.who,
    });
    const one = singleWrite(applied);
    return {
      record: one.record,
      changedFields: one.changedFields,
      unchanged: applied.unchanged,
      revisionBefore,
      revisionAfter,
    };
  };
  return { store, write, revision, snapshot, path, url };
}

async function startService(url: string, env: Record<string, string> = {}): Promise<TestService> {
  const service = await startTestService({
    STORE_BACKEND: 'sqlite',
    DATABASE_URL: url,
    SEED_FILE: asSeedFile(),
    ...env,
  });
  cleanups.push(() => service.close());
  return service;
}

const create = (collection: Collection, body: Record<string, unknown>): WriteRequest => ({
  kind: 'create',
  collection,
  role: 'write',
  who: WRITE_TOKEN_CALLER,
  body,
});
const patch = (collection: Collection, id: string, p: Record<string, unknown>): WriteRequest => ({
  kind: 'merge-patch',
  collection,
  role: 'write',
  who: WRITE_TOKEN_CALLER,
  id,
  patch: p,
});
const remove = (collection: Collection, id: string): WriteRequest => ({
  kind: 'delete',
  collection,
  role: 'write',
  who: WRITE_TOKEN_CALLER,
  id,
});
/** Sets a namespace's labels to exactly these. */
const relabel = (id: string, labels: Record<string, string>): WriteRequest => ({
  kind: 'replace',
  collection: 'namespaces',
  role: 'write',
  who: WRITE_TOKEN_CALLER,
  id,
  body: { labels },
});

/** A read-only look at the database file, as a person with the sqlite3 shell would take. */
function inspect<T>(path: string, query: (db: Database.Database) => T): T {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return query(db);
  } finally {
    db.close();
  }
}

const revisionIn = (path: string) =>
  inspect(path, (db) => (db.prepare("SELECT value FROM meta WHERE key = 'revision'").get() as { value: number }).value);
const auditCount = (path: string) =>
  inspect(path, (db) => (db.prepare('SELECT count(*) AS n FROM audit_log').get() as { n: number }).n);
const rowsOf = (path: string, sql: string) => inspect(path, (db) => db.prepare(sql).all());

/** The error a write was refused with, as the HTTP layer answers it. */
async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    return toApiError(error);
  }
  throw new Error('the promise resolved');
}

describe('schema and seed', () => {
  it('a new database gets the schema, WAL mode and the seed, in one transaction at revision 1', async () => {
    const { path, revision } = await openStore();
    inspect(path, (db) => {
      expect(db.pragma('user_version', { simple: true })).toBe(7);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      const tables = (
        db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]
      ).map((t) => t.name);
      expect(tables).toEqual([
        'audit_log',
        'cluster_namespaces',
        'cluster_platform_components',
        'cluster_rolebindings',
        'clusters',
        'meta',
        'namespaces',
        'platform_components',
        'published_baseline',
        'rolebindings',
        'rollouts',
      ]);
      // Seeding is not a REST mutation: it leaves no audit row.
      expect(db.prepare('SELECT count(*) AS n FROM audit_log').get()).toEqual({ n: 0 });
    });
    expect(revisionIn(path)).toBe(1);
    expect(revision()).toBe('1');
  });

  it("keeps a cluster's reference order and the key order of JSON maps exactly", async () => {
    const { path } = await openStore();
    expect(
      rowsOf(
        path,
        'SELECT position, component_id, enabled, oci_tag, component_path FROM cluster_platform_components WHERE ' +
          "cluster_id = 'c1' ORDER BY position",
      ),
    ).toEqual([
      { position: 0, component_id: 'podinfo', enabled: 1, oci_tag: '6.7.2-hotfix', component_path: null },
      { position: 1, component_id: 'cert-manager', enabled: 0, oci_tag: null, component_path: null },
      { position: 2, component_id: 'traefik', enabled: 1, oci_tag: null, component_path: 'charts/traefik-fork' },
      { position: 3, component_id: 'not-in-catalog', enabled: 1, oci_tag: null, component_path: null },
    ]);
    expect(
      rowsOf(path, "SELECT namespace_id FROM cluster_namespaces WHERE cluster_id = 'c1' ORDER BY position"),
    ).toEqual([{ namespace_id: 'team-b' }, { namespace_id: 'missing-ns' }, { namespace_id: 'team-a' }]);
    expect(rowsOf(path, "SELECT patches FROM clusters WHERE id = 'c1'")).toEqual([
      { patches: '{"podinfo":{"ui.message":"Grüße «prod» — it\'s \\"live\\"","replicaCount":"3"}}' },
    ]);
  });

  it('migrates a version-2 database: the audit rows written before name their shared token as the caller', async () => {
    const { url, path } = tempDatabase('rwc');
    const old = new Database(path);
    for (const migration of MIGRATIONS.filter((m) => m.version <= 2)) old.exec(migration.sql);
    old.pragma('user_version = 2');
    old
      .prepare(
        `INSERT INTO audit_log (at, action, collection, record_id, token_role, changed_fields, revision_before, ` +
          `revision_after)
       VALUES ('2026-01-01T00:00:00.000Z', 'create', 'namespaces', 'team-old', 'write', '["id"]', 0, 1)`,
      )
      .run();
    old.close();
    const service = await startService(url);
    expect(service.logs.find((l) => l.msg === 'sqlite database opened')).toMatchObject({
      migrations_applied: [3, 4, 5, 6, 7],
      schema_version: 7,
    });
    expect(rowsOf(path, 'SELECT record_id, token_role, caller_kind, caller_name, caller_email FROM audit_log')).toEqual(
      [
        {
          record_id: 'team-old',
          token_role: 'write',
          caller_kind: 'service',
          caller_name: 'write-token',
          caller_email: null,
        },
      ],
    );
  });

  it(
    'migrates a version-3 database (credential_generation, no audit callers): generations kept, earlier audit rows ' +
      'named after their token',
    async () => {
      const { url, path } = tempDatabase('rwc');
      const old = new Database(path);
      for (const migration of MIGRATIONS.filter((m) => m.version <= 3)) old.exec(migration.sql);
      old.pragma('user_version = 3');
      old.exec(
        `INSERT INTO clusters (id, cluster_name, cluster_dns, ` +
          `environment, credential_generation) VALUES ('old', 'old ` +
          `one', 'old.example.com', 'qa', 5)`,
      );
      old
        .prepare(
          `INSERT INTO audit_log (at, action, collection, record_id, token_role, changed_fields, revision_before, ` +
            `revision_after)
       VALUES ('2026-01-01T00:00:00.000Z', 'update', 'clusters', 'old', 'write', '["credential_generation"]', 1, 2)`,
        )
        .run();
      old.close();
      const service = await startService(url);
      expect(service.logs.find((l) => l.msg === 'sqlite database opened')).toMatchObject({
        migrations_applied: [4, 5, 6, 7],
        schema_version: 7,
      });
      expect(rowsOf(path, "SELECT credential_generation FROM clusters WHERE id = 'old'")).toEqual([
        { credential_generation: 5 },
      ]);
      expect(rowsOf(path, 'SELECT record_id, caller_kind, caller_name, caller_email FROM audit_log')).toEqual([
        { record_id: 'old', caller_kind: 'service', caller_name: 'write-token', caller_email: null },
      ]);
    },
  );

  it(
    'migrates a version-5 database: audit rows kept column for column, rollouts a table whose rows are revisions ' +
      'and audited',
    async () => {
      const { url, path } = tempDatabase('rwc');
      const old = new Database(path);
      for (const migration of MIGRATIONS.filter((m) => m.version <= 5)) old.exec(migration.sql);
      old.pragma('user_version = 5');
      old
        .prepare(
          `INSERT INTO audit_log (at, action, collection, record_id, token_role, changed_fields, revision_before, ` +
            `revision_after,
         caller_kind, caller_name, caller_email, message)
       VALUES ('2026-01-01T00:00:00.000Z', 'update', 'namespaces', 'team-old', 'write', '["labels"]', 4, 5,
         'person', 'Alice', 'alice@example.com', 'relabel')`,
        )
        .run();
      // Before version 6 the audit trail had no place for a rollout.
      expect(() =>
        old.exec(
          `INSERT INTO audit_log (at, action, collection, record_id, token_role, changed_fields, ` +
            `revision_before, revision_after)
       VALUES ('2026-01-01T00:00:00.000Z', 'create', 'rollouts', 'r', 'write', '[]', 5, 6)`,
        ),
      ).toThrow(/CHECK constraint/);
      old.close();
      const service = await startService(url, {
        API_MODE: 'crud',
        CRUD_AUTH_TOKEN: WRITE_TOKEN,
        ROLLOUT_AUTO_ADVANCE: 'off',
      });
      expect(service.logs.find((l) => l.msg === 'sqlite database opened')).toMatchObject({
        migrations_applied: [6, 7],
        schema_version: 7,
      });
      expect(
        rowsOf(
          path,
          'SELECT seq, at, action, collection, record_id, token_role, changed_fields, revision_before, ' +
            'revision_after, ' +
            'caller_kind, caller_name, caller_email, message FROM audit_log',
        ),
      ).toEqual([
        {
          seq: 1,
          at: '2026-01-01T00:00:00.000Z',
          action: 'update',
          collection: 'namespaces',
          record_id: 'team-old',
          token_role: 'write',
          changed_fields: '["labels"]',
          revision_before: 4,
          revision_after: 5,
          caller_kind: 'person',
          caller_name: 'Alice',
          caller_email: 'alice@example.com',
          message: 'relabel',
        },
      ]);
      const indexes = rowsOf(
        path,
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'audit_log' ORDER BY name",
      );
      expect(indexes).toEqual([{ name: 'audit_log_caller' }, { name: 'audit_log_record' }]);
      const rollout = {
        id: 'podinfo-7',
        component: 'podinfo',
        set: { oci_tag: '7.0.0' },
        waves: [{ name: 'all', environments: ['prod', 'dev'] }],
      };
      const created = await request(service.url, '/rollouts', {
        method: 'POST',
        token: WRITE_TOKEN,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(rollout),
      });
      expect(created.status, created.text).toBe(201);
      expect(rowsOf(path, "SELECT collection, record_id, action FROM audit_log WHERE collection = 'rollouts'")).toEqual(
        [{ collection: 'rollouts', record_id: 'podinfo-7', action: 'create' }],
      );
      expect(rowsOf(path, 'SELECT id, component, "set", waves, released, paused, approved FROM rollouts')).toEqual([
        {
          id: 'podinfo-7',
          component: 'podinfo',
          set: '{"oci_tag":"7.0.0"}',
          released: 0,
          paused: 0,
          approved: '[]',
          waves:
            '[{"name":"all","clusters":[],"environments":["prod","dev"],"batch":null,"soak":"0s","approval":false}]',
        },
      ]);
      // A row changed by someone else is a new revision, as for every table of records.
      const before = revisionIn(path);
      sqlInOtherProcess(path, "UPDATE rollouts SET paused = 1 WHERE id = 'podinfo-7'");
      expect(revisionIn(path)).toBe(before + 1);
    },
  );

  it('a second start migrates nothing and seeds nothing, even with another seed file', async () => {
    const { url, path } = tempDatabase('rwc');
    await (await startService(url)).close();
    const service = await startService(url, { SEED_FILE: 'data/seed.json' });
    const opened = service.logs.find((l) => l.msg === 'sqlite database opened');
    expect(opened).toMatchObject({ migrations_applied: [], schema_version: 7 });
    expect(service.logs.some((l) => l.msg === 'new database seeded')).toBe(false);
    const list = (await request(service.url, '/api/v2/gitops/clusters', { token: READ_TOKEN })).json();
    expect(list.inputs.map((c: { id: string }) => c.id)).toEqual(['c0', 'c1']);
    expect(revisionIn(path)).toBe(1);
  });

  it(
    'migrates a database of schema version 2: every cluster keeps its data, at credential_generation 0, which a ' +
      'write can raise',
    async () => {
      const { url, path } = tempDatabase('rwc');
      const old = new Database(path);
      for (const migration of MIGRATIONS.filter((m) => m.version <= 2)) old.exec(migration.sql);
      old.pragma('user_version = 2');
      old.exec(
        `INSERT INTO clusters (id, cluster_name, cluster_dns, environment) VALUES ('old', 'old one', ` +
          `'old.example.com', 'qa')`,
      );
      old.close();
      const service = await startService(url, { API_MODE: 'crud', CRUD_AUTH_TOKEN: WRITE_TOKEN });
      expect(service.logs.find((l) => l.msg === 'sqlite database opened')).toMatchObject({
        migrations_applied: [3, 4, 5, 6, 7],
        schema_version: 7,
      });
      const got = await request(service.url, '/clusters/old', { token: WRITE_TOKEN });
      expect(got.json()).toMatchObject({ id: 'old', cluster_name: 'old one', credential_generation: 0 });
      const raised = await request(service.url, '/clusters/old', {
        method: 'PATCH',
        token: WRITE_TOKEN,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ credential_generation: 2 }),
      });
      expect(raised.status).toBe(200);
      expect(rowsOf(path, "SELECT credential_generation FROM clusters WHERE id = 'old'")).toEqual([
        { credential_generation: 2 },
      ]);
      // The column refuses what the schema refuses, whoever writes the row.
      expect(() => sqlInOtherProcess(path, "UPDATE clusters SET credential_generation = -1 WHERE id = 'old'")).toThrow(
        /CHECK constraint/,
      );
    },
  );

  it('loads data/seed.json (the reference shape, with _id) like the memory backend does', async () => {
    const opened = await openStore({ seedFile: 'data/seed.json' });
    const snapshot = opened.snapshot();
    const expected = referenceSeedData();
    expect([...snapshot.clusters.values()]).toEqual(expected.clusters);
    expect([...snapshot.platform_components.keys()]).toEqual(expected.platform_components.map((c) => c.id).sort());
  });

  it('a write persists across a restart, and the seed is not applied over it', async () => {
    const { url, path } = tempDatabase('rwc');
    const first = await openStore({ url });
    await first.write(relabel('team-b', { tier: 'gold' }));
    await first.write(remove('clusters', 'c0'));
    await first.store.stop();

    const service = await startService(url);
    const list = (await request(service.url, '/api/v2/gitops/clusters', { token: READ_TOKEN })).json();
    expect(list.inputs.map((c: { id: string }) => c.id)).toEqual(['c1']);
    const ns = (
      await request(service.url, '/api/v2/gitops/clusters/c1.k8s.example.com/namespaces', { token: READ_TOKEN })
    ).json();
    expect(ns.inputs[0]).toMatchObject({ id: 'team-b', labels: { tier: 'gold' } });
    expect((await request(service.url, '/ready', { token: READ_TOKEN })).json().revision).toBe('3');
    expect(revisionIn(path)).toBe(3);
  });

  it('a database emptied on purpose is not seeded again', async () => {
    const { url, path } = tempDatabase('rwc');
    await (await startService(url)).close();
    sqlInOtherProcess(
      path,
      'DELETE FROM clusters; DELETE FROM platform_components; DELETE FROM namespaces; DELETE FROM rolebindings;',
    );
    const service = await startService(url);
    const list = await request(service.url, '/api/v2/gitops/clusters', { token: READ_TOKEN });
    expect(list.text).toBe('{"inputs":[]}');
    expect(service.logs.some((l) => l.msg === 'new database seeded')).toBe(false);
  });
});

describe('revision and audit_log', () => {
  it('each write is one revision, with one audit row naming what changed', async () => {
    const { write, path, revision } = await openStore();
    const created = await write(create('namespaces', { id: 'team-c', labels: { team: 'c' } }));
    expect(created).toMatchObject({
      revisionBefore: '1',
      revisionAfter: '2',
      changedFields: ['id', 'labels', 'annotations'],
    });
    const updated = await write(relabel('team-c', { team: 'c', tier: 'gold' }));
    expect(updated).toMatchObject({ revisionBefore: '2', revisionAfter: '3', changedFields: ['labels'] });
    const deleted = await write(remove('namespaces', 'team-c'));
    expect(deleted).toMatchObject({ record: null, revisionBefore: '3', revisionAfter: '4' });
    expect(revision()).toBe('4');
    expect(revisionIn(path)).toBe(4);

    const audit = rowsOf(path, 'SELECT * FROM audit_log ORDER BY seq') as Record<string, unknown>[];
    expect(audit.map(({ seq: _seq, at: _at, ...row }) => row)).toEqual([
      {
        action: 'create',
        collection: 'namespaces',
        record_id: 'team-c',
        token_role: 'write',
        changed_fields: '["id","labels","annotations"]',
        revision_before: 1,
        revision_after: 2,
        caller_kind: 'service',
        caller_name: 'write-token',
        caller_email: null,
        message: 'namespaces: create team-c\n\nChanged fields: id, labels, annotations\n',
      },
      {
        action: 'update',
        collection: 'namespaces',
        record_id: 'team-c',
        token_role: 'write',
        changed_fields: '["labels"]',
        revision_before: 2,
        revision_after: 3,
        caller_kind: 'service',
        caller_name: 'write-token',
        caller_email: null,
        message: 'namespaces: update team-c\n\nChanged fields: labels\n',
      },
      {
        action: 'delete',
        collection: 'namespaces',
        record_id: 'team-c',
        token_role: 'write',
        changed_fields: '["id","labels","annotations"]',
        revision_before: 3,
        revision_after: 4,
        caller_kind: 'service',
        caller_name: 'write-token',
        caller_email: null,
        message: 'namespaces: delete team-c\n\nChanged fields: id, labels, annotations\n',
      },
    ]);
    for (const row of audit) expect(Date.parse(row.at as string)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('a cluster write that rewrites many reference rows is still one revision', async () => {
    const { write, path } = await openStore();
    await write(
      patch('clusters', 'c1', {
        platform_components: [
          { id: 'traefik', enabled: true },
          { id: 'podinfo', enabled: false, oci_tag: '6.8.0' },
        ],
        // The fixture's dangling references would be refused by a REST write.
        namespaces: [{ id: 'team-a' }],
        rolebindings: [{ id: 'admins' }],
        patches: { podinfo: { replicaCount: '5' }, traefik: null },
      }),
    );
    expect(revisionIn(path)).toBe(2);
    expect(
      rowsOf(path, "SELECT component_id FROM cluster_platform_components WHERE cluster_id = 'c1' ORDER BY position"),
    ).toEqual([{ component_id: 'traefik' }, { component_id: 'podinfo' }]);
  });

  it('a write that changes nothing stores nothing', async () => {
    const { write, path, snapshot } = await openStore();
    const result = await write({
      kind: 'replace',
      collection: 'namespaces',
      role: 'write',
      who: WRITE_TOKEN_CALLER,
      id: 'team-b',
      body: { ...snapshot().namespaces.get('team-b')! },
    });
    expect(result).toMatchObject({ unchanged: true, revisionBefore: '1', revisionAfter: '1', changedFields: [] });
    expect(revisionIn(path)).toBe(1);
    expect(auditCount(path)).toBe(0);
  });

  it('a refused write (invalid, conflicting, missing) stores nothing', async () => {
    const { write, path, revision } = await openStore();
    const invalid = await rejection(
      write(create('clusters', { id: 'c9', cluster_name: 'x', cluster_dns: 'c9.example.com', environment: 'staging' })),
    );
    expect(invalid.code).toBe('validation_error');
    const dangling = await rejection(
      write(
        create('clusters', {
          id: 'c9',
          cluster_name: 'x',
          cluster_dns: 'c9.example.com',
          environment: 'dev',
          namespaces: [{ id: 'nope' }],
        }),
      ),
    );
    expect(dangling.code).toBe('validation_error');
    expect((await rejection(write(remove('namespaces', 'team-a')))).code).toBe('conflict');
    expect((await rejection(write(relabel('nope', {})))).code).toBe('not_found');
    expect(revisionIn(path)).toBe(1);
    expect(auditCount(path)).toBe(0);
    expect(rowsOf(path, "SELECT id FROM clusters WHERE id = 'c9'")).toEqual([]);
    expect(revision()).toBe('1');
  });

  it('writes by another process move the revision too (triggers)', async () => {
    const { path } = await openStore();
    sqlInOtherProcess(path, 'UPDATE namespaces SET labels = \'{"x":"y"}\' WHERE id = \'team-b\'');
    expect(revisionIn(path)).toBe(2);
    sqlInOtherProcess(path, "INSERT INTO namespaces (id) VALUES ('n1'), ('n2')");
    expect(revisionIn(path)).toBe(4);
  });

  it('sqlite::memory: takes writes too', async () => {
    const { write, revision, snapshot } = await openStore({ url: 'sqlite::memory:' });
    await write(relabel('team-b', { tier: 'gold' }));
    expect(revision()).toBe('2');
    expect(snapshot().namespaces.get('team-b')?.labels).toEqual({ tier: 'gold' });
  });
});

describe('changes made by another process', () => {
  it('a row written by another process is served within about a second', async () => {
    const { url, path } = tempDatabase('rwc');
    const service = await startService(url);
    const NS = '/api/v2/gitops/clusters/c1.k8s.example.com/namespaces';
    const before = await request(service.url, NS, { token: READ_TOKEN });
    expect(before.json().inputs.map((i: { id: string }) => i.id)).toEqual(['team-b', 'team-a']);

    sqlInOtherProcess(
      path,
      `BEGIN;
       INSERT INTO namespaces (id, labels) VALUES ('team-c', '{"team":"c"}');
       INSERT INTO cluster_namespaces (cluster_id, position, namespace_id) VALUES ('c1', 10, 'team-c');
       COMMIT;`,
    );
    const written = Date.now();
    let served: { ids: string[]; revision: string | undefined } = { ids: [], revision: undefined };
    await eventually(
      async () => {
        const res = await request(service.url, NS, { token: READ_TOKEN });
        served = {
          ids: res.json().inputs.map((i: { id: string }) => i.id),
          revision: res.headers['x-config-revision'] as string,
        };
        return served.ids.includes('team-c');
      },
      1500,
      20,
    );
    const latency = Date.now() - written;
    expect(latency).toBeLessThan(1500);
    expect(served.ids).toEqual(['team-b', 'team-a', 'team-c']);
    expect(served.revision).toBe('3');
    expect((await request(service.url, '/ready', { token: READ_TOKEN })).json()).toMatchObject({
      revision: '3',
      stale: false,
    });
    service.log.info({ latency_ms: latency }, 'external write served');
  });

  it('a read-only instance (mode=ro) follows the changes of the instance that writes', async () => {
    const { url, path } = tempDatabase('rwc');
    const writer = await startService(url, { API_MODE: 'crud', CRUD_AUTH_TOKEN: WRITE_TOKEN });
    const reader = await startService(url.replace('mode=rwc', 'mode=ro'));
    const res = await request(writer.url, '/namespaces/team-a', {
      method: 'PATCH',
      token: WRITE_TOKEN,
      headers: { 'content-type': 'application/json' },
      body: '{"labels":{"seen":"by-the-reader"}}',
    });
    expect(res.status).toBe(200);
    await eventually(async () => (await request(reader.url, '/ready')).json().revision === '2', 1500);
    const ns = (
      await request(reader.url, '/api/v2/gitops/clusters/c1.k8s.example.com/namespaces', { token: READ_TOKEN })
    ).json();
    expect(ns.inputs[1]).toMatchObject({ id: 'team-a', labels: { seen: 'by-the-reader' } });
    expect(revisionIn(path)).toBe(2);
  });

  it(
    'an invalid row from another process is not served: ' + 'the last good revision stays and /ready says why',
    async () => {
      const { url, path } = tempDatabase('rwc');
      const service = await startService(url);
      const PC = '/api/v2/gitops/clusters/c1.k8s.example.com/platform-components';
      const good = await request(service.url, PC, { token: READ_TOKEN });

      // A number where the contract wants a string: the JSON column accepts it, the record check does not.
      sqlInOtherProcess(path, `UPDATE clusters SET patches = '{"podinfo":{"replicaCount":3}}' WHERE id = 'c1'`);
      await eventually(
        async () => (await request(service.url, '/ready', { token: READ_TOKEN })).json().stale === true,
        1500,
      );
      const ready = (await request(service.url, '/ready', { token: READ_TOKEN })).json();
      expect(ready).toMatchObject({ status: 'ok', revision: '1', stale: true, last_load: { ok: false } });
      expect(ready.last_load.problems).toContainEqual({
        code: 'wrong_type',
        severity: 'error',
        at: 'clusters/c1/patches/podinfo/replicaCount',
        record: 'clusters/c1',
        field: '/patches/podinfo/replicaCount',
        message: 'must be a string (quote it: "3")',
      });
      const still = await request(service.url, PC, { token: READ_TOKEN });
      expect(still.body.equals(good.body)).toBe(true);
      expect(still.headers['x-config-revision']).toBe('1');

      sqlInOtherProcess(path, `UPDATE clusters SET patches = '{"podinfo":{"replicaCount":"3"}}' WHERE id = 'c1'`);
      await eventually(
        async () => (await request(service.url, '/ready', { token: READ_TOKEN })).json().stale === false,
        1500,
      );
      const fixed = await request(service.url, PC, { token: READ_TOKEN });
      expect(fixed.headers['x-config-revision']).toBe('3');
      expect(fixed.json().inputs[0].patches).toEqual({ replicaCount: '3' });
    },
  );

  it('a database whose rows do not load at start serves nothing (503) until they are fixed', async () => {
    const { url, path } = tempDatabase('rwc');
    await (await startService(url)).close();
    sqlInOtherProcess(
      path,
      "INSERT INTO cluster_namespaces (cluster_id, position, namespace_id) VALUES ('c1', 7, 'no/slashes')",
    );
    const service = await startService(url);
    const res = await request(service.url, '/api/v2/gitops/clusters', { token: READ_TOKEN });
    expect(res.status).toBe(503);
    const ready = await request(service.url, '/ready', { token: READ_TOKEN });
    expect(ready.status).toBe(503);
    expect(ready.json().last_load.problems[0].at).toBe('clusters/c1/namespaces/3/id');
    sqlInOtherProcess(path, "DELETE FROM cluster_namespaces WHERE namespace_id = 'no/slashes'");
    await eventually(
      async () => (await request(service.url, '/api/v2/gitops/clusters', { token: READ_TOKEN })).status === 200,
      1500,
    );
    expect((await request(service.url, '/ready', { token: READ_TOKEN })).json()).toMatchObject({
      status: 'ok',
      revision: '3',
      seeded_at: expect.any(String),
    });
  });

  it('a broken database (a table dropped) never turns a read into an empty or short list', async () => {
    const { url, path } = tempDatabase('rwc');
    const service = await startService(url);
    const NS = '/api/v2/gitops/clusters/c1.k8s.example.com/namespaces';
    const good = await request(service.url, NS, { token: READ_TOKEN });
    sqlInOtherProcess(path, 'DROP TABLE cluster_namespaces');
    await eventually(
      async () => (await request(service.url, '/ready', { token: READ_TOKEN })).json().stale === true,
      1500,
    );
    expect((await request(service.url, '/ready', { token: READ_TOKEN })).json().last_load.error).toMatch(
      /no such table: cluster_namespaces/,
    );
    // The load is tried again and again; after each failed attempt the reads are still the last good ones.
    const failures = () => service.logs.filter((l) => String(l.msg).startsWith('the store cannot be read now')).length;
    for (let seen = failures(); seen < 3; seen = failures()) {
      await eventually(() => failures() > seen, 5000);
      const res = await request(service.url, NS, { token: READ_TOKEN });
      expect(res.status).toBe(200);
      expect(res.body.equals(good.body)).toBe(true);
    }
  });

  it('a write applies to what the database holds, even before the change was polled', async () => {
    const { write, path, revision, snapshot } = await openStore({ watch: false });
    sqlInOtherProcess(path, "INSERT INTO namespaces (id) VALUES ('team-c')");
    expect(revision()).toBe('1'); // not polled
    const result = await write(patch('clusters', 'c0', { namespaces: [{ id: 'team-c' }] }));
    expect(result).toMatchObject({ revisionBefore: '2', revisionAfter: '3' });
    expect(snapshot().namespaces.has('team-c')).toBe(true);
  });
});

describe('faults', () => {
  it(
    'an exclusive lock held by another process makes a write fail with a 5xx within the busy timeout, without a ' +
      'trace; after release it succeeds',
    async () => {
      const { url, path } = tempDatabase('rwc', '&busy_timeout=400');
      const service = await startService(url, { API_MODE: 'crud', CRUD_AUTH_TOKEN: WRITE_TOKEN });
      const NS = '/api/v2/gitops/clusters/c1.k8s.example.com/namespaces';
      const before = await request(service.url, NS, { token: READ_TOKEN });
      const write = () =>
        request(service.url, '/namespaces/team-b', {
          method: 'PATCH',
          token: WRITE_TOKEN,
          headers: { 'content-type': 'application/merge-patch+json' },
          body: '{"labels":{"tier":"gold"}}',
        });

      let lock: LockHolder | undefined = await holdExclusiveLock(path, "INSERT INTO namespaces (id) VALUES ('ghost')");
      try {
        const started = Date.now();
        let writeDone = 0;
        const arrived = new Promise<void>((resolve) => service.server.once('request', () => resolve()));
        const pending = write().then((res) => ((writeDone = Date.now()), res));
        // The wait does not block the event loop: a read sent once the write has arrived is
        // answered long before the write gives up.
        await arrived;
        const during = await request(service.url, NS, { token: READ_TOKEN });
        const readDone = Date.now();
        expect(during.status).toBe(200);
        const refused = await pending;
        const waited = writeDone - started;
        expect(readDone - started).toBeLessThan(250);
        expect(readDone).toBeLessThan(writeDone);
        expect(refused.status).toBe(503);
        expect(refused.json().error).toBe('store_error');
        expect(refused.json().message).toMatch(/locked by another process .* \(400 ms\); nothing was stored/);
        expect(waited).toBeGreaterThanOrEqual(350);
        expect(waited).toBeLessThan(2000);
        service.log.info({ waited_ms: waited }, 'locked write refused');
        await lock.release('rollback');
        lock = undefined;
      } finally {
        await lock?.release('rollback');
      }
      expect(revisionIn(path)).toBe(1);
      expect(auditCount(path)).toBe(0);
      expect(rowsOf(path, "SELECT labels FROM namespaces WHERE id IN ('team-b', 'ghost')")).toEqual([{ labels: '{}' }]);
      expect((await request(service.url, NS, { token: READ_TOKEN })).body.equals(before.body)).toBe(true);
      expect((await request(service.url, '/ready', { token: READ_TOKEN })).json()).toMatchObject({
        revision: '1',
        stale: false,
      });

      const retried = await write();
      expect(retried.status).toBe(200);
      expect(retried.headers['x-config-revision']).toBe('2');
      const after = (await request(service.url, NS, { token: READ_TOKEN })).json();
      expect(after.inputs[0]).toMatchObject({ id: 'team-b', labels: { tier: 'gold' } });
      expect(auditCount(path)).toBe(1);
    },
  );

  it('a store error on a write is a 503 store_error over HTTP, and the read side keeps serving', async () => {
    const { url, path } = tempDatabase('rwc');
    const service = await startService(url, { API_MODE: 'crud', CRUD_AUTH_TOKEN: WRITE_TOKEN });
    const PC = '/api/v2/gitops/clusters/c1.k8s.example.com/platform-components';
    const good = await request(service.url, PC, { token: READ_TOKEN });
    sqlInOtherProcess(
      path,
      "CREATE TRIGGER audit_fails BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'disk quota exceeded'); END;",
    );
    const res = await request(service.url, '/platform_components/podinfo', {
      method: 'PATCH',
      token: WRITE_TOKEN,
      headers: { 'content-type': 'application/json' },
      body: '{"oci_tag":"9.9.9"}',
    });
    expect(res.status).toBe(503);
    expect(res.json()).toMatchObject({ error: 'store_error' });
    const still = await request(service.url, PC, { token: READ_TOKEN });
    expect(still.body.equals(good.body)).toBe(true);
    expect(rowsOf(path, "SELECT oci_tag FROM platform_components WHERE id = 'podinfo'")).toEqual([
      { oci_tag: '6.7.1' },
    ]);
  });

  it('a store error in the middle of a write leaves nothing half-written', async () => {
    const { write, path, revision, snapshot } = await openStore();
    const rowsBefore = rowsOf(
      path,
      "SELECT * FROM cluster_platform_components WHERE cluster_id = 'c1' ORDER BY position",
    );
    const clusterBefore = rowsOf(path, "SELECT * FROM clusters WHERE id = 'c1'");
    // The cluster and reference rows are written first; the audit row, last, fails.
    sqlInOtherProcess(
      path,
      "CREATE TRIGGER audit_fails BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'disk quota exceeded'); END;",
    );
    const change = patch('clusters', 'c1', {
      environment: 'qa',
      platform_components: [{ id: 'traefik', enabled: true }],
      namespaces: [{ id: 'team-a' }],
      rolebindings: [],
      patches: null,
    });
    const error = await rejection(write(change));
    expect(error.code).toBe('store_error');
    expect(error.message).toMatch(/disk quota exceeded.*nothing was stored/);
    expect(rowsOf(path, "SELECT * FROM cluster_platform_components WHERE cluster_id = 'c1' ORDER BY position")).toEqual(
      rowsBefore,
    );
    expect(rowsOf(path, "SELECT * FROM clusters WHERE id = 'c1'")).toEqual(clusterBefore);
    expect(revisionIn(path)).toBe(1);
    expect(revision()).toBe('1');
    expect(snapshot().clusters.get('c1')?.environment).toBe('prod');

    sqlInOtherProcess(path, 'DROP TRIGGER audit_fails');
    const result = await write(change);
    expect(result.revisionAfter).toBe('2');
    expect(snapshot().clusters.get('c1')?.environment).toBe('qa');
  });

  it('no write is accepted while the database holds rows that do not load', async () => {
    const { write, path } = await openStore({ watch: true });
    sqlInOtherProcess(path, `UPDATE clusters SET patches = '{"podinfo":{"replicaCount":3}}' WHERE id = 'c1'`);
    const error = await rejection(write(relabel('team-b', { tier: 'gold' })));
    expect(error.code).toBe('store_error');
    expect(error.message).toMatch(/holds revision 2, which was refused .*takes no writes until that is fixed/);
    expect(revisionIn(path)).toBe(2);
    expect(auditCount(path)).toBe(0);
  });
});
