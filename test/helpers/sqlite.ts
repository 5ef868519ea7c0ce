// SQLite databases for tests, and "another process" working on them: a child Node process
// with its own better-sqlite3 connection, as a second instance or the sqlite3 shell would be.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { tempDir } from './git-fixture.ts';
import { runCommandText } from './process-starter.ts';

const REPO_ROOT = join(import.meta.dirname, '..', '..');

/** A path for a new database file in a new temp folder, and its DSN. */
export function tempDatabase(mode: 'rwc' | 'rw' | 'ro' = 'rwc', extra = ''): { path: string; url: string } {
  const path = join(tempDir('sqlite-'), 'config.db');
  return { path, url: `sqlite://${path}?mode=${mode}${extra}` };
}

/** Runs SQL in a separate process (foreign keys on, as a careful shell user would) and waits for it. */
export function sqlInOtherProcess(dbPath: string, sql: string): void {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1], { fileMustExist: true, timeout: 5000 });
    db.pragma('foreign_keys = ON');
    db.exec(process.argv[2]);
    db.close();`;
  runCommandText(process.execPath, ['-e', script, dbPath, sql], { cwd: REPO_ROOT });
}

export interface LockHolder {
  /** Ends the other process's transaction (COMMIT or ROLLBACK) and waits for it to exit. */
  release(how?: 'commit' | 'rollback'): Promise<void>;
}

/**
 * Starts another process that runs `BEGIN EXCLUSIVE` (plus `sql` inside it) and keeps the
 * transaction open until released. Resolves once the lock is held.
 */
export async function holdExclusiveLock(dbPath: string, sql = ''): Promise<LockHolder> {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1], { fileMustExist: true });
    db.exec('BEGIN EXCLUSIVE');
    if (process.argv[2]) db.exec(process.argv[2]);
    process.stdout.write('locked\\n');
    require('node:readline').createInterface({ input: process.stdin }).once('line', (line) => {
      db.exec(line.trim() === 'commit' ? 'COMMIT' : 'ROLLBACK');
      db.close();
      process.stdout.write('released\\n');
      process.exit(0);
    });`;
  const child = spawn(process.execPath, ['-e', script, dbPath, sql], {
    cwd: REPO_ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const next = () =>
    new Promise<string>((resolve, reject) => {
      lines.once('line', resolve);
      child.once('exit', (code) => reject(new Error(`lock holder exited with ${code}`)));
    });
  const locked = await next();
  if (locked !== 'locked') throw new Error(`lock holder said ${locked}`);
  return {
    async release(how = 'rollback') {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.stdin.write(`${how}\n`);
      await exited;
    },
  };
}
