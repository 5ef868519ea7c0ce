// STORE_BACKEND=sqlite: the records live in one SQLite file (or in memory). At start the
// schema is migrated and a database that never held records gets SEED_FILE. A revision is
// read whole in one read transaction; a change made by another process (a second instance,
// the sqlite3 shell) is noticed through PRAGMA data_version within POLL_INTERVAL_MS. A write
// (one REST write, or a change set of several records) is one transaction: the records' rows,
// one revision bump, and one audit_log row per record, each with the change's message.
import type { Logger } from 'pino';
import type { BaselineFacts } from '../../../domain/baseline.ts';
import type { Backend, BackendDescription, ChangeSet, CommitResult, LoadResult } from '../../backend.ts';
import type { PublishedRevision } from '../../runner/published-revision.ts';
import { BaseMoved, isDiskFull, StoreUnavailable } from '../../errors.ts';
import { retry } from '../../../shared/retry.ts';
import { StartupError } from '../../../shared/startup-error.ts';
import { insertAuditRow } from './audit-rows.ts';
import { describeDsn, type SqliteDsn } from './dsn.ts';
import { SCHEMA_VERSION, schemaVersion } from './migrations.ts';
import { RowWriter } from './row-writer.ts';
import { readAllRecords, type RecordCache } from './rows.ts';
import {
  type Db,
  isBusy,
  openDatabase,
  prepareSchema,
  readMeta,
  readRevision,
  seedIfNew,
  setRevision,
  sqliteMessage,
} from './sqlite-database.ts';

/** How often PRAGMA data_version is checked for commits by other connections. */
export const POLL_INTERVAL_MS = 250;

export interface SqliteOptions {
  dsn: SqliteDsn;
  seedFile: string;
  log: Logger;
  /** How often to look for commits of other processes (default POLL_INTERVAL_MS). */
  pollIntervalMs?: number;
}

export class SqliteBackend implements Backend {
  readonly dsn: SqliteDsn;
  readonly #options: SqliteOptions;
  #db: Db | undefined;
  #writer: RowWriter | undefined;
  #timer: NodeJS.Timeout | undefined;
  #dataVersion: number | undefined;
  #recordCache: RecordCache = new Map();
  #orphanReferences = 0;
  #seededAt: string | undefined;

  constructor(options: SqliteOptions) {
    this.#options = options;
    this.dsn = options.dsn;
  }

