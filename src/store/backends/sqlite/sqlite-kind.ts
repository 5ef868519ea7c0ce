// STORE_BACKEND=sqlite: DATABASE_URL names the database. Its form is checked when the backend
// is made (dsn.ts), so that a DATABASE_URL left set beside another backend stops nothing.
import type { Env } from '../../../shared/secret-settings.ts';
import { StartupError } from '../../../shared/startup-error.ts';
import type { BackendKind } from '../backend-kind.ts';
import { parseSqliteDsn } from './dsn.ts';
import { SqliteBackend } from './sqlite-backend.ts';

export interface SqliteSettings {
  /** DATABASE_URL: the database, a sqlite:// DSN (dsn.ts). */
  databaseUrl: string;
}

const DEFAULT_DATABASE_URL = 'sqlite://data/config.db?mode=rwc';

export const sqliteKind: BackendKind<SqliteSettings> = {
  settingsFrom: (env: Env) => ({ databaseUrl: env.DATABASE_URL || DEFAULT_DATABASE_URL }),
  create(settings, log) {
    const dsn = parseSqliteDsn(settings.databaseUrl);
    if (dsn.mode === 'ro' && settings.apiMode === 'crud') {
      throw new StartupError(
        'DATABASE_URL opens the database read-only (mode=ro), but API_MODE=crud writes to it; ' +
          'use mode=rw or mode=rwc, or API_MODE=read-only',
      );
    }
    // A new database's first rows come from SEED_FILE (shared-settings.ts).
    return new SqliteBackend({ dsn, seedFile: settings.seedFile, log });
  },
};
