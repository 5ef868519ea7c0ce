// What happens to a store behind the service's back, done the way it really happens on each
// backend: another engineer commits (git), pushes (git-remote) or another process writes rows
// (sqlite); a change that breaks the data; a lock held by someone else. The memory backend
// has nobody behind its back, so it has no actions.
import { createHmac } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PreparedBackend } from './backends.ts';
import { WEBHOOK_SECRET } from './backends.ts';
import { commitAll, git, writeFiles } from './git-fixture.ts';
import { request } from './http.ts';
import type { TestService } from './service.ts';
import { holdExclusiveLock, sqlInOtherProcess } from './sqlite.ts';

export interface StoreActions {
  /** Sets the labels of namespace team-b, as someone else would. */
  relabelElsewhere(labels: Record<string, string>): Promise<void>;
  /** Makes the store hold a revision with an invalid namespace team-b. */
  breakNamespace(): Promise<void>;
  /** Holds the store's write lock; the returned function lets it go. */
  lock(): Promise<() => Promise<void>>;
}

const BROKEN = 'labels:\n  tier: 3\n'; // a number where a string belongs

export function storeActions(prepared: PreparedBackend, service: TestService): StoreActions | undefined {
  switch (prepared.backend) {
    case 'git': {
      const dir = prepared.dir!;
      return {
        async relabelElsewhere(labels) {
          writeFiles(dir, { 'namespaces/team-b.yaml': { labels } });
          commitAll(dir, 'relabel team-b by hand');
        },
        async breakNamespace() {
          writeFileSync(join(dir, 'namespaces/team-b.yaml'), BROKEN);
          commitAll(dir, 'break team-b');
        },
        async lock() {
          const lockFile = join(dir, '.git/refs/heads/main.lock');
          writeFileSync(lockFile, '');
          return async () => rmSync(lockFile);
        },
      };
    }
    case 'git-remote': {
      const { work, server } = prepared.remote!;
      const push = async (files: Record<string, string | object>, message: string) => {
        writeFiles(work, files);
        git(work, 'add', '-A');
        git(work, 'commit', '-q', '-m', message);
        git(work, 'push', '-q', 'origin', 'HEAD:main');
      };
      return {
        async relabelElsewhere(labels) {
          await push({ 'namespaces/team-b.yaml': { labels } }, 'relabel team-b by hand');
        },
        async breakNamespace() {
          await push({ 'namespaces/team-b.yaml': BROKEN }, 'break team-b');
          await announcePush(service);
        },
        async lock() {
          await server.down();
          return () => server.up();
        },
      };
    }
    case 'sqlite': {
      const path = prepared.dbPath!;
      return {
        async relabelElsewhere(labels) {
          sqlInOtherProcess(path, `UPDATE namespaces SET labels = '${JSON.stringify(labels)}' WHERE id = 'team-b'`);
        },
        async breakNamespace() {
          sqlInOtherProcess(path, `UPDATE namespaces SET labels = '{"tier":3}' WHERE id = 'team-b'`);
        },
        async lock() {
          const holder = await holdExclusiveLock(path);
          return () => holder.release('rollback');
        },
      };
    }
    case 'memory':
      return undefined;
  }
}

/** A signed push webhook, as GitHub sends it: the service looks at the remote now. */
export async function announcePush(service: TestService): Promise<void> {
  const payload = JSON.stringify({ ref: 'refs/heads/main' });
  const signature = `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(payload).digest('hex')}`;
  const res = await request(service.url, '/hooks/git', {
    method: 'POST',
    body: payload,
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
  });
  if (res.status !== 202) throw new Error(`webhook answered ${res.status}: ${res.text}`);
}
