// Stopping the service lets a request that is already in flight finish, and closes every
// connection that has none at once.
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { asSeedFile } from './helpers/fixture-data.ts';
import { expectMatchesOpenApi } from './helpers/openapi.ts';
import { type ServiceProcess, startServiceProcess } from './helpers/process.ts';
import { RawConnection } from './helpers/raw-connection.ts';
import { READ_TOKEN, startTestService, WRITE_TOKEN } from './helpers/service.ts';

it('finishes an in-flight write before the server closes, then refuses new connections', async () => {
  const service = await startTestService({
    STORE_BACKEND: 'memory',
    SEED_FILE: asSeedFile(),
    API_MODE: 'crud',
    CRUD_AUTH_TOKEN: WRITE_TOKEN,
  });
  const body = JSON.stringify({ labels: { during: 'shutdown' } });
  const events: string[] = [];
  const arrived = new Promise<void>((resolve) => service.server.once('request', () => resolve()));
  let finishBody = () => {};
  const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = httpRequest(
      `${service.url}/namespaces/team-b`,
      {
        method: 'PATCH',
        headers: {
          authorization: `Bearer ${WRITE_TOKEN}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += String(c)));
        res.on('end', () => {
          events.push('response');
          resolve({ status: res.statusCode ?? 0, text });
        });
      },
    );
    req.on('error', reject);
    // Half the body now; the rest once shutdown has begun.
    req.write(body.slice(0, 10));
    finishBody = () => req.end(body.slice(10));
  });
  await arrived;
  const closing = service.close().then(() => events.push('closed'));
  finishBody();

  const res = await response;
  await closing;
  // The service may finish closing before this client has read the answer it was sent: the
  // order of the two is a race between the two ends of the loopback, not a property.
  expect(events.sort()).toEqual(['closed', 'response']);
  expect(res.status).toBe(200);
  expect(JSON.parse(res.text).labels).toEqual({ during: 'shutdown' });
  await expect(
    fetch(`${service.url}/health`, { headers: { authorization: `Bearer ${READ_TOKEN}` } }),
  ).rejects.toThrow();
});

/**
 * A connection made now is refused, or (when it reached the listening socket's queue just
 * before the listener closed) reset or closed without an answer.
 */
async function expectNoNewConnections(url: string): Promise<void> {
  let connection: RawConnection;
  try {
    connection = await RawConnection.open(url);
  } catch (error) {
    expect((error as NodeJS.ErrnoException).code).toMatch(/ECONNREFUSED|ECONNRESET/);
    return;
  }
  await connection.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n').catch(() => {});
  await expect(connection.next()).rejects.toThrow(/closed/);
}

// SIGTERM to the real process (src/main.ts): what Kubernetes does to a pod it stops.
describe('SIGTERM', () => {
  const WRITE = 'write-token-for-shutdown';
  let service: ServiceProcess | undefined;
  afterEach(async () => {
    if (service?.child.exitCode === null && service.child.signalCode === null) await service.stop('SIGKILL');
    service = undefined;
  });

  const health = 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n';

  it('an idle service with three open keep-alive connections exits 0 within a second, closing them', async () => {
    service = await startServiceProcess({ STORE_BACKEND: 'memory', SEED_FILE: asSeedFile() });
    const connections = await Promise.all([0, 1, 2].map(() => RawConnection.open(service!.url)));
    for (const connection of connections) {
      await connection.write(health);
      const answer = await connection.next();
      expect(answer.status).toBe(200);
      expect(answer.headers.connection).toBe('keep-alive');
    }
    const { code, ms } = await service.stop('SIGTERM');
    expect(code).toBe(0);
    expect(ms).toBeLessThan(1500);
    await Promise.all(connections.map((c) => c.closed));
  });

  it('closes at once a connection that has sent only part of a request header', async () => {
    service = await startServiceProcess({ STORE_BACKEND: 'memory', SEED_FILE: asSeedFile() });
    const partial = await RawConnection.open(service.url);
    await partial.write('GET /health HTTP/1.1\r\nHost: x\r\n');
    // The same, behind a request that was answered: when that answer arrives, the service
    // has read the half header after it (one write, one segment), and the first connection's
    // bytes, sent earlier, too.
    const pipelined = await RawConnection.open(service.url);
    await pipelined.write(`${health}GET /health HTTP/1.1\r\nHost: x\r\n`);
    expect((await pipelined.next()).status).toBe(200);

    const { code, ms } = await service.stop('SIGTERM');
    expect(code).toBe(0);
    expect(ms).toBeLessThan(1500);
    await Promise.all([partial.closed, pipelined.closed]);
  });

  it(
    'finishes in-flight requests, closes their connections after the answer, answers /ready 503 meanwhile, then ' +
      'exits 0',
    async () => {
      service = await startServiceProcess({
        STORE_BACKEND: 'memory',
        SEED_FILE: asSeedFile(),
        API_MODE: 'crud',
        CRUD_AUTH_TOKEN: WRITE,
      });
      const patch = (id: string, body: string) =>
        `PATCH /namespaces/${id} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${WRITE}\r\nContent-Type: ` +
        `application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`;
      const bodyB = JSON.stringify({ labels: { during: 'shutdown' } });
      const bodyA = JSON.stringify({ labels: { also: 'shutdown' } });
      // Two writes whose bodies are still being sent: "100 Continue" comes once the request
      // has reached the service's handler, so both are in flight when SIGTERM arrives.
      const first = await RawConnection.open(service.url);
      await first.write(patch('team-b', bodyB) + bodyB.slice(0, 10));
      expect((await first.next()).status).toBe(100);
      const second = await RawConnection.open(service.url);
      await second.write(patch('team-a', bodyA) + bodyA.slice(0, 10));
      expect((await second.next()).status).toBe(100);

      service.child.kill('SIGTERM');
      await service.waitForOutput(/shutting down/);
      await expectNoNewConnections(service.url);

      // The rest of the bodies; on the second connection a /ready probe right behind the write.
      await first.write(bodyB.slice(10));
      await second.write(`${bodyA.slice(10)}GET /ready HTTP/1.1\r\nHost: x\r\n\r\n`);
      const written = await first.next();
      expect(written.status).toBe(200);
      expect(written.json().labels).toEqual({ during: 'shutdown' });
      expect(written.headers.connection).toBe('close');
      const firstClosed = await first.closed;

      expect((await second.next()).status).toBe(200);
      const ready = await second.next();
      expect(ready.status).toBe(503);
      expect(ready.json()).toMatchObject({ status: 'shutting_down', error: 'unavailable' });
      expect(ready.headers.connection).toBe('close');
      await expectMatchesOpenApi('get', '/ready', 503, ready.json());
      await second.closed;

      const exit = await service.exited;
      expect(exit.code).toBe(0);
      expect(firstClosed - written.receivedAt).toBeLessThan(1500);
      expect(exit.at - Math.max(written.receivedAt, ready.receivedAt)).toBeLessThan(1500);
    },
  );
});
