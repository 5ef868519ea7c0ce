// GET /api/v2/gitops/revisions on every backend, over real HTTP: the revisions the service
// judged, newest first, with each one's author and message where the store keeps them, the
// clusters whose answers it changed (?cluster= keeps those that changed one), a refused one
// with its problems, and, for Git, the same list after a restart.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dump } from 'js-yaml';
import { clusterTokenKey, signClusterToken } from '../../../src/domain/cluster-token.ts';
import type { HistoryEntry } from '../../../src/store/history/revision-history.ts';
import { CRUD_BACKENDS, CRUD_DATA, type CrudBackend, type CrudService, send, startCrud } from '../../helpers/crud.ts';
import { git } from '../../helpers/git-fixture.ts';
import { eventually, request } from '../../helpers/http.ts';
import { expectMatchesOpenApi } from '../../helpers/openapi.ts';
import { READ_TOKEN, startTestService } from '../../helpers/service.ts';
import { sqlInOtherProcess } from '../../helpers/sqlite.ts';
import { announcePush, storeActions } from '../../helpers/store-actions.ts';
import { published } from '../../helpers/store-events.ts';
import { runCommandText } from '../../helpers/process-starter.ts';

/** An entry as the service sends it: problems as /ready shows them. */
type Entry = Omit<HistoryEntry, 'problems'> & {
  problems: { code: string; severity: string; at: string; file?: string; message: string }[];
};

let services: CrudService[] = [];
afterEach(async () => {
  await Promise.all(services.map((s) => s.close()));
  services = [];
});

async function start(backend: CrudBackend, env: Record<string, string> = {}): Promise<CrudService> {
  const service = await startCrud(backend, env);
  services.push(service);
  return service;
}

async function revisions(service: CrudService, query = ''): Promise<Entry[]> {
  const res = await request(service.url, `/api/v2/gitops/revisions${query}`, { token: READ_TOKEN });
  expect(res.status, res.text).toBe(200);
  await expectMatchesOpenApi('get', '/api/v2/gitops/revisions', 200, res.json());
  return (res.json() as { revisions: Entry[] }).revisions;
}

/** c1's record with one more namespace: a change of c1's answers only. */
const c1WithTeamB = { ...CRUD_DATA.clusters[0], namespaces: [{ id: 'team-a' }, { id: 'team-b' }] };
const c1File = (({ id: _id, ...rest }) => dump(rest))(c1WithTeamB);

/**
 * Someone changes c1 behind the service's back, the way each store is changed: a person's
 * commit (git), a push (git-remote), another process's UPDATE (sqlite). The revision it made.
 */
async function personChangesC1(service: CrudService): Promise<string | undefined> {
  const { prepared } = service;
  switch (prepared.backend) {
    case 'git': {
      // Staged and committed before the file in the working tree changes: the service never
      // sees the edit as uncommitted, which a restart could not show (it is no commit).
      const dir = prepared.dir!;
      const blob = gitIn(dir, ['hash-object', '-w', '--stdin'], c1File);
      git(dir, 'update-index', '--cacheinfo', `100644,${blob},clusters/c1.yaml`);
      git(dir, 'commit', '-q', '-m', 'c1: team-b joins', '--author', 'Pat Person <pat@example.com>');
      git(dir, 'checkout', '--', 'clusters/c1.yaml');
      return git(dir, 'rev-parse', 'HEAD');
    }
    case 'git-remote': {
      const { work } = prepared.remote!;
      git(work, 'pull', '-q', '--ff-only');
      writeFileSync(join(work, 'clusters/c1.yaml'), c1File);
      git(work, 'commit', '-q', '-am', 'c1: team-b joins', '--author', 'Pat Person <pat@example.com>');
      git(work, 'push', '-q', 'origin', 'HEAD:main');
      await announcePush(service);
      return git(work, 'rev-parse', 'HEAD');
    }
    case 'sqlite':
      sqlInOtherProcess(
        prepared.dbPath!,
        "INSERT INTO cluster_namespaces (cluster_id, position, namespace_id) VALUES ('c1', 1, 'team-b')",
      );
      return undefined;
    case 'memory':
      await send(service, 'PATCH', '/clusters/c1', { namespaces: c1WithTeamB.namespaces });
      return undefined;
  }
}

