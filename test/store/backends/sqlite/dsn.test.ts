// DATABASE_URL for STORE_BACKEND=sqlite: every form, and a clear start-up error for every
// mistake (as a unit, through the in-process service, and through the real entry point).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { StartupError } from '../../../../src/shared/startup-error.ts';
import { DEFAULT_BUSY_TIMEOUT_MS, parseSqliteDsn } from '../../../../src/store/backends/sqlite/dsn.ts';
import { SCHEMA_VERSION } from '../../../../src/store/backends/sqlite/migrations.ts';
import { asSeedFile } from '../../../helpers/fixture-data.ts';
import { tempDir } from '../../../helpers/git-fixture.ts';
import { baseEnv, MAIN } from '../../../helpers/process.ts';
import { request } from '../../../helpers/http.ts';
import { READ_TOKEN, startTestService } from '../../../helpers/service.ts';
import { tempDatabase } from '../../../helpers/sqlite.ts';

const REPO_ROOT = join(import.meta.dirname, '../../../..');

describe('parseSqliteDsn', () => {
  it.each([
    ['sqlite://data/config.db?mode=rwc', { kind: 'file', path: '/srv/app/data/config.db', mode: 'rwc' }],
    ['sqlite:///var/lib/gitops/config.db?mode=rw', { kind: 'file', path: '/var/lib/gitops/config.db', mode: 'rw' }],
    ['sqlite:///var/lib/gitops/config.db?mode=ro', { kind: 'file', path: '/var/lib/gitops/config.db', mode: 'ro' }],
    ['sqlite:config.db', { kind: 'file', path: '/srv/app/config.db', mode: 'rw' }],
    ['sqlite://../shared/config.db?mode=rw', { kind: 'file', path: '/srv/shared/config.db', mode: 'rw' }],
    ['sqlite:///tmp/my%20db.sqlite?mode=rwc', { kind: 'file', path: '/tmp/my db.sqlite', mode: 'rwc' }],
    ['sqlite::memory:', { kind: 'memory', mode: 'rwc' }],
    ['sqlite://:memory:', { kind: 'memory', mode: 'rwc' }],
    ['SQLite://data/config.db?mode=rwc', { kind: 'file', path: '/srv/app/data/config.db', mode: 'rwc' }],
  ])('%s', (url, expected) => {
    expect(parseSqliteDsn(url, '/srv/app')).toEqual({ busyTimeoutMs: DEFAULT_BUSY_TIMEOUT_MS, ...expected });
  });

  it('reads busy_timeout in milliseconds', () => {
    expect(parseSqliteDsn('sqlite://x.db?mode=rwc&busy_timeout=250', '/a').busyTimeoutMs).toBe(250);
    expect(parseSqliteDsn('sqlite://x.db?busy_timeout=0&mode=rw', '/a')).toMatchObject({
      busyTimeoutMs: 0,
      mode: 'rw',
    });
  });

  it('the default DATABASE_URL is a file under data/ that is created when missing', () => {
    expect(parseSqliteDsn('sqlite://data/config.db?mode=rwc', REPO_ROOT)).toMatchObject({
      kind: 'file',
      mode: 'rwc',
      path: resolve(REPO_ROOT, 'data/config.db'),
    });
  });

  it.each([
    ['postgres://db/config', /must start with sqlite:/],
    ['config.db', /must start with sqlite:/],
    ['sqlite://', /the database path is empty/],
    ['sqlite:?mode=rwc', /the database path is empty/],
    ['sqlite://x.db?mode=rwx', /mode=rwx is unknown \(use ro, rw or rwc\)/],
    ['sqlite://x.db?mode=', /mode= is unknown/],
    ['sqlite://x.db?mode=ro&mode=rw', /mode is given twice/],
    ['sqlite://x.db?cache=shared', /the parameter "cache" is unknown/],
    ['sqlite://x.db?busy_timeout=soon', /busy_timeout=soon must be a whole number/],
    ['sqlite://x.db?busy_timeout=-1', /busy_timeout=-1 must be a whole number/],
    ['sqlite::memory:?mode=ro', /an in-memory database cannot be read-only/],
    ['sqlite://data/?mode=rwc', /names a folder/],
    ['sqlite://x%zz.db', /invalid percent-encoding/],
    ['sqlite://x.db#frag', /fragment/],
  ])('refuses %s', (url, reason) => {
    let error: unknown;
    try {
      parseSqliteDsn(url, '/srv/app');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StartupError);
    expect((error as Error).message).toMatch(/^DATABASE_URL=.* is not a valid SQLite DSN: /);
    expect((error as Error).message).toMatch(reason);
    // Every message shows the forms that work.
    expect((error as Error).message).toContain('sqlite::memory:');
  });
});

