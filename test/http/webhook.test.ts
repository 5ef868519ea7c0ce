// The push webhook as anyone on the network can call it: refused from its headers alone
// before a byte of the body is read, a body hashed as it streams (its size costs no memory),
// a delivery replayed answered without another fetch, and a burst of pushes during a slow
// fetch making one more fetch, not one each. Fetches are counted at the Git remote itself
// (git http-backend on loopback), by the ref advertisements it serves.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/git-fixture.ts';
import { eventually, request } from '../helpers/http.ts';
import { expectMatchesOpenApi } from '../helpers/openapi.ts';
import { RawConnection } from '../helpers/raw-connection.ts';
import { gitRemoteSuite, pushFiles } from '../helpers/remote-suite.ts';
import { READ_TOKEN, startTestService, type TestService } from '../helpers/service.ts';

const USER = 'hook-bot';
const PASSWORD = 'hook-remote-password-5d1e';
const SECRET = 'webhook-secret-2b7f';
const NS = '/api/v2/gitops/clusters/c1.k8s.example.com/namespaces';

const suite = gitRemoteSuite({ username: USER, password: PASSWORD });
const services: TestService[] = [];

afterEach(async () => {
  await suite.remote.slowFetches(0);
  for (const s of services.splice(0)) {
    expect(s.logText()).not.toContain(SECRET);
    await s.close();
  }
});
function pushChange(work: string, label: string): string {
  return pushFiles(work, { 'namespaces/team-b.yaml': { labels: { hook: label } } }, label);
}

async function start(url: string): Promise<TestService> {
  const service = await startTestService({
    CONFIG_REPO: url,
    GIT_USERNAME: USER,
    GIT_PASSWORD: PASSWORD,
    CONFIG_CLONE_DIR: join(tempDir(), 'clone'),
    // No sync but the ones the webhook asks for.
    CONFIG_SYNC_INTERVAL: '1h',
    WEBHOOK_SECRET: SECRET,
  });
  services.push(service);
  return service;
}

const sign = (body: string | Buffer) => `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;

function githubPush(body: string, delivery: string) {
  return {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'push',
      'x-github-delivery': delivery,
      'x-hub-signature-256': sign(body),
    },
  };
}

const revisionOf = async (s: TestService) =>
  (await request(s.url, NS, { token: READ_TOKEN })).headers['x-config-revision'];

/** A request's head alone, its body announced but not sent: the answer must come without it. */
async function headOnly(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: any; closed: boolean }> {
  const connection = await RawConnection.open(url);
  const lines = Object.entries({ host: 'x', 'content-type': 'application/json', ...headers }).map(
    ([k, v]) => `${k}: ${v}`,
  );
  await connection.write(`POST /hooks/git HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error('no answer before the body: the service waits for it')), 3000),
  );
  const answer = await Promise.race([connection.next(), timeout]);
  const closed = await Promise.race([
    connection.closed.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 3000)),
  ]);
  connection.socket.destroy();
  return { status: answer.status, body: answer.json(), closed };
}

describe('the push webhook, before the body', () => {
  it('refuses from the headers alone, answers at once and closes the connection, the body unread', async () => {
    const repo = suite.newRepo('hooked');
    const service = await start(repo.url);
    const fiveMb = String(5 * 1024 * 1024);
    const cases: [string, Record<string, string>, number][] = [
      ['a wrong GitLab token', { 'content-length': fiveMb, 'x-gitlab-token': 'not-the-secret' }, 401],
      ['no credentials at all', { 'content-length': fiveMb }, 401],
      ['a malformed GitHub signature', { 'content-length': fiveMb, 'x-hub-signature-256': 'sha1=abc' }, 401],
      [
        'a malformed event name',
        {
          'content-length': fiveMb,
          'x-hub-signature-256': `sha256=${'a'.repeat(64)}`,
          'x-github-event': 'push; rm -rf /',
        },
        400,
      ],
      [
        'a body larger than any webhook',
        {
          'content-length': String(26 * 1024 * 1024),
          'x-hub-signature-256': `sha256=${'a'.repeat(64)}`,
          'x-github-event': 'push',
        },
        413,
      ],
      [
        'a GitLab body larger than any webhook',
        { 'content-length': String(26 * 1024 * 1024), 'x-gitlab-token': SECRET },
        413,
      ],
    ];
    for (const [what, headers, status] of cases) {
      const answer = await headOnly(service.url, headers);
      expect(answer.status, what).toBe(status);
      expect(answer.closed, `${what}: the connection is closed after the answer`).toBe(true);
      await expectMatchesOpenApi('post', '/hooks/git', status, answer.body);
    }
    // An event that is no push needs no body either: nothing is done with it.
    const issues = await headOnly(service.url, {
      'content-length': fiveMb,
      'x-hub-signature-256': `sha256=${'a'.repeat(64)}`,
      'x-github-event': 'issues',
    });
    expect(issues).toMatchObject({ status: 202, body: { status: 'ignored' }, closed: true });
    const tag = await headOnly(service.url, {
      'content-length': fiveMb,
      'x-gitlab-token': SECRET,
      'x-gitlab-event': 'Tag Push Hook',
    });
    expect(tag).toMatchObject({ status: 202, body: { status: 'ignored' }, closed: true });
    expect(service.logs.filter((l) => l.msg === 'webhook: syncing the config repo now')).toHaveLength(0);
  });
});