/** A git command that reads `input` on its standard input. */
function gitIn(dir: string, args: string[], input: string): string {
  return runCommandText('git', args, { cwd: dir, input }).trim();
}

/** What a restart must show again: everything but when this process judged it. */
const lasting = (entries: Entry[]) => entries.map(({ judged_at: _at, ...rest }) => rest);

describe.each(CRUD_BACKENDS)('the history of revisions on %s', (backend) => {
  it(
    'lists the revisions newest first, ?cluster= those ' + 'that changed its answers, with author and message',
    async () => {
      const service = await start(backend);
      const first = service.store.published()!.snapshot.revision;
      const byPerson = await personChangesC1(service);
      if (byPerson) await published(service, byPerson);
      else await eventually(() => service.store.published()!.snapshot.revision !== first);
      const personRevision = service.store.published()!.snapshot.revision;

      const c0 = await send(service, 'PATCH', '/clusters/c0', { namespaces: [{ id: 'team-b' }] });
      expect(c0.status, c0.text).toBe(200);
      // A catalog bump: traefik is used by c1 alone (c1 pins podinfo's tag, so a bump of that would change nothing).
      const bump = await send(service, 'PATCH', '/platform_components/traefik', { oci_tag: '33.1.0' });
      expect(bump.status, bump.text).toBe(200);
      const [c0Revision, bumpRevision] = [
        c0.headers['x-config-revision'],
        bump.headers['x-config-revision'],
      ] as string[];

      const all = await revisions(service);
      expect(all.map((e) => e.revision)).toEqual([bumpRevision, c0Revision, personRevision, first]);
      expect(all.map((e) => e.result)).toEqual(['published', 'published', 'published', 'published']);
      expect(all.map((e) => e.clusters)).toEqual([['c1'], ['c0'], ['c1'], null]);
      expect(all.map((e) => e.clusters_changed)).toEqual([1, 1, 1, null]);
      for (const e of all) expect(Date.parse(e.judged_at)).not.toBeNaN();

      expect((await revisions(service, '?cluster=c1')).map((e) => e.revision)).toEqual([bumpRevision, personRevision]);
      expect((await revisions(service, '?cluster=c0')).map((e) => e.revision)).toEqual([c0Revision]);
      expect(await revisions(service, '?cluster=nobody')).toEqual([]);
      expect((await revisions(service, '?limit=2')).map((e) => e.revision)).toEqual([bumpRevision, c0Revision]);

      if (backend === 'git' || backend === 'git-remote') {
        const [bumpEntry, c0Entry, personEntry] = all;
        expect(personEntry).toMatchObject({
          author: { name: 'Pat Person', email: 'pat@example.com' },
          message: 'c1: team-b joins',
        });
        expect(c0Entry).toMatchObject({ author: { name: 'gitops-config-api', email: 'gitops-config-api@localhost' } });
        expect(c0Entry.message).toMatch(/^clusters: update c0\n\nChanged fields: namespaces/);
        expect(bumpEntry.message).toMatch(/^platform_components: update traefik/);
        for (const e of all) expect(Date.parse(e.time!)).not.toBeNaN();
      } else {
        // The store says nothing of its revisions; the service knows its own writes.
        const [bumpEntry, c0Entry] = all;
        expect(c0Entry).toMatchObject({
          author: { name: 'write-token', email: null },
          message: 'clusters: update c0\n\nChanged fields: namespaces',
        });
        expect(bumpEntry.message).toMatch(/^platform_components: update traefik/);
        expect(Date.parse(c0Entry.time!)).not.toBeNaN();
        if (backend === 'sqlite') expect(all[2]).toMatchObject({ author: null, time: null, message: null });
      }
    },
  );

  it('keeps the message a write gives', async () => {
    const service = await start(backend);
    const message = encodeURIComponent('Move c0 to team-b\n\nAsked for in TICKET-7');
    const res = await send(
      service,
      'PATCH',
      '/clusters/c0',
      { namespaces: [{ id: 'team-b' }] },
      { headers: { 'gitops-commit-message': message } },
    );
    expect(res.status, res.text).toBe(200);
    // (A remote's commits end with the trailer that names the writing instance.)
    await eventually(
      async () =>
        (await revisions(service))[0]?.message?.startsWith('Move c0 to team-b\n\nAsked for in TICKET-7') === true,
    );
  });

  // Skipped on memory: nothing changes its store behind the service's back, and a write the
  // rules refuse is never stored, so it never holds a revision to refuse.
  it.skipIf(backend === 'memory')('shows a refused revision with its problems', async () => {
    const service = await start(backend);
    const served = service.store.published()!.snapshot.revision;
    await storeActions(service.prepared, service)!.breakNamespace();
    const { prepared } = service;
    // Git: the commit (a local working tree may show the edit uncommitted first, refused too).
    const commit = prepared.dir
      ? git(prepared.dir, 'rev-parse', 'HEAD')
      : prepared.remote
        ? git(prepared.remote.work, 'rev-parse', 'HEAD')
        : undefined;
    await eventually(async () => {
      const [newest] = await revisions(service);
      return newest?.result === 'refused' && (commit === undefined || newest.revision === commit);
    }, 10_000);
    const [refused] = await revisions(service);
    expect(refused.revision).not.toBe(served);
    expect(refused.problems.map((p) => [p.code, p.severity])).toEqual([['wrong_type', 'error']]);
    expect(refused.problems[0].message).toMatch(/string/);
    if (backend !== 'sqlite') {
      expect(refused.problems[0]).toMatchObject({ file: 'namespaces/team-b.yaml' });
      expect(refused.message).toBe('break team-b');
    }
    // Against the revision it would have replaced: no cluster of this data uses team-b.
    expect(refused.clusters).toEqual([]);
    expect((await revisions(service, '?cluster=c1')).map((e) => e.result)).not.toContain('refused');
  });

  // Git only: SQLite and memory keep no history to read at start, so their list starts empty.
  it.runIf(backend === 'git' || backend === 'git-remote')('shows the same list after a restart', async () => {
    const service = await start(backend);
    const byPerson = await personChangesC1(service);
    await published(service, byPerson!);
    await send(service, 'PATCH', '/clusters/c0', { namespaces: [{ id: 'team-b' }] });
    const bump = await send(service, 'PATCH', '/platform_components/traefik', { oci_tag: '33.1.0' });
    await eventually(async () => (await revisions(service))[0]?.author !== null);
    const before = await revisions(service);
    expect(before).toHaveLength(4);
    await service.close();
    services = [];

    const again = await startTestService({ API_MODE: 'crud', LOG_LEVEL: 'info', ...service.prepared.env });
    services.push(Object.assign(again, { prepared: service.prepared }));
    await published(again, bump.headers['x-config-revision'] as string);
    await eventually(
      async () =>
        (await revisions(again as CrudService)).length === 4 &&
        (await revisions(again as CrudService)).every((e) => e.author !== null),
    );
    expect(lasting(await revisions(again as CrudService))).toEqual(lasting(before));
  });
});

