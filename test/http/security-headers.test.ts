// X-Content-Type-Options: nosniff on every answer over plain HTTP, whichever path writes it:
// the read path (200, 304, errors), Express (probes, metrics, the API document, REST, its
// errors and 304s), requests the HTTP parser refuses, and a request without Host. No
// Strict-Transport-Security over plain HTTP (browsers ignore it there); over HTTPS see
// test/http/tls-policy.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asSeedFile } from '../helpers/fixture-data.ts';
import { request } from '../helpers/http.ts';
import { type RawAnswer, RawConnection } from '../helpers/raw-connection.ts';
import { READ_TOKEN, startTestService, type TestService, WRITE_TOKEN } from '../helpers/service.ts';

const PC = '/api/v2/gitops/clusters/c1.k8s.example.com/platform-components';

let service: TestService;
beforeAll(async () => {
  service = await startTestService({
    STORE_BACKEND: 'memory',
    SEED_FILE: asSeedFile(),
    API_MODE: 'crud',
    CRUD_AUTH_TOKEN: WRITE_TOKEN,
  });
});
afterAll(() => service?.close());

async function raw(text: string): Promise<RawAnswer> {
  const connection = await RawConnection.open(service.url);
  await connection.write(text);
  const answer = await connection.next();
  connection.socket.destroy();
  return answer;
}

describe('X-Content-Type-Options: nosniff', () => {
  const etagOf = async (path: string, token: string) =>
    (await request(service.url, path, { token })).headers.etag as string;

  const answers: [string, () => Promise<{ status: number; headers: Record<string, unknown> }>, number][] = [
    ['a poll', () => request(service.url, PC, { token: READ_TOKEN }), 200],
    [
      'a poll with gzip',
      () => request(service.url, PC, { token: READ_TOKEN, headers: { 'accept-encoding': 'gzip' } }),
      200,
    ],
    [
      'a poll answered 304',
      async () =>
        request(service.url, PC, { token: READ_TOKEN, headers: { 'if-none-match': await etagOf(PC, READ_TOKEN) } }),
      304,
    ],
    ['a HEAD poll', () => request(service.url, PC, { token: READ_TOKEN, method: 'HEAD' }), 200],
    ['the fleet listing', () => request(service.url, '/api/v2/gitops/clusters', { token: READ_TOKEN }), 200],
    ['a poll without a token', () => request(service.url, PC), 401],
    [
      'a poll of an unknown cluster',
      () => request(service.url, '/api/v2/gitops/clusters/nope.example.com/namespaces', { token: READ_TOKEN }),
      404,
    ],
    ['a POST on the read path', () => request(service.url, PC, { token: READ_TOKEN, method: 'POST' }), 405],
    ['the fleet view', () => request(service.url, '/api/v2/gitops/fleet', { token: READ_TOKEN }), 200],
    ['/health', () => request(service.url, '/health'), 200],
    ['/ready', () => request(service.url, '/ready'), 200],
    ['/metrics', () => request(service.url, '/metrics'), 200],
    ['/openapi.yaml', () => request(service.url, '/openapi.yaml'), 200],
    ['an unknown path', () => request(service.url, '/nowhere'), 404],
    ['a REST list', () => request(service.url, '/namespaces', { token: READ_TOKEN }), 200],
    [
      'a REST read answered 304',
      async () =>
        request(service.url, '/namespaces/team-a', {
          token: READ_TOKEN,
          headers: { 'if-none-match': await etagOf('/namespaces/team-a', READ_TOKEN) },
        }),
      304,
    ],
    [
      'a REST write of malformed JSON',
      () =>
        request(service.url, '/namespaces', {
          token: WRITE_TOKEN,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"id": ',
        }),
      400,
    ],
    [
      'a request the HTTP parser refuses',
      () => raw(`GET /health HTTP/1.1\r\nHost: x\r\nX-Filler: ${'f'.repeat(20_000)}\r\n\r\n`),
      431,
    ],
    ['a request without Host', () => raw('GET /health HTTP/1.1\r\n\r\n'), 400],
  ];

  it.each(answers)('on %s', async (_name, send, status) => {
    const answer = await send();
    expect(answer.status).toBe(status);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['strict-transport-security']).toBeUndefined();
  });
});
