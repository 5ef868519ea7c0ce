// Bad input on every backend: bodies that are not JSON (or not UTF-8), nested too deep, with a
// key given twice, broken on the wire, keys such as "__proto__" that a careless merge would
// drop; headers over Node's limit. Each
// gets the same status, error code and JSON body on a local Git repository, a remote one,
// SQLite and memory, and none of them stores anything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRUD_BACKENDS, type CrudService, send, startCrud } from '../../helpers/crud.ts';
import { request } from '../../helpers/http.ts';
import { RawConnection } from '../../helpers/raw-connection.ts';
import { WRITE_TOKEN } from '../../helpers/service.ts';

interface Answer {
  status: number;
  body: string;
  connection?: string;
}

interface Case {
  name: string;
  status: number;
  error: string;
  /** A word the message must hold. */
  mentions?: RegExp;
  /** The path the one entry of `details` names. */
  detailPath?: string;
  send(service: CrudService): Promise<Answer>;
}

/** A PATCH body `{"labels": [[...]]}` whose arrays and objects nest `depth` levels in all. */
function nestedBody(depth: number): string {
  return `{"labels": ${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
}

/** A REST request with the write token, its answer reduced to what must agree across backends. */
async function write(
  service: CrudService,
  method: string,
  path: string,
  body: unknown,
  headers?: Record<string, string>,
): Promise<Answer> {
  const res = await send(service, method, path, body, headers ? { headers } : {});
  return { status: res.status, body: res.text };
}

async function sendRaw(service: CrudService, text: string): Promise<Answer> {
  const connection = await RawConnection.open(service.url);
  await connection.write(text);
  const answer = await connection.next();
  await connection.closed;
  return { status: answer.status, body: answer.body, connection: answer.headers.connection };
}

const patchHead = (path: string, extra: string) =>
  `PATCH ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${WRITE_TOKEN}\r\nContent-Type: ` +
  `application/json\r\n${extra}\r\n`;

const CASES: Case[] = [
  {
    name: 'a "__proto__" label key in a merge patch',
    status: 400,
    error: 'validation_error',
    mentions: /__proto__/,
    send: (s) => write(s, 'PATCH', '/namespaces/team-a', '{"labels": {"__proto__": "x"}}'),
  },
  {
    name: 'a "__proto__" annotation key holding an object',
    status: 400,
    error: 'validation_error',
    mentions: /__proto__/,
    send: (s) => write(s, 'PATCH', '/namespaces/team-a', '{"annotations": {"__proto__": {"polluted": "yes"}}}'),
  },
  {
    name: 'a "__proto__" patch key',
    status: 400,
    error: 'validation_error',
    mentions: /__proto__/,
    send: (s) => write(s, 'PATCH', '/clusters/c1', '{"patches": {"podinfo": {"__proto__": "x"}}}'),
  },
  {
    name: 'a "__proto__" label key in a new record',
    status: 400,
    error: 'validation_error',
    mentions: /__proto__/,
    send: (s) => write(s, 'POST', '/namespaces', '{"id": "team-z", "labels": {"__proto__": "x"}}'),
  },
  {
    name: 'a "__proto__" label key in a replacement',
    status: 400,
    error: 'validation_error',
    mentions: /__proto__/,
    send: (s) => write(s, 'PUT', '/namespaces/team-a', '{"labels": {"team": "a", "__proto__": "x"}}'),
  },
  {
    name: 'a body nested 3,000 levels deep',
    status: 400,
    error: 'bad_request',
    mentions: /32 levels/,
    send: (s) => write(s, 'PATCH', '/namespaces/team-a', nestedBody(3000)),
  },
  {
    name: 'a body nested 33 levels deep',
    status: 400,
    error: 'bad_request',
    mentions: /32 levels/,
    send: (s) => write(s, 'PATCH', '/namespaces/team-a', nestedBody(33)),
  },
  {
    name: 'a body nested 32 levels deep (read, then refused as a record)',
    status: 400,
    error: 'validation_error',
    send: (s) => write(s, 'PATCH', '/namespaces/team-a', nestedBody(32)),
  },
  {
    name: 'a new record nested 3,000 levels deep',
    status: 400,
    error: 'bad_request',
    mentions: /32 levels/,
    send: (s) =>
      write(
        s,
        'POST',
        '/namespaces',
        `{"id": "team-z", "annotations": ${'{"a": '.repeat(3000)}"x"${'}'.repeat(3000)}}`,
      ),
  },
  {
    name: 'a key given twice in a new record (JSON.parse would keep the last)',
    status: 400,
    error: 'bad_request',
    mentions: /the key "id" twice/,
    detailPath: '/id',
    send: (s) => write(s, 'POST', '/namespaces', '{"id": "team-y", "id": "team-z"}'),
  },
  {
    name: 'a key given twice in a merge patch, once spelled with an escape',
    status: 400,
    error: 'bad_request',
    mentions: /the key "team" twice/,
    detailPath: '/labels/team',
    send: (s) => write(s, 'PATCH', '/namespaces/team-a', '{"labels": {"team": "a", "t\\u0065am": "b"}}'),
  },
  {
    name: "a key given twice deep in a cluster's patches",
    status: 400,
    error: 'bad_request',
    mentions: /the key "replicaCount" twice/,
    detailPath: '/patches/podinfo/replicaCount',
    send: (s) =>
      write(s, 'PATCH', '/clusters/c1', '{"patches": {"podinfo": {"replicaCount": "2", "replicaCount": "3"}}}'),
  },
  {
    name: 'a key given twice in a replacement',
    status: 400,
    error: 'bad_request',
    mentions: /the key "labels" twice/,
    detailPath: '/labels',
    send: (s) => write(s, 'PUT', '/namespaces/team-a', '{"labels": {}, "labels": {"team": "b"}}'),
  },
  {
    name: 'a JSON body in UTF-16',
    status: 415,
    error: 'unsupported_media_type',
    mentions: /UTF-8/,
    send: (s) =>
      write(s, 'PATCH', '/namespaces/team-a', Buffer.from('{"labels": {"team": "b"}}', 'utf16le'), {
        'content-type': 'application/json; charset=utf-16le',
      }),
  },
  {
    name: 'malformed JSON',
    status: 400,
    error: 'bad_request',
    mentions: /not valid JSON/,
    send: (s) => write(s, 'PATCH', '/namespaces/team-a', '{"labels": {"team": '),
  },
  {
    name: 'a JSON body that is not valid UTF-8 (refused, never stored with replacement characters)',
    status: 400,
    error: 'bad_request',
    mentions: /not valid UTF-8/,
    send: (s) =>
      write(
        s,
        'PATCH',
        '/namespaces/team-a',
        Buffer.from([...Buffer.from('{"labels": {"team": "'), 0xff, 0xfe, ...Buffer.from('"}}')]),
      ),
  },
  {
    name: 'a JSON body that is a string, not an object',
    status: 400,
    error: 'bad_request',
    mentions: /object or an array/,
    send: (s) => write(s, 'PATCH', '/namespaces/team-a', ' "labels"'),
  },
  {
    name: 'a JSON body of whitespace only',
    status: 400,
    error: 'bad_request',
    mentions: /not valid JSON/,
    send: (s) => write(s, 'PATCH', '/namespaces/team-a', ' \n '),
  },
  {
    name: 'a malformed chunked body',
    status: 400,
    error: 'bad_request',
    mentions: /chunked/,
    send: (s) => sendRaw(s, `${patchHead('/namespaces/team-a', 'Transfer-Encoding: chunked\r\n')}5\r\n{"lab\r\nzz\r\n`),
  },
  {
    name: 'request headers of 20 KB',
    status: 431,
    error: 'headers_too_large',
    mentions: /16384 bytes/,
    send: (s) =>
      sendRaw(s, `${patchHead('/namespaces/team-a', `X-Filler: ${'f'.repeat(20_000)}\r\nContent-Length: 2\r\n`)}{}`),
  },
  {
    name: 'a body over MAX_BODY_SIZE',
    status: 413,
    error: 'payload_too_large',
    send: (s) => write(s, 'PATCH', '/namespaces/team-a', { labels: { big: 'x'.repeat(70 * 1024) } }),
  },
  {
    name: 'a body that is not JSON',
    status: 415,
    error: 'unsupported_media_type',
    send: (s) => write(s, 'PATCH', '/namespaces/team-a', 'labels=x', { 'content-type': 'text/plain' }),
  },
];

