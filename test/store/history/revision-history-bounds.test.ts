// The history of revisions is bounded in bytes: each entry keeps the subject and the start of
// a commit's message (marked as cut), whatever the commits pushed to the config repo hold; the
// list comes in pages (`limit`, `before` / `next`, about 1 MiB at most); and a change set's
// message has a maximum.
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_MESSAGE_BYTES } from '../../../src/domain/writes/change-set.ts';
import { HISTORY_MESSAGE_BYTES, HISTORY_PROBLEMS } from '../../../src/store/history/history-bounds.ts';
import { type HistoryEntry, RevisionHistory } from '../../../src/store/history/revision-history.ts';
import { createSnapshot } from '../../../src/domain/snapshot.ts';
import { problem } from '../../../src/domain/problem.ts';
import { CRUD_DATA, crudRepo, send, startCrud, type CrudService } from '../../helpers/crud.ts';
import { git } from '../../helpers/git-fixture.ts';
import { request } from '../../helpers/http.ts';
import { expectMatchesOpenApi } from '../../helpers/openapi.ts';
import { startServiceProcess, type ServiceProcess } from '../../helpers/process.ts';
import { READ_TOKEN, WRITE_TOKEN } from '../../helpers/service.ts';
import { announcePush } from '../../helpers/store-actions.ts';
import { published } from '../../helpers/store-events.ts';
import { runCommandText } from '../../helpers/process-starter.ts';

const MiB = 1024 * 1024;
let services: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  await Promise.all(services.map((s) => s.close()));
  services = [];
});

/**
 * `count` empty commits on top of `dir`'s branch, each with a message of `bytes` (subject "commit N"), through one git
 * fast-import.
 */
function commitsWithLongMessages(dir: string, count: number, bytes: number): void {
  const head = git(dir, 'rev-parse', 'HEAD');
  const tree = git(dir, 'rev-parse', 'HEAD^{tree}');
  const chunks: string[] = [];
  for (let i = 1; i <= count; i++) {
    const message = `commit ${i}\n\n${'long body line of a pushed commit\n'.repeat(Math.ceil(bytes / 34))}`.slice(
      0,
      bytes,
    );
    const length = Buffer.byteLength(message);
    chunks.push(
      `commit refs/heads/main\ncommitter Pat Person <pat@example.com> ${1_700_000_000 + i} +0000\ndata ` +
        `${length}\n${message}\n`,
    );
    chunks.push(i === 1 ? `from ${head}\n` : '');
    // The same tree: each commit changes nothing but the history.
    chunks.push(`M 040000 ${tree} ""\n\n`);
  }
  runCommandText('git', ['fast-import', '--quiet'], { cwd: dir, input: chunks.join('') });
  git(dir, 'reset', '-q', '--hard', 'main');
}

/**
 * The repo of 60 commits of 1 MiB messages on top of CRUD_DATA (60 MiB through git fast-import), made once for the
 * tests that read it: neither writes to it (the service in crud mode is given no write).
 */
let longMessages: string | undefined;
function longMessagesRepo(): string {
  if (longMessages === undefined) {
    longMessages = crudRepo();
    commitsWithLongMessages(longMessages, 60, MiB);
  }
  return longMessages;
}

async function page(
  url: string,
  query: string,
): Promise<{ revisions: HistoryEntry[]; next: string | null; bytes: number }> {
  const res = await request(url, `/api/v2/gitops/revisions${query}`, { token: READ_TOKEN });
  expect(res.status, res.text).toBe(200);
  await expectMatchesOpenApi('get', '/api/v2/gitops/revisions', 200, res.json());
  return { ...(res.json() as { revisions: HistoryEntry[]; next: string | null }), bytes: res.body.length };
}

