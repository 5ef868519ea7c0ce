// Opening the SQLite database named by DATABASE_URL: the file checks, WAL mode, the schema
// (migrated, or refused when it is newer than this service), the seed of a new database,
// and the small reads and writes of the `meta` table.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Logger } from 'pino';
import { StartupError } from '../../../shared/startup-error.ts';
import { readSeedFile } from '../seed-file.ts';
import { describeDsn, type SqliteDsn } from './dsn.ts';
import { migrate, SCHEMA_VERSION, schemaVersion } from './migrations.ts';
import { RowWriter } from './row-writer.ts';
import { hasNoRecords } from './rows.ts';

export type Db = Database.Database;

/** Opens the database file as the DSN's mode says; every failure is a StartupError naming the file. */
export function openDatabase(dsn: SqliteDsn, log: Logger): Db {
  if (dsn.kind === 'memory') return new Database(':memory:');
  const { path, mode } = dsn;
  if (mode === 'rwc') {
    try {
      mkdirSync(dirname(path), { recursive: true });
    } catch (error) {
      throw new StartupError(`DATABASE_URL: cannot create the folder of ${path}: ${sqliteMessage(error)}`);
    }
  } else if (!existsSync(path)) {
    throw new StartupError(
      `DATABASE_URL: the database file ${path} does not exist; mode=${mode} opens an existing file only (use ` +
        `mode=rwc to create it)`,
    );
  }
  if (existsSync(path) && statSync(path).isDirectory())
    throw new StartupError(`DATABASE_URL: ${path} is a folder, not a database file`);
  let db: Db;
  try {
    db = new Database(path, { readonly: mode === 'ro', fileMustExist: mode !== 'rwc', timeout: dsn.busyTimeoutMs });
  } catch (error) {
    throw new StartupError(`DATABASE_URL: cannot open ${path} (mode=${mode}): ${sqliteMessage(error)}`);
  }
  try {
    // The first real read: fails here when the file is not a SQLite database.
    schemaVersion(db);
    if (mode !== 'ro') {
      const journal = db.pragma('journal_mode = WAL', { simple: true });
      if (journal !== 'wal')
        log.warn({ database: path, journal_mode: journal }, 'the database could not be switched to WAL mode');
      db.pragma('synchronous = NORMAL');
    }
    db.pragma('foreign_keys = ON');
  } catch (error) {
    db.close();
    throw new StartupError(`DATABASE_URL: ${path} cannot be used as a database: ${sqliteMessage(error)}`);
  }
  return db;
}

/** Checks the schema version and migrates; returns the migrations applied. */
export function prepareSchema(db: Db, dsn: SqliteDsn): number[] {
  const name = describeDsn(dsn);
  const version = schemaVersion(db);
  if (version > SCHEMA_VERSION) {
    throw new StartupError(
      `DATABASE_URL: the database ${name} has schema version ${version}, newer than this service understands ` +
        `(${SCHEMA_VERSION}); run a newer version of the service`,
    );
  }
  if (version === 0) {
    const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").get() as {
      n: number;
    };
    if (tables.n > 0) {
      throw new StartupError(
        `DATABASE_URL: the database ${name} already holds tables that this service did not create (user_version is ` +
          `0); point DATABASE_URL at a new or a service-created database`,
      );
    }
  }
  if (dsn.mode === 'ro') {
    if (version < SCHEMA_VERSION) {
      throw new StartupError(
        version === 0
          ? `DATABASE_URL: the database ${name} is opened read-only (mode=ro) but has no schema yet; start once with ` +
              `mode=rwc or mode=rw to create and seed it`
          : `DATABASE_URL: the database ${name} is at schema version ${version} and needs version ${SCHEMA_VERSION}; ` +
              `start once with mode=rw to migrate it`,
      );
    }
    return [];
  }
  return migrate(db);
}

/** Loads SEED_FILE into a database that has never held a record; returns whether it did. */
export function seedIfNew(db: Db, dsn: SqliteDsn, seedFile: string): number | undefined {
  if (!isPristine(db)) return undefined;
  const seed = readSeedFile(
    seedFile,
    `, and the database ${describeDsn(dsn)} is new, so it needs a seed; give SEED_FILE a file ({} for an empty start)`,
  );
  const writer = new RowWriter(db);
  const seeded = db.transaction(() => {
    // Another instance may have seeded it since the check above.
    if (!isPristine(db)) return false;
    for (const collection of ['platform_components', 'namespaces', 'rolebindings', 'clusters', 'rollouts'] as const) {
      for (const record of seed.snapshot[collection].values()) writer.put(collection, record);
    }
    // The triggers counted every seeded row; the seed is one revision.
    setRevision(db, 1);
    setMeta(db, 'seeded_at', new Date().toISOString());
    setMeta(db, 'seed_file', seedFile);
    return true;
  });
  return seeded.immediate() ? seed.snapshot.clusters.size : undefined;
}

export function readRevision(db: Db): number {
  const row = db.prepare("SELECT value FROM meta WHERE key = 'revision'").get() as { value: number } | undefined;
  return Number(row?.value ?? 0);
}

export function setRevision(db: Db, revision: number): void {
  // BigInt binds as an INTEGER (a plain number would be stored as a REAL).
  db.prepare("UPDATE meta SET value = ? WHERE key = 'revision'").run(BigInt(revision));
}

export function readMeta(db: Db, key: string): string | undefined {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value;
}

function setMeta(db: Db, key: string, value: string | number): void {
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(
    key,
    value,
  );
}

/** Never held a record: no rows and no committed change. A database emptied on purpose stays empty. */
function isPristine(db: Db): boolean {
  return readRevision(db) === 0 && hasNoRecords(db);
}

export function isBusy(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? '';
  return code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED');
}

export function sqliteMessage(error: unknown): string {
  const e = error as { code?: string; message?: string };
  return e.code && !String(e.message).includes(e.code) ? `${e.message} (${e.code})` : String(e.message ?? error);
}
