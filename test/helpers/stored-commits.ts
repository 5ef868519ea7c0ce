// What a crud service's store holds, looked at from outside the service, as a person would:
// the head (git rev-parse on the repository or the remote, the SQLite revision counter, the
// memory backend's served revision) and the messages of the changes stored (git log,
// audit_log.message, the audit log lines).
import Database from 'better-sqlite3';
import type { CrudService } from './crud.ts';
import { auditLines, gitOut } from './crud.ts';
import { request } from './http.ts';

function inDatabase<T>(path: string, query: (db: Database.Database) => T): T {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return query(db);
  } finally {
    db.close();
  }
}

/** The bare repository on the test remote, for git-remote. */
function remoteRepo(service: CrudService): string {
  const { remote } = service.prepared;
  return remote!.server.path(remote!.name);
}

/** What the store itself holds as its newest revision. */
export async function storeHead(service: CrudService): Promise<string> {
  const { prepared } = service;
  switch (prepared.backend) {
    case 'git':
      return gitOut(service.dir!, 'rev-parse', 'HEAD');
    case 'git-remote':
      return gitOut(remoteRepo(service), 'rev-parse', 'main');
    case 'sqlite':
      return String(
        inDatabase(
          prepared.dbPath!,
          (db) => (db.prepare("SELECT value FROM meta WHERE key = 'revision'").get() as { value: number }).value,
        ),
      );
    case 'memory':
      return (await request(service.url, '/ready')).json().revision as string;
  }
}

/**
 * The message of the newest stored change (Git: the commit's whole message; SQLite: audit_log.message; memory: the
 * audit line's).
 */
export function lastStoredMessage(service: CrudService): string {
  const { prepared } = service;
  switch (prepared.backend) {
    case 'git':
      return `${gitOut(service.dir!, 'log', '-1', '--format=%B')}\n`;
    case 'git-remote':
      return `${gitOut(remoteRepo(service), 'log', '-1', '--format=%B', 'main')}\n`;
    case 'sqlite':
      return inDatabase(
        prepared.dbPath!,
        (db) =>
          (db.prepare('SELECT message FROM audit_log ORDER BY seq DESC LIMIT 1').get() as { message: string }).message,
      );
    case 'memory':
      return auditLines(service).at(-1)!.message as string;
  }
}

/** The files the newest commit changed (Git backends), sorted. */
export function lastCommitFiles(service: CrudService): string[] {
  const where = service.prepared.backend === 'git' ? service.dir! : remoteRepo(service);
  return gitOut(where, 'show', '--name-only', '--format=', service.prepared.backend === 'git' ? 'HEAD' : 'main')
    .split('\n')
    .sort();
}

/** How many commits the branch has (Git backends). */
export function commitsOnBranch(service: CrudService): number {
  const where = service.prepared.backend === 'git' ? service.dir! : remoteRepo(service);
  return Number(gitOut(where, 'rev-list', '--count', service.prepared.backend === 'git' ? 'HEAD' : 'main'));
}

/** SQLite's audit_log rows, oldest first. */
export function auditRows(service: CrudService): Record<string, string | number | null>[] {
  return inDatabase(
    service.prepared.dbPath!,
    (db) => db.prepare('SELECT * FROM audit_log ORDER BY seq').all() as Record<string, string | number | null>[],
  );
}