describe('the history of revisions, bounded in bytes', () => {
  it(
    '60 commits of 1 MiB messages: each entry keeps the subject and at most 4 KiB, marked as cut; the answer stays ' +
      'small',
    { timeout: 120_000 },
    async () => {
      const service = await startCrud('git', {}, longMessagesRepo());
      services.push(service);
      const all = await page(service.url, '?limit=1000');
      expect(all.revisions).toHaveLength(61);
      // 61 entries of at most 4 KiB of message each, and little else.
      expect(all.bytes).toBeLessThan(61 * (HISTORY_MESSAGE_BYTES + 1024));
      for (const [n, entry] of all.revisions.slice(0, 60).entries()) {
        expect(entry.message!.startsWith(`commit ${60 - n}\n\nlong body line`)).toBe(true);
        expect(Buffer.byteLength(entry.message!)).toBeLessThanOrEqual(HISTORY_MESSAGE_BYTES);
        expect(entry.message_truncated).toBe(true);
      }
      expect(all.revisions.at(-1)).toMatchObject({ message: 'initial config', message_truncated: false });
    },
  );

  it(
    'a process with a heap of 48 MiB serves the history of 60 commits of 1 MiB messages',
    { timeout: 120_000 },
    async () => {
      const service = await startServiceProcess(
        { STORE_BACKEND: 'git', CONFIG_REPO: longMessagesRepo(), NODE_OPTIONS: '--max-old-space-size=48' },
        { startTimeoutMs: 90_000 },
      );
      services.push({ close: () => service.stop() });
      const res = await request(service.url, '/api/v2/gitops/revisions?limit=1000', { token: 'process-token' });
      expect(res.status).toBe(200);
      expect((res.json() as { revisions: unknown[] }).revisions).toHaveLength(61);
      expect(res.body.length).toBeLessThan(61 * (HISTORY_MESSAGE_BYTES + 1024));
      expect(service.child.exitCode).toBeNull();
    },
  );

  it('a read replica bounds the entries of plain git pushes the same way', { timeout: 120_000 }, async () => {
    const service = await startCrud('git-remote');
    services.push(service);
    const { work } = service.prepared.remote!;
    for (let i = 1; i <= 3; i++) {
      git(work, 'pull', '-q', '--ff-only');
      commitsWithLongMessages(work, 1, MiB);
      git(work, 'push', '-q', 'origin', 'HEAD:main');
      await announcePush(service);
      await published(service, git(work, 'rev-parse', 'HEAD'));
    }
    const { revisions } = await page(service.url, '');
    const pushed = revisions.slice(0, 3);
    expect(
      pushed.every(
        (e) =>
          e.message_truncated &&
          Buffer.byteLength(e.message!) <= HISTORY_MESSAGE_BYTES &&
          e.message!.startsWith('commit 1\n'),
      ),
    ).toBe(true);
  });

  it(
    'pages: `limit` entries, `next` to pass as `before`, the pages together the whole list; an unknown `before` is ' +
      'a 400',
    async () => {
      const dir = crudRepo();
      commitsWithLongMessages(dir, 60, 100);
      const service = await startCrud('git', {}, dir);
      services.push(service);
      const whole = (await page(service.url, '?limit=1000')).revisions.map((e) => e.revision);
      const seen: string[] = [];
      let query = '?limit=25';
      for (let pages = 0; ; pages++) {
        const { revisions, next } = await page(service.url, query);
        seen.push(...revisions.map((e) => e.revision));
        expect(revisions.length).toBe(next === null ? 11 : 25);
        if (next === null) break;
        expect(next).toBe(revisions.at(-1)!.revision);
        query = `?limit=25&before=${next}`;
        expect(pages).toBeLessThan(3);
      }
      expect(seen).toEqual(whole);
      for (const before of ['0000000000000000000000000000000000000000', 'x y', '']) {
        const res = await request(service.url, `/api/v2/gitops/revisions?before=${encodeURIComponent(before)}`, {
          token: READ_TOKEN,
        });
        expect(res.status, before).toBe(400);
        await expectMatchesOpenApi('get', '/api/v2/gitops/revisions', 400, res.json());
      }
    },
  );

  it(
    'ends a page at its byte budget, and keeps the first ' + 'problems of a refused revision with their count',
    async () => {
      const built = createSnapshot(
        { clusters: [], platform_components: [], namespaces: [], rolebindings: [], rollouts: [] },
        'r0',
      );
      if (!built.ok) throw new Error('empty snapshot');
      const history = new RevisionHistory(
        async (revision) => ({ author: null, time: null, message: `${revision}\n\n${'é'.repeat(10_000)}` }),
        1000,
        20_000,
      );
      for (let i = 1; i <= 12; i++) history.published({ ...built.snapshot, revision: `r${i}` });
      const many = Array.from({ length: 50 }, (_, i) => problem('missing_field', { field: `/f${i}` }, 'missing'));
      history.refused({ ...built.snapshot, revision: 'bad' }, many);
      const first = (await history.list({ limit: 1000 }))!;
      expect(first.revisions[0]).toMatchObject({ revision: 'bad', problems_count: 50 });
      expect(first.revisions[0].problems).toHaveLength(HISTORY_PROBLEMS);
      // Each entry holds about 4 KiB of message: a page of 20,000 bytes ends after 5 of them.
      expect(first.revisions.length).toBeLessThan(8);
      expect(first.next).toBe(first.revisions.at(-1)!.revision);
      const message = first.revisions[1].message!;
      expect(message.startsWith('r12\n\néé')).toBe(true);
      expect(Buffer.byteLength(message)).toBeLessThanOrEqual(HISTORY_MESSAGE_BYTES);
      expect(Buffer.byteLength(message)).toBeGreaterThan(HISTORY_MESSAGE_BYTES - 2);
    },
  );
});