describe('GET /api/v2/gitops/revisions', () => {
  it('is fleet-wide: 401 without a token, 403 for a cluster token; refuses a bad query by name', async () => {
    const service = await start('memory', { CLUSTER_TOKEN_KEYS: 'history-key-of-at-least-32-bytes-long' });
    expect((await request(service.url, '/api/v2/gitops/revisions')).status).toBe(401);
    const token = signClusterToken(clusterTokenKey('history-key-of-at-least-32-bytes-long'), 'c1', 0);
    const refused = await request(service.url, '/api/v2/gitops/revisions', { token });
    expect(refused.status).toBe(403);
    await expectMatchesOpenApi('get', '/api/v2/gitops/revisions', 403, refused.json());
    expect(refused.json().message).toMatch(/reads only cluster "c1"/);
    for (const query of ['?limit=0', '?limit=1001', '?limit=x', '?cluster=../x', '?since=1', '?limit=1&limit=2']) {
      const res = await request(service.url, `/api/v2/gitops/revisions${query}`, { token: READ_TOKEN });
      expect(res.status, query).toBe(400);
      await expectMatchesOpenApi('get', '/api/v2/gitops/revisions', 400, res.json());
    }
    expect((await request(service.url, '/api/v2/gitops/revisions?limit=1000', { token: READ_TOKEN })).status).toBe(200);
    const post = await request(service.url, '/api/v2/gitops/revisions', { method: 'POST', token: READ_TOKEN });
    expect(post.status).toBe(405);
  });
});