describe('the push webhook, a body without a length', () => {
  it('stops reading a chunked body once it passes 25 MiB: 413, the connection closed', async () => {
    const repo = suite.newRepo('hooked');
    const service = await start(repo.url);
    const connection = await RawConnection.open(service.url);
    await connection.write(
      `POST /hooks/git HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\nx-gitlab-token: ${SECRET}\r\n\r\n`,
    );
    const chunk = Buffer.alloc(1024 * 1024, ' ');
    const frame = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
    const answer = connection.next();
    // Writes fail once the service has closed the connection; the answer came before.
    for (let i = 0; i < 30; i++) await connection.write(frame).catch(() => undefined);
    expect((await answer).status).toBe(413);
    await connection.closed;
    expect(service.logs.filter((l) => l.msg === 'webhook: syncing the config repo now')).toHaveLength(0);
  });
});

describe('the push webhook, deliveries and fetches', () => {
  it('fetches once for a signed delivery sent 20 times', async () => {
    const repo = suite.newRepo('hooked');
    const service = await start(repo.url);
    // GitHub's ping, sent when a webhook is made: verified, answered, no fetch.
    const zen = JSON.stringify({ zen: 'Keep it logically awesome.' });
    const ping = await request(service.url, '/hooks/git', {
      method: 'POST',
      body: zen,
      headers: { 'x-github-event': 'ping', 'x-hub-signature-256': sign(zen) },
    });
    expect(ping.json()).toEqual({ status: 'pong' });
    const before = await suite.remote.fetches(repo.name);
    const commit = pushChange(repo.work, 'replayed');
    const delivery = githubPush(
      JSON.stringify({ ref: 'refs/heads/main', after: commit }),
      '0b9e7c1a-5f3d-11f0-8e2a-1c2b3d4e5f60',
    );
    const answers: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await request(service.url, '/hooks/git', delivery);
      expect(res.status).toBe(202);
      answers.push(res.json().status);
      // Each replay only once the sync the one before asked for has finished: none can share a fetch.
      await service.store.idle();
    }
    expect(answers[0]).toBe('accepted');
    expect(new Set(answers.slice(1))).toEqual(new Set(['ignored']));
    expect((await suite.remote.fetches(repo.name)) - before).toBe(1);
    expect(await revisionOf(service)).toBe(commit);
  });

  it('fetches once for a GitLab delivery retried with its Idempotency-Key', async () => {
    const repo = suite.newRepo('hooked');
    const service = await start(repo.url);
    const before = await suite.remote.fetches(repo.name);
    const body = JSON.stringify({ object_kind: 'push', ref: 'refs/heads/main' });
    const headers = {
      'x-gitlab-token': SECRET,
      'x-gitlab-event': 'Push Hook',
      'idempotency-key': 'f7a1c2d3-retry',
      'x-gitlab-event-uuid': 'e1d2c3b4',
    };
    for (let i = 0; i < 5; i++) {
      expect((await request(service.url, '/hooks/git', { method: 'POST', body, headers })).status).toBe(202);
      await service.store.idle();
    }
    expect((await suite.remote.fetches(repo.name)) - before).toBe(1);
  });

  it('fetches at most twice for 20 pushes announced while a fetch is slow', async () => {
    const repo = suite.newRepo('hooked');
    const service = await start(repo.url);
    const before = await suite.remote.fetches(repo.name);
    await suite.remote.slowFetches(1500);
    const push = (i: number) =>
      request(
        service.url,
        '/hooks/git',
        githubPush(JSON.stringify({ ref: 'refs/heads/main', after: `${i}`.padStart(40, '0') }), `delivery-${i}`),
      );
    expect((await push(0)).json()).toEqual({ status: 'accepted' });
    await eventually(async () => (await suite.remote.fetchesInFlight(repo.name)) === 1, 3000);
    const answers = await Promise.all(Array.from({ length: 19 }, (_, i) => push(i + 1)));
    expect(answers.map((a) => a.json().status)).toEqual(Array(19).fill('accepted'));
    await suite.remote.slowFetches(0);
    await service.store.idle();
    const fetched = (await suite.remote.fetches(repo.name)) - before;
    console.log(`20 webhook deliveries during a slow fetch: ${fetched} fetches`);
    expect(fetched).toBeGreaterThanOrEqual(1);
    expect(fetched).toBeLessThanOrEqual(2);
  });

  it('takes a push payload of megabytes whole and reads its ref from its head', async () => {
    const repo = suite.newRepo('hooked');
    const service = await start(repo.url);
    const commit = pushChange(repo.work, 'big');
    // GitHub's order: ref first, then before/after, then the commits (here 3 MB of them).
    const commits = Array.from({ length: 3000 }, (_, i) => ({
      id: `${i}`.padStart(40, '0'),
      message: 'x'.repeat(1000),
    }));
    const big = (ref: string) => JSON.stringify({ ref, before: '0'.repeat(40), after: commit, commits });
    const other = await request(service.url, '/hooks/git', githubPush(big('refs/heads/feature'), 'big-1'));
    expect(other.json()).toMatchObject({ status: 'ignored', message: expect.stringContaining('refs/heads/feature') });
    const main = await request(service.url, '/hooks/git', githubPush(big('refs/heads/main'), 'big-2'));
    expect(main.json()).toEqual({ status: 'accepted' });
    await eventually(async () => (await revisionOf(service)) === commit, 3000);
    // A signature that does not match a long body is found out at its end.
    const forged = githubPush(big('refs/heads/main'), 'big-3');
    const wrong = await request(service.url, '/hooks/git', {
      ...forged,
      headers: { ...forged.headers, 'x-hub-signature-256': sign('something else') },
    });
    expect(wrong.status).toBe(401);
  });
});