describe('a commit message has a maximum', () => {
  it(
    `a change set's message of more than ${MAX_MESSAGE_BYTES} bytes is a 400 naming it; one of exactly that many is ` +
      `stored`,
    async () => {
      const service: CrudService = await startCrud('memory');
      services.push(service);
      const write = { op: 'patch', collection: 'clusters', id: 'c1', patch: { cluster_name: 'renamed' } };
      const over = await send(service, 'POST', '/api/v2/gitops/changes', {
        message: 'é'.repeat(MAX_MESSAGE_BYTES / 2) + 'x',
        writes: [write],
      });
      expect(over.status).toBe(400);
      await expectMatchesOpenApi('post', '/api/v2/gitops/changes', 400, over.json());
      expect(over.json().details).toEqual([
        { path: 'message', message: expect.stringContaining(`at most ${MAX_MESSAGE_BYTES} bytes`) },
      ]);
      const at = await send(service, 'POST', '/api/v2/gitops/changes', {
        message: 'é'.repeat(MAX_MESSAGE_BYTES / 2),
        writes: [write],
      });
      expect(at.status, at.text).toBe(201);
      expect(CRUD_DATA.clusters[0].id).toBe('c1');
    },
  );

  it('so has the Gitops-Commit-Message header, where the server takes headers that long', async () => {
    const service: ServiceProcess = await startServiceProcess({
      STORE_BACKEND: 'memory',
      SEED_FILE: 'data/seed.json',
      API_MODE: 'crud',
      CRUD_AUTH_TOKEN: WRITE_TOKEN,
      NODE_OPTIONS: '--max-http-header-size=131072',
    });
    services.push({ close: () => service.stop() });
    const clusters = (await request(service.url, '/api/v2/gitops/clusters', { token: 'process-token' })).json() as {
      inputs: { id: string }[];
    };
    const id = clusters.inputs[0].id;
    const header = encodeURIComponent('x'.repeat(MAX_MESSAGE_BYTES + 1));
    const res = await request(service.url, `/clusters/${id}`, {
      method: 'PATCH',
      token: WRITE_TOKEN,
      headers: { 'content-type': 'application/merge-patch+json', 'gitops-commit-message': header },
      body: JSON.stringify({ cluster_name: 'renamed' }),
    });
    expect(res.status, res.text).toBe(400);
    expect(res.json().details).toEqual([
      { path: 'Gitops-Commit-Message', message: expect.stringContaining(`at most ${MAX_MESSAGE_BYTES} bytes`) },
    ]);
  });
});
