// The pieces that turn a broken request into a JSON error: the nesting check on parsed
// bodies, the mapping of Node's HTTP parser errors, and the raw response written for them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromClientError } from '../../src/http/error-mapping.ts';
import { ApiError, rawErrorResponse } from '../../src/http/errors.ts';
import { MAX_BODY_DEPTH, nestedDeeperThan } from '../../src/http/rest/json-body.ts';
import { asSeedFile } from '../helpers/fixture-data.ts';
import { RawConnection } from '../helpers/raw-connection.ts';
import { READ_TOKEN, startTestService, type TestService } from '../helpers/service.ts';

describe('body nesting', () => {
  const arrays = (depth: number): unknown => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);
  const objects = (depth: number): unknown => JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);

  it('counts arrays and objects alike; scalars are no level', () => {
    expect(MAX_BODY_DEPTH).toBe(32);
    for (const make of [arrays, objects]) {
      expect(nestedDeeperThan(make(32), 32)).toBe(false);
      expect(nestedDeeperThan(make(33), 32)).toBe(true);
    }
    expect(nestedDeeperThan('text', 0)).toBe(false);
    expect(nestedDeeperThan({ a: [{ b: [1] }], c: { d: 'e' } }, 4)).toBe(false);
    expect(nestedDeeperThan({ a: [{ b: [1] }], c: { d: 'e' } }, 3)).toBe(true);
  });

  it('finds a deep branch beside shallow ones, and copes with a value 100,000 levels deep', () => {
    expect(nestedDeeperThan({ wide: Array.from({ length: 1000 }, () => ({})), deep: arrays(40) }, 32)).toBe(true);
    expect(nestedDeeperThan(arrays(100_000), 32)).toBe(true);
  });
});

describe('errors of the HTTP parser', () => {
  const parserError = (code: string, reason = 'why') =>
    Object.assign(new Error(`Parse Error: ${reason}`), { code, reason });

  it.each([
    ['HPE_HEADER_OVERFLOW', 431, 'headers_too_large'],
    ['HPE_INVALID_CHUNK_SIZE', 400, 'bad_request'],
    ['HPE_INVALID_METHOD', 400, 'bad_request'],
    ['HPE_CHUNK_EXTENSIONS_OVERFLOW', 413, 'payload_too_large'],
    ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'request_timeout'],
  ])('%s is %i %s', (code, status, error) => {
    const apiError = fromClientError(parserError(code));
    expect(apiError.status).toBe(status);
    expect(apiError.code).toBe(error);
  });

  it("names a malformed chunked body and the parser's reason", () => {
    expect(fromClientError(parserError('HPE_INVALID_CHUNK_SIZE', 'Invalid character in chunk size')).message).toBe(
      'the request is not valid HTTP/1.1 (a malformed chunked body): Invalid character in chunk size',
    );
  });

  it('is written as a whole HTTP/1.1 response with a JSON body that closes the connection', () => {
    const bytes = rawErrorResponse(new ApiError('headers_too_large', 'the headers are too large ✗')).toString('utf8');
    const [head, body] = bytes.split('\r\n\r\n');
    const lines = head.split('\r\n');
    expect(lines[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(lines).toContain('content-type: application/json; charset=utf-8');
    expect(lines).toContain('connection: close');
    expect(lines).toContain(`content-length: ${Buffer.byteLength(body)}`);
    expect(JSON.parse(body)).toEqual({ error: 'headers_too_large', message: 'the headers are too large ✗' });
  });
});

describe('requests the HTTP parser refuses, on the real server', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ STORE_BACKEND: 'memory', SEED_FILE: asSeedFile() });
  });
  afterAll(() => service?.close());

  it('answers a request whole before the error for the bytes that follow it, then closes', async () => {
    // What a client sends when it puts a body on a GET without Content-Length: the body is
    // read as the start of a next request.
    const connection = await RawConnection.open(service.url);
    await connection.write(
      `GET /api/v2/gitops/clusters HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${READ_TOKEN}\r\n\r\n{"ref": "main"}`,
    );
    const first = await connection.next();
    expect(first.status).toBe(200);
    expect(first.json().inputs.length).toBeGreaterThan(0);
    const refused = await connection.next();
    expect(refused.status).toBe(400);
    expect(refused.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(refused.headers.connection).toBe('close');
    expect(refused.json()).toEqual({
      error: 'bad_request',
      message: 'the request is not valid HTTP/1.1: Invalid method encountered',
    });
    await connection.closed;
  });

  it('answers headers over 16 KiB on the read path with 431 and a JSON body', async () => {
    const connection = await RawConnection.open(service.url);
    await connection.write(
      `GET /api/v2/gitops/clusters HTTP/1.1\r\nHost: x\r\nX-Filler: ${'f'.repeat(20_000)}\r\n\r\n`,
    );
    const answer = await connection.next();
    expect(answer.status).toBe(431);
    expect(answer.json()).toEqual({
      error: 'headers_too_large',
      message: 'the request headers are larger than the limit of 16384 bytes',
    });
    await connection.closed;
    const log = service.logs.find(
      (line) => line.msg === 'request refused by the HTTP parser' && line.error === 'headers_too_large',
    );
    expect(log).toMatchObject({ level: 40, status: 431, parser: 'HPE_HEADER_OVERFLOW' });
  });

  it.each([
    ['a probe', '/health'],
    ['the read path', '/api/v2/gitops/clusters'],
  ])('answers an HTTP/1.1 request without Host (%s) with 400 and a JSON body, then closes', async (_name, path) => {
    const connection = await RawConnection.open(service.url);
    await connection.write(`GET ${path} HTTP/1.1\r\nAuthorization: Bearer ${READ_TOKEN}\r\n\r\n`);
    const answer = await connection.next();
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers.connection).toBe('close');
    expect(answer.json()).toEqual({
      error: 'bad_request',
      message: 'the request has no Host header; HTTP/1.1 requires one',
    });
    await connection.closed;
    expect(
      service.logs.find((line) => line.msg === 'request refused: no Host header' && line.path === path),
    ).toMatchObject({ level: 40 });
  });

  it('serves an HTTP/1.0 request without Host, which HTTP/1.0 does not require', async () => {
    const connection = await RawConnection.open(service.url);
    await connection.write('GET /health HTTP/1.0\r\n\r\n');
    expect((await connection.next()).status).toBe(200);
    await connection.closed;
  });
});
