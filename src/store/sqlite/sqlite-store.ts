// STORE_BACKEND=sqlite: the records live in one SQLite file (or in memory). At start the
// schema is migrated and, for a database that has never held records, SEED_FILE is loaded.
// Every revision is read whole in one read transaction, checked like a config repo and
// published all-or-nothing; a change made by another process (a second instance, the sqlite3
// shell) is noticed through PRAGMA data_version within POLL_INTERVAL_MS. In crud mode each
// mutation is one transaction: the record's rows, the revision bump and the audit_log row.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Logger } from 'pino';
import { formatProblem, type Problem } from '../../domain/problems.ts';
import { createSnapshot, type Snapshot } from '../../domain/snapshot.ts';
import { ApiError } from '../../http/errors.ts';
import type { SnapshotPublisher } from '../../serving/publisher.ts';
import {
  type LoadReport,
  type Mutation,
  type MutationResult,
  StoreStartError,
  type StoreStatus,
  type WritableConfigStore,
} from '../config-store.ts';
import { type AppliedMutation, applyMutation } from '../apply-mutation.ts';
import { loadSeedFile } from '../seed-file.ts';
import { SerialQueue } from '../serial-queue.ts';
import { describeDsn, type SqliteDsn } from './dsn.ts';
import { migrate, SCHEMA_VERSION, schemaVersion } from './migrations.ts';
import { hasNoRecords, readAllRecords, type RecordCache, RowWriter } from './rows.ts';

/** How often PRAGMA data_version is checked for commits by other connections. */
export const POLL_INTERVAL_MS = 250;

export interface SqliteStoreOptions {
  dsn: SqliteDsn;
  seedFile: string;
  publisher: SnapshotPublisher;
  log: Logger;
  /** Check for changes by other processes (off in one-shot tools). Default on. */
  watch?: boolean;
  pollIntervalMs?: number;
}

type LoadOutcome = { ok: true; snapshot: Snapshot } | { ok: false; error: string; problems: Problem[] };

type Db = Database.Database;

export class SqliteStore implements WritableConfigStore {
  readonly backend = 'sqlite' as const;
  readonly dsn: SqliteDsn;
  readonly #seedFile: string;
  readonly #publisher: SnapshotPublisher;
  readonly #log: Logger;
  readonly #watch: boolean;
  readonly #pollIntervalMs: number;
  #db: Db | undefined;
  #writer: RowWriter | undefined;
  #timer: NodeJS.Timeout | undefined;
  #lastDataVersion: number | undefined;
  #lastLoad: LoadReport | undefined;
  #seededAt: string | undefined;
  #orphanReferences = 0;
  #recordCache: RecordCache = new Map();
  /** Mutations run one after the other, in arrival order. */
  readonly #writes = new SerialQueue();

  constructor(options: SqliteStoreOptions) {
    this.dsn = options.dsn;
    this.#seedFile = options.seedFile;
    this.#publisher = options.publisher;
    this.#log = options.log;
    this.#watch = options.watch ?? true;
    this.#pollIntervalMs = options.pollIntervalMs ?? POLL_INTERVAL_MS;
  }