/** Every answer, per backend, to compare them afterwards. */
const answers = new Map<string, Map<string, Answer>>();

describe.each(CRUD_BACKENDS)('bad input on the %s backend', (backend) => {
  let service: CrudService;
  const seen = new Map<string, Answer>();
  answers.set(backend, seen);

  beforeAll(async () => {
    service = await startCrud(backend, { MAX_BODY_SIZE: '64kb' });
  });
  afterAll(async () => {
    await service?.close();
  });

  /** What a refused write must leave as it was: the records it aimed at, and the revision. */
  async function stored(): Promise<string[]> {
    const paths = ['/namespaces/team-a', '/clusters/c1', '/namespaces/team-z'];
    const reads = await Promise.all(paths.map((path) => send(service, 'GET', path)));
    const ready = (await request(service.url, '/ready')).json();
    return [...reads.map((r) => `${r.status} ${r.text}`), ready.revision];
  }

  it.each(CASES.map((c) => [c.name, c] as const))(
    '%s: refused with a JSON error, nothing stored',
    async (_name, testCase) => {
      const before = await stored();
      const answer = await testCase.send(service);
      seen.set(testCase.name, answer);

      expect(answer.status, answer.body).toBe(testCase.status);
      const body = JSON.parse(answer.body) as Record<string, unknown>;
      expect(body.error).toBe(testCase.error);
      expect(typeof body.message).toBe('string');
      expect(Object.keys(body).filter((k) => k !== 'details')).toEqual(['error', 'message']);
      if (testCase.mentions) expect(body.message).toMatch(testCase.mentions);
      if (testCase.detailPath !== undefined)
        expect(body.details).toEqual([{ path: testCase.detailPath, message: expect.any(String) }]);
      if (testCase.error === 'validation_error' && testCase.mentions) {
        expect(body.details).toEqual(
          expect.arrayContaining([expect.objectContaining({ path: expect.stringMatching(testCase.mentions) })]),
        );
      }
      // Refused by the HTTP parser: the rest of what the client sent cannot be trusted.
      if (answer.connection !== undefined) expect(answer.connection).toBe('close');

      expect(await stored()).toEqual(before);
      // The service is still well: the connection it closed was that client's only.
      expect((await send(service, 'GET', '/namespaces/team-a')).status).toBe(200);
    },
  );
});

describe('bad input on every backend', () => {
  it('gives byte-for-byte the same answers', () => {
    const [first, ...others] = CRUD_BACKENDS;
    const reference = answers.get(first)!;
    expect(reference.size).toBe(CASES.length);
    for (const backend of others) {
      for (const testCase of CASES) {
        expect(answers.get(backend)!.get(testCase.name), `${backend}: ${testCase.name}`).toEqual(
          reference.get(testCase.name),
        );
      }
    }
  });
});