  get #name(): string {
    return describeDsn(this.dsn);
  }

  async open(): Promise<void> {
    const { log } = this.#options;
    const db = openDatabase(this.dsn, log);
    try {
      const applied = prepareSchema(db, this.dsn);
      if (this.dsn.mode !== 'ro') {
        const seeded = seedIfNew(db, this.dsn, this.#options.seedFile);
        if (seeded !== undefined)
          log.info(
            { database: this.#name, seed_file: this.#options.seedFile, clusters: seeded },
            'new database seeded',
          );
        this.#writer = new RowWriter(db);
      }
      this.#seededAt = readMeta(db, 'seeded_at');
      log.info(
        { database: this.#name, mode: this.dsn.mode, schema_version: SCHEMA_VERSION, migrations_applied: applied },
        'sqlite database opened',
      );
    } catch (error) {
      db.close();
      if (error instanceof StartupError) throw error;
      throw new StartupError(`DATABASE_URL: the database ${this.#name} cannot be prepared: ${sqliteMessage(error)}`);
    }
    // From here on the event loop never waits on a lock: a write that finds the database
    // locked retries asynchronously (#beginImmediate), and a busy read fails the load, which
    // is tried again, so a lock held by another process never stalls the read endpoints.
    db.pragma('busy_timeout = 0');
    this.#db = db;
  }

  async load(): Promise<LoadResult> {
    const db = this.#db!;
    try {
      // Read before the load: a commit that lands during the load is seen again next poll.
      this.#dataVersion = db.pragma('data_version', { simple: true }) as number;
      return db.transaction(() => this.#read(db))();
    } catch (error) {
      if (error instanceof StoreUnavailable) throw error;
      throw new StoreUnavailable(
        isBusy(error) ? 'locked' : 'io',
        `cannot read the database ${this.#name}: ${sqliteMessage(error)}`,
      );
    }
  }

  /** One revision of the database. Call inside a transaction. */
  #read(db: Db): LoadResult {
    const version = schemaVersion(db);
    if (version !== SCHEMA_VERSION) {
      throw new StoreUnavailable(
        'io',
        `the database schema is at version ${version}, this service needs ${SCHEMA_VERSION}; restart the service (a ` +
          `newer version migrated it, or it was changed by hand)`,
      );
    }
    // No shortcut on a known revision: the poll calls only when data_version moved, and a
    // change that moves no revision (a table dropped by hand) must still be noticed.
    const revision = String(readRevision(db));
    const loaded = readAllRecords(db, this.#recordCache);
    this.#recordCache = loaded.cache;
    if (loaded.orphanReferences > 0 && loaded.orphanReferences !== this.#orphanReferences) {
      this.#options.log.warn(
        { orphan_reference_rows: loaded.orphanReferences },
        'the database has reference rows of clusters that no longer exist (deleted with foreign keys off); they are ' +
          'ignored',
      );
    }
    this.#orphanReferences = loaded.orphanReferences;
    return { loaded: { revision, records: loaded.records, problems: loaded.problems, sources: new Map() } };
  }

  /** Revisions are the database's write counter: a lower number is an older revision. */
  async isOlder(revision: string, than: string): Promise<boolean> {
    return /^\d{1,15}$/.test(revision) && /^\d{1,15}$/.test(than) && Number(revision) <= Number(than);
  }

  /** The write counter as the database holds it now (one query, outside any load). */
  async newestRevision(): Promise<string | undefined> {
    return this.#db === undefined ? undefined : String(readRevision(this.#db));
  }

  watch(onChange: (reason: string) => void): void {
    if (this.dsn.kind !== 'file') return; // nobody else can reach an in-memory database
    this.#timer = setInterval(() => {
      let version: number;
      try {
        version = this.#db!.pragma('data_version', { simple: true }) as number;
      } catch (error) {
        this.#options.log.warn({ err: error, database: this.#name }, 'cannot check the database for changes');
        return;
      }
      if (version !== this.#dataVersion) onChange('the database changed');
    }, this.#options.pollIntervalMs ?? POLL_INTERVAL_MS);
    this.#timer.unref();
  }

  async commit(set: ChangeSet, base: PublishedRevision): Promise<CommitResult> {
    const db = this.#db;
    const writer = this.#writer;
    if (!db || !writer)
      throw new StoreUnavailable('read_only', `the database ${this.#name} is open read-only (mode=ro)`);
    await this.#beginImmediate(db);
    try {
      const before = readRevision(db);
      // The write was computed on what is served; another process may have committed since.
      if (String(before) !== base.snapshot.revision) throw new BaseMoved(`the database moved to revision ${before}`);
      const after = before + 1;
      for (const change of set.changes) {
        if (change.record === null) writer.delete(change.collection, change.id);
        else writer.put(change.collection, change.record);
      }
      // The triggers counted every row written; one write or change set is one revision.
      setRevision(db, after);
      for (const change of set.changes) insertAuditRow(db, set, change, before, after);
      db.exec('COMMIT');
      // This connection's own commit does not move data_version; a later poll sees others'.
      return { revision: String(after) };
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      if (error instanceof BaseMoved) throw error;
      if (isDiskFull(error)) throw new StoreUnavailable('disk_full', 'no space left on device; nothing was stored');
      this.#options.log.error(
        { err: error, records: set.changes.map((c) => `${c.collection}/${c.id}`).slice(0, 20) },
        'database write failed',
      );
      throw new StoreUnavailable('io', `the database refused the write (${sqliteMessage(error)}); nothing was stored`);
    }
  }

  /**
   * BEGIN IMMEDIATE, waiting for another process's write lock for at most the busy timeout.
   * The wait is asynchronous: the read endpoints keep answering meanwhile.
   */
  async #beginImmediate(db: Db): Promise<void> {
    // From 5 ms, doubling up to 100 ms, until the busy timeout.
    const begin = async () => {
      try {
        db.exec('BEGIN IMMEDIATE');
      } catch (error) {
        if (!isBusy(error))
          throw new StoreUnavailable(
            'io',
            `the database cannot start a write (${sqliteMessage(error)}); nothing was stored`,
          );
        throw error;
      }
    };
    await retry(begin, {
      firstMs: 5,
      maxMs: 100,
      deadline: Date.now() + this.dsn.busyTimeoutMs,
      retryable: isBusy,
      exhausted: () => {
        this.#options.log.warn(
          { database: this.#name, busy_timeout_ms: this.dsn.busyTimeoutMs },
          'write refused: the database is locked by another connection',
        );
        return new StoreUnavailable(
          'locked',
          `the database is locked by another process and stayed locked for the busy timeout ` +
            `(${this.dsn.busyTimeoutMs} ms); nothing was stored, retry later`,
        );
      },
    });
  }

  async recallBaseline(): Promise<BaselineFacts | undefined> {
    const row = this.#db!.prepare('SELECT facts FROM published_baseline WHERE id = 1').get() as
      { facts: string } | undefined;
    if (!row) return undefined;
    const facts = JSON.parse(row.facts) as BaselineFacts;
    return typeof facts.revision === 'string' && facts.inputs && Array.isArray(facts.dangling) ? facts : undefined;
  }

  async keepBaseline(facts: BaselineFacts): Promise<void> {
    if (!this.#writer) return; // a read-only instance: the writing one keeps it
    try {
      this.#db!.prepare(
        `INSERT INTO published_baseline (id, revision, facts, at) VALUES (1, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET revision = excluded.revision, facts = excluded.facts, at = excluded.at`,
      ).run(facts.revision, JSON.stringify(facts), new Date().toISOString());
    } catch (error) {
      // Busy now: the next publication keeps it. A restart in between judges against an older one.
      this.#options.log.warn(
        { database: this.#name, error: sqliteMessage(error) },
        "could not keep the published revision's facts",
      );
    }
  }

  describe(): BackendDescription {
    const seededAt = this.#seededAt;
    return {
      details: {
        database_mode: this.dsn.mode,
        schema_version: SCHEMA_VERSION,
        busy_timeout_ms: this.dsn.busyTimeoutMs,
        ...(seededAt ? { seeded_at: seededAt } : {}),
        ...(this.#orphanReferences ? { orphan_reference_rows: this.#orphanReferences } : {}),
      },
      internal: { database: this.#name },
      followsRemote: false,
    };
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#db?.close();
    this.#db = undefined;
  }
}