function sqliteEnv(url: string, extra: Record<string, string> = {}): Record<string, string> {
  return { STORE_BACKEND: 'sqlite', DATABASE_URL: url, SEED_FILE: asSeedFile(), ...extra };
}

async function startError(env: Record<string, string>): Promise<Error> {
  try {
    const service = await startTestService(env);
    await service.close();
  } catch (error) {
    return error as Error;
  }
  throw new Error('the service started');
}

describe('opening the database', () => {
  it('mode=rwc creates the file and its folders, migrated and seeded', async () => {
    const dir = tempDir('sqlite-');
    const path = join(dir, 'nested', 'deeper', 'config.db');
    const service = await startTestService(sqliteEnv(`sqlite://${path}?mode=rwc`));
    try {
      expect(existsSync(path)).toBe(true);
      const ready = (await request(service.url, '/ready', { token: READ_TOKEN })).json();
      expect(ready).toMatchObject({
        status: 'ok',
        backend: 'sqlite',
        revision: '1',
        database: path,
        database_mode: 'rwc',
        clusters: 2,
      });
      const db = new Database(path, { readonly: true });
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      db.close();
    } finally {
      await service.close();
    }
  });

  it('mode=rw opens an existing database and refuses a missing one', async () => {
    const { path } = tempDatabase();
    const missing = await startError(sqliteEnv(`sqlite://${path}?mode=rw`));
    expect(missing).toBeInstanceOf(StartupError);
    expect(missing.message).toBe(
      `DATABASE_URL: the database file ${path} does not exist; mode=rw opens an existing file only (use mode=rwc to ` +
        `create it)`,
    );
    expect(existsSync(path)).toBe(false);

    const created = await startTestService(sqliteEnv(`sqlite://${path}?mode=rwc`));
    await created.close();
    const service = await startTestService(sqliteEnv(`sqlite://${path}?mode=rw`));
    try {
      expect((await request(service.url, '/ready', { token: READ_TOKEN })).json()).toMatchObject({
        status: 'ok',
        database_mode: 'rw',
        revision: '1',
      });
    } finally {
      await service.close();
    }
  });

  it('mode=ro serves an existing database read-only, without needing the seed file', async () => {
    const { path } = tempDatabase();
    await (await startTestService(sqliteEnv(`sqlite://${path}?mode=rwc`))).close();
    // A seed file that would fail: ro never reads it.
    const service = await startTestService(
      sqliteEnv(`sqlite://${path}?mode=ro`, { SEED_FILE: '/nonexistent/seed.json' }),
    );
    try {
      const res = await request(service.url, '/api/v2/gitops/clusters', { token: READ_TOKEN });
      expect(res.status).toBe(200);
      expect(res.json().inputs).toHaveLength(2);
      expect((await request(service.url, '/ready', { token: READ_TOKEN })).json()).toMatchObject({
        database_mode: 'ro',
        revision: '1',
      });
    } finally {
      await service.close();
    }
  });

  it('mode=ro refuses a missing file and a database without the schema', async () => {
    const { path } = tempDatabase();
    expect((await startError(sqliteEnv(`sqlite://${path}?mode=ro`))).message).toMatch(
      /does not exist; mode=ro opens an existing file only/,
    );
    new Database(path).close(); // an empty database
    expect((await startError(sqliteEnv(`sqlite://${path}?mode=ro`))).message).toMatch(
      /is opened read-only \(mode=ro\) but has no schema yet; start once with mode=rwc or mode=rw/,
    );
  });

  it('crud mode refuses to start on mode=ro', async () => {
    const { path } = tempDatabase();
    await (await startTestService(sqliteEnv(`sqlite://${path}?mode=rwc`))).close();
    const error = await startError(sqliteEnv(`sqlite://${path}?mode=ro`, { API_MODE: 'crud' }));
    expect(error).toBeInstanceOf(StartupError);
    expect(error.message).toBe(
      'DATABASE_URL opens the database read-only (mode=ro), but API_MODE=crud writes to it; use mode=rw or mode=rwc, ' +
        'or API_MODE=read-only',
    );
  });

  it('sqlite::memory: serves the seed, and starts from it again every time', async () => {
    const service = await startTestService(sqliteEnv('sqlite::memory:'));
    try {
      const ready = (await request(service.url, '/ready', { token: READ_TOKEN })).json();
      expect(ready).toMatchObject({
        status: 'ok',
        backend: 'sqlite',
        revision: '1',
        database: ':memory:',
        clusters: 2,
      });
    } finally {
      await service.close();
    }
  });

  it('refuses a file that is not a SQLite database', async () => {
    const path = join(tempDir('sqlite-'), 'config.db');
    writeFileSync(path, 'this is not a database, just some text that is long enough to have a header'.repeat(10));
    const error = await startError(sqliteEnv(`sqlite://${path}?mode=rw`));
    expect(error.message).toMatch(
      new RegExp(`^DATABASE_URL: ${path} cannot be used as a database: file is not a database`),
    );
  });

  it('refuses a folder', async () => {
    const dir = tempDir('sqlite-');
    mkdirSync(join(dir, 'config.db'));
    const error = await startError(sqliteEnv(`sqlite://${dir}/config.db?mode=rwc`));
    expect(error.message).toBe(`DATABASE_URL: ${dir}/config.db is a folder, not a database file`);
  });

  it('refuses a database that holds tables of something else', async () => {
    const { path } = tempDatabase();
    const other = new Database(path);
    other.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY)');
    other.close();
    const error = await startError(sqliteEnv(`sqlite://${path}?mode=rw`));
    expect(error.message).toMatch(/already holds tables that this service did not create/);
  });

  it('refuses a database migrated by a newer version of the service', async () => {
    const { path } = tempDatabase();
    await (await startTestService(sqliteEnv(`sqlite://${path}?mode=rwc`))).close();
    const db = new Database(path);
    db.pragma('user_version = 99');
    db.close();
    const error = await startError(sqliteEnv(`sqlite://${path}?mode=rw`));
    expect(error.message).toContain(`has schema version 99, newer than this service understands (${SCHEMA_VERSION})`);
  });

  it('a new database without a readable seed file is a clear error, and stays unseeded', async () => {
    const { path, url } = tempDatabase();
    const error = await startError(sqliteEnv(url, { SEED_FILE: '/nonexistent/seed.json' }));
    expect(error.message).toMatch(
      /^SEED_FILE \/nonexistent\/seed.json cannot be read: ENOENT, and the database .* is new/,
    );
    const invalid = join(tempDir(), 'seed.json');
    writeFileSync(
      invalid,
      JSON.stringify({ clusters: [{ _id: 'c', cluster_name: 'c', cluster_dns: 'c.x', environment: 'staging' }] }),
    );
    const bad = await startError(sqliteEnv(url, { SEED_FILE: invalid }));
    expect(bad.message).toBe(
      `SEED_FILE ${invalid} is invalid: /clusters/0/environment: must be one of: dev, qa, uat, prod`,
    );
    const db = new Database(path, { readonly: true });
    expect(db.prepare('SELECT count(*) AS n FROM clusters').get()).toEqual({ n: 0 });
    db.close();
  });
});

