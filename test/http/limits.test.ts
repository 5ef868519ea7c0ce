// The HTTP server's limits on the real server over loopback: connections past
// HTTP_MAX_CONNECTIONS are closed while open ones are still answered; a connection that sends
// nothing, or its headers slowly, is closed after HTTP_HEADER_TIMEOUT; a slow body after
// HTTP_REQUEST_TIMEOUT; an idle connection after HTTP_KEEPALIVE_TIMEOUT; and a request answered
// before its body arrived (a 401 for a write) closes its connection at once instead of
// waiting for the body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asSeedFile } from '../helpers/fixture-data.ts';
import { eventually, request } from '../helpers/http.ts';
import { RawConnection } from '../helpers/raw-connection.ts';
import { READ_TOKEN, startTestService, type TestService, WRITE_TOKEN } from '../helpers/service.ts';

const HEALTH = 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n';
const memoryStore = { STORE_BACKEND: 'memory', SEED_FILE: asSeedFile() };
const crud = { ...memoryStore, API_MODE: 'crud', CRUD_AUTH_TOKEN: WRITE_TOKEN };

/** Resolves with `promise`, or fails the test when it has not settled within `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Writes `piece` every `everyMs` until the connection closes (a client that is slow on purpose). */
function trickle(connection: RawConnection, piece: string, everyMs: number): void {
  const timer = setInterval(() => {
    if (connection.socket.writable) connection.socket.write(piece);
  }, everyMs);
  void connection.closed.then(() => clearInterval(timer));
}

describe('HTTP_MAX_CONNECTIONS', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ ...memoryStore, HTTP_MAX_CONNECTIONS: '3' });
  });
  afterAll(() => service?.close());

  const openConnections = () =>
    new Promise<number>((resolve, reject) =>
      service.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    );

  it('closes connections past the limit as they arrive, while the open ones are still answered', async () => {
    const open: RawConnection[] = [];
    for (let i = 0; i < 3; i++) {
      const connection = await RawConnection.open(service.url);
      await connection.write(HEALTH);
      expect((await connection.next()).status).toBe(200);
      open.push(connection);
    }
    const excess = await RawConnection.open(service.url);
    excess.socket.write(HEALTH);
    await within(excess.closed, 2000, 'the connection past the limit is closed');
    await expect(excess.next()).rejects.toThrow();

    await open[0].write(HEALTH);
    expect((await open[0].next()).status).toBe(200);
    const refused = service.logs.filter((line) => line.msg?.toString().startsWith('connections refused'));
    expect(refused).toEqual([expect.objectContaining({ level: 40, count: 1, max_connections: 3 })]);

    // A connection that closes leaves its place to a new one.
    open[1].socket.destroy();
    await eventually(async () => (await openConnections()) < 3);
    const next = await RawConnection.open(service.url);
    await next.write(HEALTH);
    expect((await next.next()).status).toBe(200);
    for (const connection of [...open, next]) connection.socket.destroy();
  });

  it(
    'an error of the listener once started (a connection it ' + 'could not accept) is logged, and the service goes on',
    async () => {
      await eventually(async () => (await openConnections()) === 0);
      // What Node emits when accept() fails, e.g. EMFILE with no descriptor left even for libuv's reserve.
      service.server.emit('error', Object.assign(new Error('accept EMFILE'), { code: 'EMFILE', syscall: 'accept' }));
      expect(
        service.logs.find((line) => line.msg === 'connections lost: the listener could not accept them'),
      ).toMatchObject({ level: 40, code: 'EMFILE', count: 1 });
      expect((await request(service.url, '/ready')).status).toBe(200);
      expect((await request(service.url, '/api/v2/gitops/clusters', { token: READ_TOKEN })).status).toBe(200);
    },
  );
});

