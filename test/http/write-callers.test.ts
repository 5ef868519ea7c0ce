// Every kind of caller on each kind of write — a REST write, a change set, a change set's
// preview — on one service in crud mode with a real OIDC issuer on loopback and cluster
// tokens. The contract gives a missing or invalid token 401, and the shared read token
// (AUTH_TOKEN) on a write keeps that 401, with `WWW-Authenticate: Bearer
// error="insufficient_scope"` and a message saying it may read but not write; a cluster
// credential and a person outside the write groups get 403; the write token and a person in
// a write group write. The web UI signs out on a 401 only when it refuses the token itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signClusterToken } from '../../src/domain/cluster-token.ts';
import { INSUFFICIENT_SCOPE, WWW_AUTHENTICATE } from '../../src/http/errors.ts';
import { tokenRefused } from '../../ui/src/api/client.ts';
import { type CrudService, send, startCrud } from '../helpers/crud.ts';
import { type RawResponse, request } from '../helpers/http.ts';
import { expectMatchesOpenApi } from '../helpers/openapi.ts';
import { AUDIENCE, type OidcIssuer, startOidcIssuer } from '../helpers/oidc-issuer.ts';
import { parsePrometheusText } from '../helpers/prometheus-text.ts';
import { READ_TOKEN, WRITE_TOKEN } from '../helpers/service.ts';

const KEY = 'write-callers-cluster-token-key-0123456789';
const CHANGES = '/api/v2/gitops/changes';
const PREVIEW = `${CHANGES}/preview`;

type Kind = 'rest write' | 'change set' | 'preview';

interface Write {
  /** Sends it with `token` (none when undefined); `by` goes into the label it sets. */
  send: (service: CrudService, by: string, token?: string) => Promise<RawResponse>;
  /** The path it is documented under in openapi/openapi.yaml. */
  template: string;
  /** Its status when it is made. */
  ok: number;
}

const WRITES: Record<Kind, Write> = {
  'rest write': {
    send: (service, by, token) => sendAs(service, 'PATCH', '/namespaces/team-b', { labels: { by } }, token),
    template: '/namespaces/{id}',
    ok: 200,
  },
  'change set': {
    send: (service, by, token) => sendAs(service, 'POST', CHANGES, changeSet(by), token),
    template: CHANGES,
    ok: 201,
  },
  preview: {
    send: (service, by, token) => sendAs(service, 'POST', PREVIEW, changeSet(by), token),
    template: PREVIEW,
    ok: 200,
  },
};

function changeSet(by: string): unknown {
  const write = { op: 'patch', collection: 'namespaces', id: 'team-b', patch: { labels: { by } } };
  return { message: `labelled by ${by}`, writes: [write] };
}

/** `send` with exactly this credential: none when `token` is undefined. */
function sendAs(service: CrudService, method: string, path: string, body: unknown, token?: string) {
  if (token !== undefined) return send(service, method, path, body, { token });
  const headers = { 'content-type': 'application/json' };
  return request(service.url, path, { method, headers, body: JSON.stringify(body) });
}

