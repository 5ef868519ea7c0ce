import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../../src/shared/logger.ts';
import { StartupError } from '../../../../src/shared/startup-error.ts';
import { sharedBackendSettingsFrom } from '../../../../src/store/backends/shared-settings.ts';
import { DsnError } from '../../../../src/store/backends/sqlite/dsn.ts';
import { SqliteBackend } from '../../../../src/store/backends/sqlite/sqlite-backend.ts';
import { sqliteKind } from '../../../../src/store/backends/sqlite/sqlite-kind.ts';

const log = createLogger('silent');
const DEFAULT = { databaseUrl: 'sqlite://data/config.db?mode=rwc' };

function made(env: Record<string, string>) {
  return sqliteKind.create({ ...sharedBackendSettingsFrom(env), ...sqliteKind.settingsFrom(env) }, log);
}

describe('the sqlite backend', () => {
  it('reads DATABASE_URL, with the documented default when it is unset or empty', () => {
    expect(sqliteKind.settingsFrom({})).toEqual(DEFAULT);
    expect(sqliteKind.settingsFrom({ DATABASE_URL: '' })).toEqual(DEFAULT);
    const url = 'sqlite:///var/lib/fleet.db';
    expect(sqliteKind.settingsFrom({ DATABASE_URL: url })).toEqual({ databaseUrl: url });
  });

  it('checks the form of DATABASE_URL when the backend is made: set beside another backend, it stops nothing', () => {
    const env = { DATABASE_URL: 'postgres://db/fleet' };
    expect(sqliteKind.settingsFrom(env)).toEqual({ databaseUrl: 'postgres://db/fleet' });
    expect(() => made(env)).toThrow(DsnError);
    expect(() => made(env)).toThrow(/^DATABASE_URL=postgres:\/\/db\/fleet is not a valid SQLite DSN/);
  });

  it('is made from the DSN, not opened yet', () => {
    const backend = made({ DATABASE_URL: 'sqlite:///var/lib/fleet.db?mode=ro' });
    expect(backend).toBeInstanceOf(SqliteBackend);
    const dsn = (backend as SqliteBackend).dsn;
    expect(dsn).toMatchObject({ kind: 'file', mode: 'ro', path: resolve('/var/lib/fleet.db') });
  });

  it('refuses a read-only database in crud mode', () => {
    const env = { DATABASE_URL: 'sqlite:///var/lib/fleet.db?mode=ro', API_MODE: 'crud' };
    expect(() => made(env)).toThrow(StartupError);
    expect(() => made(env)).toThrow(
      'DATABASE_URL opens the database read-only (mode=ro), but API_MODE=crud writes to it; ' +
        'use mode=rw or mode=rwc, or API_MODE=read-only',
    );
    expect(made({ ...env, DATABASE_URL: 'sqlite:///var/lib/fleet.db?mode=rw' })).toBeInstanceOf(SqliteBackend);
  });
});