describe('start-up errors through the entry point', () => {
  const run = (env: Record<string, string>) =>
    spawnSync(process.execPath, [MAIN], {
      env: {
        ...baseEnv(),
        AUTH_TOKEN: 't',
        LISTEN_ADDR: '127.0.0.1:0',
        STORE_BACKEND: 'sqlite',
        ...env,
      },
      encoding: 'utf8',
      timeout: 15_000,
      cwd: REPO_ROOT,
    });

  it.each([
    [
      'a malformed DSN',
      { DATABASE_URL: 'mysql://localhost/config' },
      /^gitops-config-api: DATABASE_URL=mysql:\/\/localhost\/config is not a valid SQLite DSN: it must start with sqlite:/,
    ],
    [
      'an unknown mode',
      { DATABASE_URL: 'sqlite://data/x.db?mode=create' },
      /mode=create is unknown \(use ro, rw or rwc\)/,
    ],
    [
      'a missing file with mode=rw',
      { DATABASE_URL: 'sqlite:///nonexistent/config.db?mode=rw' },
      /the database file \/nonexistent\/config.db does not exist; mode=rw opens an existing file only/,
    ],
    [
      'mode=ro in crud mode',
      { DATABASE_URL: 'sqlite:///nonexistent/config.db?mode=ro', API_MODE: 'crud' },
      /read-only \(mode=ro\), but API_MODE=crud writes to it/,
    ],
  ])('%s stops the start with one line', (_name, env, expected) => {
    const result = run(env);
    expect(result.status).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(expected);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