describe('each kind of caller on each kind of write', () => {
  let issuer: OidcIssuer;
  let service: CrudService;
  /** The credential of each kind of caller; undefined: none. */
  let callers: Record<string, string | undefined>;

  beforeAll(async () => {
    issuer = await startOidcIssuer();
    service = await startCrud('git', {
      OIDC_ISSUER_URL: issuer.url,
      OIDC_AUDIENCE: AUDIENCE,
      OIDC_READ_GROUPS: 'platform-readers',
      OIDC_WRITE_GROUPS: 'platform-admins',
      CLUSTER_TOKEN_KEYS: KEY,
    });
    callers = {
      'no credential': undefined,
      'read token': READ_TOKEN,
      'write token': WRITE_TOKEN,
      'cluster token': signClusterToken(Buffer.from(KEY), 'c1', 0),
      'person reader': await issuer.sign({
        sub: 'user-bob',
        name: 'Bob Reader',
        email: 'bob@example.com',
        groups: ['platform-readers'],
      }),
      'person writer': await issuer.sign({ groups: ['platform-admins'] }),
    };
  });
  afterAll(async () => {
    await service?.close();
    await issuer?.close();
  });

  /** What each refused caller gets: the status, the error code, the challenge, the message. */
  const REFUSALS: Record<string, { status: number; error: string; challenge: string | undefined; message: RegExp }> = {
    'no credential': {
      status: 401,
      error: 'unauthorized',
      challenge: WWW_AUTHENTICATE,
      message: /^an Authorization header is required/,
    },
    'read token': {
      status: 401,
      error: 'unauthorized',
      challenge: INSUFFICIENT_SCOPE,
      message: /^the read token \(AUTH_TOKEN\) may read but not write; writes need the write token \(CRUD_AUTH_TOKEN\)/,
    },
    'cluster token': {
      status: 403,
      error: 'forbidden',
      challenge: undefined,
      message: /^this cluster token reads only cluster "c1"'s three endpoints/,
    },
    'person reader': {
      status: 403,
      error: 'forbidden',
      challenge: undefined,
      message: /^the token of Bob Reader may read but not write; writes need membership of a group in OIDC_WRITE_/,
    },
  };

  for (const kind of Object.keys(WRITES) as Kind[]) {
    describe(kind, () => {
      for (const [caller, expected] of Object.entries(REFUSALS)) {
        it(`${caller}: ${expected.status} ${expected.error}`, async () => {
          const write = WRITES[kind];
          const res = await write.send(service, caller, callers[caller]);
          expect(res.status, res.text).toBe(expected.status);
          expect(res.json().error).toBe(expected.error);
          expect(res.json().message).toMatch(expected.message);
          expect(res.headers['www-authenticate']).toBe(expected.challenge);
          await expectMatchesOpenApi(kind === 'rest write' ? 'PATCH' : 'POST', write.template, res.status, res.json());
        });
      }
      for (const caller of ['write token', 'person writer']) {
        it(`${caller}: ${WRITES[kind].ok}`, async () => {
          const res = await WRITES[kind].send(service, caller.replace(' ', '-'), callers[caller]);
          expect(res.status, res.text).toBe(WRITES[kind].ok);
        });
      }
    });
  }

  it('the read token refused a write still reads, as a reader person does: the 401 is for the write', async () => {
    for (const caller of ['read token', 'person reader']) {
      const res = await request(service.url, '/namespaces/team-b', { token: callers[caller] });
      expect(res.status, caller).toBe(200);
    }
  });

  it('the read token as the password of Basic gets the same 401 on a write', async () => {
    const basic = `Basic ${Buffer.from(`flux:${READ_TOKEN}`).toString('base64')}`;
    const res = await request(service.url, '/namespaces/team-b', {
      method: 'DELETE',
      headers: { authorization: basic },
    });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe(INSUFFICIENT_SCOPE);
  });

  it("counts the read token's refused write under its own kind (service), not as anonymous", async () => {
    const count = async (labels: Record<string, string>): Promise<number> => {
      const families = parsePrometheusText((await request(service.url, '/metrics')).text);
      const samples = families.get('gitops_config_http_requests_total')?.samples ?? [];
      const matching = samples.filter((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v));
      return matching.reduce((sum, s) => sum + s.value, 0);
    };
    const labels = { method: 'PATCH', code: '401' };
    const before = {
      service: await count({ ...labels, caller: 'service' }),
      anonymous: await count({ ...labels, caller: 'anonymous' }),
    };
    await WRITES['rest write'].send(service, 'counted', READ_TOKEN);
    await WRITES['rest write'].send(service, 'counted', undefined);
    expect(await count({ ...labels, caller: 'service' })).toBe(before.service + 1);
    expect(await count({ ...labels, caller: 'anonymous' })).toBe(before.anonymous + 1);
  });

  it("the web UI signs out on a 401 that refuses the token, not on the read token's write", async () => {
    const refusedToken = await request(service.url, '/namespaces/team-b', { method: 'DELETE', token: 'not-a-token' });
    const readTokenWrite = await WRITES.preview.send(service, 'ui', READ_TOKEN);
    expect(refusedToken.status).toBe(401);
    expect(tokenRefused(refusedToken.status, refusedToken.headers['www-authenticate'] ?? null)).toBe(true);
    expect(readTokenWrite.status).toBe(401);
    expect(tokenRefused(readTokenWrite.status, readTokenWrite.headers['www-authenticate'] ?? null)).toBe(false);
    expect(tokenRefused(403, null)).toBe(false);
  });
});