/** Bytes received on the sockets of local port `port` that their process has not read yet (from /proc/net/tcp). */
function unreadBytes(port: number): number {
  let unread = 0;
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 5) continue;
    const localPort = Number.parseInt(fields[1].split(':')[1], 16);
    if (localPort === port) unread += Number.parseInt(fields[4].split(':')[1], 16);
  }
  return unread;
}

/** Full garbage collections, then the memory JavaScript holds: heap objects and buffers. */
function retainedBytes(): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  // Buffers are freed by a collection after the one that finds them unreachable.
  for (let i = 0; i < 3; i++) gc();
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}

describe('the push webhook under a flood of unfinished bodies', () => {
  it('holds no body in memory: 100 connections, 50 of them 4 MiB into a 5 MiB body', async () => {
    const repo = suite.newRepo('hooked');
    const service = await start(repo.url);
    const connections: RawConnection[] = [];
    try {
      const before = retainedBytes();
      const rssBefore = process.memoryUsage().rss;
      const chunk = Buffer.alloc(256 * 1024, 'x');
      // Half forge a GitHub signature (the body must be read to find that out), half guess a GitLab token (refused at
      // once).
      for (let i = 0; i < 100; i++) {
        const connection = await RawConnection.open(service.url);
        connections.push(connection);
        const auth =
          i % 2 === 0
            ? `x-hub-signature-256: sha256=${'b'.repeat(64)}\r\nx-github-event: push`
            : 'x-gitlab-token: a-guess';
        await connection.write(
          `POST /hooks/git HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ` +
            `${5 * 1024 * 1024}\r\n${auth}\r\n\r\n`,
        );
      }
      await Promise.all(
        connections
          .filter((_, i) => i % 2 === 0)
          .map(async (connection) => {
            for (let sent = 0; sent < 4 * 1024 * 1024; sent += chunk.length) await connection.write(chunk);
          }),
      );
      // Every byte sent has been read by the service (none left in its sockets' receive queues).
      await eventually(() => unreadBytes(service.port) === 0, 10_000);
      const grown = (retainedBytes() - before) / 2 ** 20;
      const rssGrown = (process.memoryUsage().rss - rssBefore) / 2 ** 20;
      console.log(
        `200 MiB of unfinished webhook bodies on 50 connections: +${grown.toFixed(1)} MiB held (heap and buffers ` +
          `after a collection), +${rssGrown.toFixed(1)} MiB RSS`,
      );
      // Buffered, the bodies would hold 200 MiB; hashed as they stream, each keeps its first 64 KiB.
      expect(grown).toBeLessThan(10);
      // The GitLab guesses were answered 401 without their bodies.
      for (const connection of connections.filter((_, i) => i % 2 === 1))
        expect((await connection.next()).status).toBe(401);
    } finally {
      for (const connection of connections) connection.socket.destroy();
    }
  });
});