describe('timeouts', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({
      ...crud,
      HTTP_HEADER_TIMEOUT: '300ms',
      HTTP_REQUEST_TIMEOUT: '1s',
      HTTP_KEEPALIVE_TIMEOUT: '300ms',
    });
  });
  afterAll(() => service?.close());

  it('closes a connection that sends nothing after HTTP_HEADER_TIMEOUT, with 408', async () => {
    const connection = await RawConnection.open(service.url);
    const opened = Date.now();
    const answer = await within(connection.next(), 3000, 'an answer to the silent connection');
    expect(answer.status).toBe(408);
    expect(answer.json()).toEqual({ error: 'request_timeout', message: 'the request did not arrive in time' });
    const closedAt = await within(connection.closed, 3000, 'the silent connection is closed');
    expect(closedAt - opened).toBeGreaterThanOrEqual(290);
  });

  it('closes a connection that sends its headers a line at a time after HTTP_HEADER_TIMEOUT', async () => {
    const connection = await RawConnection.open(service.url);
    const opened = Date.now();
    await connection.write('GET /health HTTP/1.1\r\nHost: x\r\n');
    trickle(connection, 'X-Slow: y\r\n', 50);
    expect((await within(connection.next(), 3000, 'an answer to the slow headers')).status).toBe(408);
    expect((await within(connection.closed, 3000, 'the slow connection is closed')) - opened).toBeGreaterThanOrEqual(
      290,
    );
  });

  it('closes a write whose body comes slowly after HTTP_REQUEST_TIMEOUT, with 408, and stores nothing', async () => {
    const connection = await RawConnection.open(service.url);
    const started = Date.now();
    await connection.write(
      `PATCH /namespaces/team-a HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${WRITE_TOKEN}\r\nContent-Type: ` +
        `application/json\r\nContent-Length: 1000\r\n\r\n{"labels": {"slow": "`,
    );
    trickle(connection, 'x', 50);
    const answer = await within(connection.next(), 4000, 'an answer to the slow body');
    expect(answer.status).toBe(408);
    expect(
      (await within(connection.closed, 3000, "the slow body's connection is closed")) - started,
    ).toBeGreaterThanOrEqual(990);
    const stored = await request(service.url, '/namespaces/team-a', { token: WRITE_TOKEN });
    expect(stored.json().labels).not.toHaveProperty('slow');
  });

  it('closes an idle connection after HTTP_KEEPALIVE_TIMEOUT', async () => {
    const connection = await RawConnection.open(service.url);
    await connection.write(HEALTH);
    const answered = (await connection.next()).receivedAt;
    // Node keeps the socket a second past the advertised timeout, so that a client sending
    // right at the timeout does not meet a connection being closed.
    expect((await within(connection.closed, 4000, 'the idle connection is closed')) - answered).toBeGreaterThanOrEqual(
      290,
    );
  });

  it('keeps a request whose headers and body arrive in time', async () => {
    const connection = await RawConnection.open(service.url);
    const body = '{"labels": {"team": "a"}}';
    await connection.write(
      `PATCH /namespaces/team-a HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${WRITE_TOKEN}\r\nContent-Type: ` +
        `application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    const answer = await connection.next();
    expect(answer.status).toBe(200);
    // The body was read whole: the connection stays for a next request.
    expect(answer.headers.connection).toBe('keep-alive');
    await connection.write(HEALTH);
    expect((await connection.next()).status).toBe(200);
    connection.socket.destroy();
  });
});

describe('a request answered before its body arrived', () => {
  let service: TestService;
  beforeAll(async () => {
    // The default timeouts: the connection must close because of the answer, not a timeout.
    service = await startTestService(crud);
  });
  afterAll(() => service?.close());

  it('gets its 401, and its connection is closed at once rather than after the whole body', async () => {
    const connection = await RawConnection.open(service.url);
    await connection.write(
      `POST /namespaces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ` +
        `10000000\r\n\r\n{"id": "team-z", "x": "`,
    );
    trickle(connection, 'x'.repeat(100), 50);
    const answer = await within(connection.next(), 3000, 'the 401');
    expect(answer.status).toBe(401);
    expect(answer.json().error).toBe('unauthorized');
    expect(answer.headers.connection).toBe('close');
    expect((await within(connection.closed, 2000, 'the connection is closed')) - answer.receivedAt).toBeLessThan(2000);
  });

  it('a 404 for a body sent to the read path closes the same way', async () => {
    const connection = await RawConnection.open(service.url);
    await connection.write(
      'PUT /nowhere HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: ' +
        'chunked\r\n\r\n10\r\n{"a": "01234567\r\n',
    );
    trickle(connection, '1\r\nx\r\n', 50);
    const answer = await within(connection.next(), 3000, 'the 404');
    expect(answer.status).toBe(404);
    expect(answer.headers.connection).toBe('close');
    await within(connection.closed, 2000, 'the connection is closed');
  });

  it('advertises the default keep-alive timeout, 65 s', async () => {
    const res = await request(service.url, '/health');
    expect(res.headers['keep-alive']).toBe('timeout=65');
  });
});
