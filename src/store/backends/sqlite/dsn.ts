// DATABASE_URL for STORE_BACKEND=sqlite. The forms, as the reference service took them
// (docs/decisions/0017-reference-service-compatibility.md):
//
//   sqlite://data/config.db?mode=rwc      relative path (to the working directory)
//   sqlite:///var/lib/gitops/config.db    absolute path (three slashes)
//   sqlite:data/config.db                 the same without the slashes
//   sqlite::memory:                       an in-memory database (also sqlite://:memory:)
//
// mode: rwc (read-write, create the file and its folder when missing), rw (read-write, the
// file must exist; the default), ro (read-only). busy_timeout=<ms> bounds how long a write
// waits for another process's lock (default 5000).
import { isAbsolute, resolve } from 'node:path';
import { redactUrls } from '../../../shared/redact-url.ts';
import { StartupError } from '../../../shared/startup-error.ts';

export type SqliteMode = 'ro' | 'rw' | 'rwc';

export const DEFAULT_BUSY_TIMEOUT_MS = 5000;
const MAX_BUSY_TIMEOUT_MS = 600_000;

export type SqliteDsn =
  | { kind: 'memory'; mode: 'rwc'; busyTimeoutMs: number }
  | {
      kind: 'file';
      mode: SqliteMode;
      /** Absolute path of the database file. */
      path: string;
      busyTimeoutMs: number;
    };

export class DsnError extends StartupError {}

const FORMS =
  'use sqlite://<path>.db?mode=rwc (create when missing), ?mode=rw (must exist), ?mode=ro (read-only), ' +
  'sqlite:///<absolute path>.db, or sqlite::memory:';

/** Parses a DATABASE_URL; `cwd` resolves relative paths. Throws DsnError with the reason. */
export function parseSqliteDsn(url: string, cwd: string = process.cwd()): SqliteDsn {
  const fail = (why: string): never => {
    throw new DsnError(`DATABASE_URL=${redactUrls(url)} is not a valid SQLite DSN: ${why}; ${FORMS}`);
  };
  const trimmed = url.trim();
  if (!/^sqlite:/i.test(trimmed)) fail('it must start with sqlite:');
  const rest = trimmed.slice('sqlite:'.length);
  const queryAt = rest.indexOf('?');
  const rawPath = queryAt === -1 ? rest : rest.slice(0, queryAt);
  const query = queryAt === -1 ? '' : rest.slice(queryAt + 1);
  if (rest.includes('#')) fail('a fragment (#...) has no meaning here');

  let mode: SqliteMode | undefined;
  let busyTimeoutMs = DEFAULT_BUSY_TIMEOUT_MS;
  for (const pair of query.split('&').filter((p) => p !== '')) {
    const eq = pair.indexOf('=');
    const key = eq === -1 ? pair : pair.slice(0, eq);
    const value = eq === -1 ? '' : pair.slice(eq + 1);
    switch (key) {
      case 'mode':
        if (value !== 'ro' && value !== 'rw' && value !== 'rwc') fail(`mode=${value} is unknown (use ro, rw or rwc)`);
        if (mode !== undefined) fail('mode is given twice');
        mode = value as SqliteMode;
        break;
      case 'busy_timeout': {
        const ms = /^\d+$/.test(value) ? Number(value) : NaN;
        if (!(ms >= 0 && ms <= MAX_BUSY_TIMEOUT_MS))
          fail(`busy_timeout=${value} must be a whole number of milliseconds up to ${MAX_BUSY_TIMEOUT_MS}`);
        busyTimeoutMs = ms;
        break;
      }
      default:
        fail(`the parameter "${key}" is unknown (known: mode, busy_timeout)`);
    }
  }

  let path: string;
  if (rawPath.startsWith('//')) {
    // sqlite://relative/path.db or sqlite:///absolute/path.db: everything after the two
    // slashes is the path (there is no host part).
    path = rawPath.slice(2);
  } else {
    path = rawPath;
  }
  if (path === ':memory:') {
    if (mode === 'ro') fail('an in-memory database cannot be read-only');
    return { kind: 'memory', mode: 'rwc', busyTimeoutMs };
  }
  if (path === '') fail('the database path is empty');
  try {
    path = decodeURIComponent(path);
  } catch {
    fail('the path has invalid percent-encoding');
  }
  if (path.includes('\u0000')) fail('the path contains a NUL character');
  if (path.endsWith('/')) fail('the path names a folder, not a database file');
  return {
    kind: 'file',
    mode: mode ?? 'rw',
    path: isAbsolute(path) ? resolve(path) : resolve(cwd, path),
    busyTimeoutMs,
  };
}

/** How the database is named in logs and on /ready. */
export function describeDsn(dsn: SqliteDsn): string {
  return dsn.kind === 'memory' ? ':memory:' : dsn.path;
}