  get #name(): string {
    return describeDsn(this.dsn);
  }

  async start(): Promise<void> {
    const db = this.#open();
    this.#db = db;
    try {
      const applied = this.#prepareSchema(db);
      if (this.dsn.mode !== 'ro') this.#seedIfNew(db);
      this.#writer = this.dsn.mode === 'ro' ? undefined : new RowWriter(db);
      const seededAt = db.prepare("SELECT value FROM meta WHERE key = 'seeded_at'").get() as { value: string } | undefined;
      this.#seededAt = seededAt?.value;
      this.#log.info(
        { database: this.#name, mode: this.dsn.mode, schema_version: SCHEMA_VERSION, migrations_applied: applied },
        'sqlite database opened',
      );
    } catch (error) {
      db.close();
      this.#db = undefined;
      if (error instanceof StoreStartError) throw error;
      throw new StoreStartError(`DATABASE_URL: the database ${this.#name} cannot be prepared: ${sqliteMessage(error)}`);
    }
    // From here on the event loop must never wait on a lock: a write that finds the database
    // locked retries asynchronously (see #beginImmediate) and a busy read is retried by the
    // next poll, so a lock held by another process never stalls the read endpoints.
    db.pragma('busy_timeout = 0');
    this.#reload('start');
    if (this.#watch && this.dsn.kind === 'file') {
      this.#timer = setInterval(() => this.#poll(), this.#pollIntervalMs);
      this.#timer.unref();
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#writes.idle();
    this.#db?.close();
    this.#db = undefined;
  }

  status(): StoreStatus {
    return {
      backend: this.backend,
      last_load: this.#lastLoad,
      details: {
        database: this.#name,
        database_mode: this.dsn.mode,
        schema_version: SCHEMA_VERSION,
        busy_timeout_ms: this.dsn.busyTimeoutMs,
        ...(this.#seededAt ? { seeded_at: this.#seededAt } : {}),
        ...(this.#orphanReferences ? { orphan_reference_rows: this.#orphanReferences } : {}),
      },
    };
  }

  mutate(mutation: Mutation): Promise<MutationResult> {
    return this.#writes.run(() => this.#mutate(mutation));
  }

  // ---- start-up -------------------------------------------------------------------------

  #open(): Db {
    const { dsn } = this;
    if (dsn.kind === 'memory') return new Database(':memory:');
    const { path, mode } = dsn;
    if (mode === 'rwc') {
      try {
        mkdirSync(dirname(path), { recursive: true });
      } catch (error) {
        throw new StoreStartError(`DATABASE_URL: cannot create the folder of ${path}: ${sqliteMessage(error)}`);
      }
    } else if (!existsSync(path)) {
      throw new StoreStartError(
        `DATABASE_URL: the database file ${path} does not exist; mode=${mode} opens an existing file only (use mode=rwc to create it)`,
      );
    }
    if (existsSync(path) && statSync(path).isDirectory()) {
      throw new StoreStartError(`DATABASE_URL: ${path} is a folder, not a database file`);
    }
    let db: Db;
    try {
      db = new Database(path, { readonly: mode === 'ro', fileMustExist: mode !== 'rwc', timeout: dsn.busyTimeoutMs });
    } catch (error) {
      throw new StoreStartError(`DATABASE_URL: cannot open ${path} (mode=${mode}): ${sqliteMessage(error)}`);
    }
    try {
      // The first real read: fails here when the file is not a SQLite database.
      schemaVersion(db);
      if (mode !== 'ro') {
        const journal = db.pragma('journal_mode = WAL', { simple: true });
        if (journal !== 'wal') this.#log.warn({ database: path, journal_mode: journal }, 'the database could not be switched to WAL mode');
        db.pragma('synchronous = NORMAL');
      }
      db.pragma('foreign_keys = ON');
    } catch (error) {
      db.close();
      throw new StoreStartError(`DATABASE_URL: ${path} cannot be used as a database: ${sqliteMessage(error)}`);
    }
    return db;
  }

  /** Checks the schema version and migrates; returns the migrations applied. */
  #prepareSchema(db: Db): number[] {
    const version = schemaVersion(db);
    if (version > SCHEMA_VERSION) {
      throw new StoreStartError(
        `DATABASE_URL: the database ${this.#name} has schema version ${version}, newer than this service understands (${SCHEMA_VERSION}); run a newer version of the service`,
      );
    }
    if (version === 0) {
      const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").get() as { n: number };
      if (tables.n > 0) {
        throw new StoreStartError(
          `DATABASE_URL: the database ${this.#name} already holds tables that this service did not create (user_version is 0); point DATABASE_URL at a new or a service-created database`,
        );
      }
    }
    if (this.dsn.mode === 'ro') {
      if (version < SCHEMA_VERSION) {
        throw new StoreStartError(
          version === 0
            ? `DATABASE_URL: the database ${this.#name} is opened read-only (mode=ro) but has no schema yet; start once with mode=rwc or mode=rw to create and seed it`
            : `DATABASE_URL: the database ${this.#name} is at schema version ${version} and needs version ${SCHEMA_VERSION}; start once with mode=rw to migrate it`,
        );
      }
      return [];
    }
    return migrate(db);
  }

  /** Loads SEED_FILE into a database that has never held a record. */
  #seedIfNew(db: Db): void {
    if (!isPristine(db)) return;
    const built = loadSeedFile(
      this.#seedFile,
      '1',
      `, and the database ${this.#name} is new, so it needs a seed; give SEED_FILE a file ({} for an empty start)`,
    );
    const writer = new RowWriter(db);
    const at = new Date().toISOString();
    const seeded = db.transaction(() => {
      // Another instance may have seeded it since the check above.
      if (!isPristine(db)) return false;
      const { snapshot } = built;
      for (const collection of ['platform_components', 'namespaces', 'rolebindings', 'clusters'] as const) {
        for (const record of snapshot[collection].values()) writer.put(collection, record);
      }
      // The triggers counted every seeded row; the seed is one revision.
      setRevision(db, 1);
      setMeta(db, 'seeded_at', at);
      setMeta(db, 'seed_file', this.#seedFile);
      return true;
    });
    if (seeded.immediate()) {
      this.#log.info({ database: this.#name, seed_file: this.#seedFile, clusters: built.snapshot.clusters.size }, 'new database seeded');
    }
  }

  // ---- reading revisions ----------------------------------------------------------------

  #poll(): void {
    const db = this.#db;
    if (!db) return;
    let version: number;
    try {
      version = db.pragma('data_version', { simple: true }) as number;
    } catch (error) {
      this.#log.warn({ err: error, database: this.#name }, 'cannot check the database for changes');
      return;
    }
    if (version !== this.#lastDataVersion) this.#reload('the database changed');
  }

  /** Reads the database and publishes what it holds, if it is valid and new. */
  #reload(reason: string): LoadOutcome {
    const db = this.#db!;
    const at = new Date().toISOString();
    let outcome: LoadOutcome;
    let dataVersion: number | undefined;
    try {
      // Read before the load: a commit that lands during the load is seen again next poll.
      dataVersion = db.pragma('data_version', { simple: true }) as number;
      outcome = db.transaction(() => this.#loadSnapshot(db))();
    } catch (error) {
      // Busy or failing storage: nothing is decided; the next poll tries again.
      const message = `cannot read the database ${this.#name}: ${sqliteMessage(error)}`;
      this.#lastLoad = { at, ok: false, error: message, problems: [] };
      this.#log.error({ err: error, reason, served_revision: this.#publisher.current()?.revision ?? null }, message);
      return { ok: false, error: message, problems: [] };
    }
    this.#lastDataVersion = dataVersion;
    this.#record(outcome, at, reason);
    return outcome;
  }

  /** Builds a snapshot of the database. Call inside a transaction. */
  #loadSnapshot(db: Db): LoadOutcome {
    const version = schemaVersion(db);
    if (version !== SCHEMA_VERSION) {
      return {
        ok: false,
        problems: [],
        error: `the database schema is at version ${version}, this service needs ${SCHEMA_VERSION}; restart the service (a newer version migrated it, or it was changed by hand)`,
      };
    }
    const revision = String(readRevision(db));
    const loaded = readAllRecords(db, this.#recordCache);
    this.#recordCache = loaded.cache;
    this.#orphanReferences = loaded.orphanReferences;
    if (loaded.problems.length > 0) {
      return { ok: false, problems: loaded.problems, error: `${loaded.problems.length} problem(s) in the database` };
    }
    const built = createSnapshot(loaded.records, revision);
    if (!built.ok) return { ok: false, problems: built.problems, error: `${built.problems.length} problem(s) in the database` };
    return built;
  }

  #record(outcome: LoadOutcome, at: string, reason: string): void {
    if (outcome.ok) {
      const { snapshot } = outcome;
      const previous = this.#publisher.current()?.revision;
      this.#lastLoad = { at, ok: true, revision: snapshot.revision };
      if (previous !== snapshot.revision) {
        this.#publisher.publish(snapshot);
        this.#log.info(
          { revision: snapshot.revision, previous, reason, clusters: snapshot.clusters.size },
          'published a new revision of the database',
        );
      }
      if (this.#orphanReferences > 0) {
        this.#log.warn(
          { orphan_reference_rows: this.#orphanReferences },
          'the database has reference rows of clusters that no longer exist (deleted with foreign keys off); they are ignored',
        );
      }
      return;
    }
    const served = this.#publisher.current()?.revision;
    this.#lastLoad = { at, ok: false, error: outcome.error, problems: outcome.problems };
    this.#log.error(
      { reason, served_revision: served ?? null, problems: outcome.problems.slice(0, 50).map(formatProblem) },
      served
        ? `database change rejected, still serving revision ${served}: ${outcome.error}`
        : `the database cannot be loaded, nothing is served yet: ${outcome.error}`,
    );
  }

  // ---- writing --------------------------------------------------------------------------

  async #mutate(mutation: Mutation): Promise<MutationResult> {
    const db = this.#db;
    const writer = this.#writer;
    if (!db || !writer) throw new ApiError('store_error', `the database ${this.#name} is not open for writing`);
    await this.#beginImmediate(db);
    let result: MutationResult;
    try {
      const before = readRevision(db);
      const after = before + 1;
      // The write applies to what the database holds now, which may be newer than what is
      // served (another process committed since the last poll), or may not load at all.
      let snapshot = this.#publisher.current()?.snapshot;
      if (!snapshot || snapshot.revision !== String(before) || this.#lastLoad?.ok === false) {
        const loaded = this.#loadSnapshot(db);
        if (!loaded.ok) {
          throw new ApiError(
            'store_error',
            `the database holds data that does not load (${loaded.error}), so no write is accepted until it is fixed; see /ready`,
          );
        }
        snapshot = loaded.snapshot;
      }
      const applied = applyMutation(snapshot, mutation, String(after));
      if (applied.unchanged) {
        // Identical content: nothing is stored, the revision stays, no audit row.
        db.exec('ROLLBACK');
        result = {
          record: applied.record,
          revisionBefore: String(before),
          revisionAfter: String(before),
          changedFields: [],
          snapshot: applied.snapshot,
          unchanged: true,
        };
      } else {
        result = this.#store(db, writer, mutation, applied, before);
      }
    } catch (error) {
      if (db.inTransaction) {
        try {
          db.exec('ROLLBACK');
        } catch (rollbackError) {
          this.#log.error({ err: rollbackError }, 'rollback failed');
        }
      }
      if (error instanceof ApiError) throw error;
      this.#log.error({ err: error, collection: mutation.collection, id: mutation.id, action: mutation.action }, 'database write failed');
      throw new ApiError('store_error', `the database refused the write (${sqliteMessage(error)}); nothing was changed`);
    }
    this.#publisher.publish(result.snapshot);
    this.#lastLoad = { at: new Date().toISOString(), ok: true, revision: result.revisionAfter };
    return result;
  }

  /** Writes the record's rows, the revision and the audit row, and commits. */
  #store(db: Db, writer: RowWriter, mutation: Mutation, applied: AppliedMutation, before: number): MutationResult {
    const after = before + 1;
    if (applied.record === null) writer.delete(mutation.collection, mutation.id);
    else writer.put(mutation.collection, applied.record);
    // The triggers counted every row written; one mutation is one revision.
    setRevision(db, after);
    db.prepare(
      `INSERT INTO audit_log (at, action, collection, record_id, token_role, changed_fields, revision_before, revision_after)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      new Date().toISOString(),
      mutation.action,
      mutation.collection,
      mutation.id,
      mutation.role,
      JSON.stringify(applied.changedFields),
      BigInt(before),
      BigInt(after),
    );
    db.exec('COMMIT');
    return {
      record: applied.record,
      revisionBefore: String(before),
      revisionAfter: String(after),
      changedFields: applied.changedFields,
      snapshot: applied.snapshot,
    };
  }

  /**
   * BEGIN IMMEDIATE, waiting for another process's write lock for at most the busy timeout.
   * The wait is asynchronous: the read endpoints keep answering meanwhile.
   */
  async #beginImmediate(db: Db): Promise<void> {
    const deadline = Date.now() + this.dsn.busyTimeoutMs;
    let pause = 5;
    for (;;) {
      try {
        db.exec('BEGIN IMMEDIATE');
        return;
      } catch (error) {
        if (!isBusy(error)) {
          this.#log.error({ err: error }, 'cannot start a write transaction');
          throw new ApiError('store_error', `the database cannot start a write (${sqliteMessage(error)}); nothing was changed`);
        }
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        this.#log.warn({ database: this.#name, busy_timeout_ms: this.dsn.busyTimeoutMs }, 'write refused: the database is locked by another connection');
        throw new ApiError(
          'store_error',
          `the database is locked by another process and stayed locked for the busy timeout (${this.dsn.busyTimeoutMs} ms); nothing was changed, retry later`,
        );
      }
      await new Promise((resume) => setTimeout(resume, Math.min(pause, left)));
      pause = Math.min(pause * 2, 100);
    }
  }
}

// ---- small helpers ----------------------------------------------------------------------

function readRevision(db: Db): number {
  const row = db.prepare("SELECT value FROM meta WHERE key = 'revision'").get() as { value: number } | undefined;
  return Number(row?.value ?? 0);
}

function setRevision(db: Db, revision: number): void {
  // BigInt binds as an INTEGER (a plain number would be stored as a REAL).
  db.prepare("UPDATE meta SET value = ? WHERE key = 'revision'").run(BigInt(revision));
}

function setMeta(db: Db, key: string, value: string | number): void {
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
}

/** Never held a record: no rows and no committed change. A database emptied on purpose stays empty. */
function isPristine(db: Db): boolean {
  return readRevision(db) === 0 && hasNoRecords(db);
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? '';
  return code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED');
}

function sqliteMessage(error: unknown): string {
  const e = error as { code?: string; message?: string };
  return e.code && !String(e.message).includes(e.code) ? `${e.message} (${e.code})` : String(e.message ?? error);
}


