// GET /api/v2/gitops/whoami on the real server for every kind of caller (the read and the
// write token, a cluster token, a person's token through the PersonVerifier port and from a
// real OIDC issuer on loopback), 401 without a credential; and the Authenticator's promises: service and cluster
// credentials are
// answered without one (the read path stays synchronous), a person's token with one, whose
// typed errors become 401 and 503.
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signClusterToken } from '../../src/domain/cluster-token.ts';
import { createSnapshot } from '../../src/domain/snapshot.ts';
import { Authenticator } from '../../src/http/auth/authenticator.ts';
import { type Caller, IssuerUnavailable, type PersonVerifier, PersonTokenInvalid } from '../../src/http/auth/caller.ts';
import { ClusterTokens } from '../../src/http/auth/cluster-tokens.ts';
import { toApiError } from '../../src/http/error-mapping.ts';
import { CRUD_DATA } from '../helpers/crud.ts';
import { asSeedFile } from '../helpers/fixture-data.ts';
import { request } from '../helpers/http.ts';
import { AUDIENCE, startOidcIssuer } from '../helpers/oidc-issuer.ts';
import { expectMatchesOpenApi } from '../helpers/openapi.ts';
import { READ_TOKEN, startTestService, type TestService, WRITE_TOKEN } from '../helpers/service.ts';

const KEY = 'whoami-cluster-token-key-0123456789abcdef';
const WHOAMI = '/api/v2/gitops/whoami';
// Three base64url segments: the shape the Authenticator hands to the person verifier.
const ALICE_JWT = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl';
const EXPIRED_JWT = 'eyJhbGciOiJFUzI1NiJ9.eyJleHAiOjF9.c2lnbmF0dXJl';
const ISSUER_DOWN_JWT = 'eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJkb3duIn0.c2lnbmF0dXJl';

/** The port as the OIDC module implements it, for three fixed tokens. */
const persons: PersonVerifier = {
  async verify(token) {
    if (token === ALICE_JWT)
      return { kind: 'person', name: 'Alice Example', email: 'alice@example.com', roles: new Set(['read', 'write']) };
    if (token === ISSUER_DOWN_JWT)
      throw new IssuerUnavailable('the OIDC issuer https://issuer.example.com is unavailable: connection refused');
    throw new PersonTokenInvalid('the person token is not valid: it has expired');
  },
};

let service: TestService;
beforeAll(async () => {
  service = await startTestService(
    {
      STORE_BACKEND: 'memory',
      SEED_FILE: asSeedFile(),
      API_MODE: 'crud',
      CRUD_AUTH_TOKEN: WRITE_TOKEN,
      CLUSTER_TOKEN_KEYS: KEY,
    },
    { persons },
  );
});
afterAll(() => service?.close());

describe('GET /api/v2/gitops/whoami', () => {
  it.each([
    [
      'the read token',
      READ_TOKEN,
      { kind: 'service', name: 'read-token', email: null, roles: ['read'], clusters: null },
    ],
    [
      'the write token',
      WRITE_TOKEN,
      { kind: 'service', name: 'write-token', email: null, roles: ['read', 'write'], clusters: null },
    ],
    [
      'a cluster token',
      signClusterToken(Buffer.from(KEY), 'c0', 0),
      { kind: 'cluster', name: 'c0', email: null, roles: ['read'], clusters: ['c0'] },
    ],
    [
      "a person's token",
      ALICE_JWT,
      { kind: 'person', name: 'Alice Example', email: 'alice@example.com', roles: ['read', 'write'], clusters: null },
    ],
  ])('answers who %s is', async (_what, token, expected) => {
    const res = await request(service.url, WHOAMI, { token });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual(expected);
    await expectMatchesOpenApi('get', WHOAMI, 200, res.json());
  });

  it(
    'is 401 without a valid credential, with the challenge; ' + '503 naming the issuer when it cannot be reached',
    async () => {
      for (const token of [undefined, 'wrong', EXPIRED_JWT]) {
        const res = await request(service.url, WHOAMI, token === undefined ? {} : { token });
        expect(res.status, String(token)).toBe(401);
        expect(res.headers['www-authenticate']).toContain('Bearer');
        await expectMatchesOpenApi('get', WHOAMI, 401, res.json());
      }
      expect((await request(service.url, WHOAMI, { token: EXPIRED_JWT })).json().message).toBe(
        'the person token is not valid: it has expired',
      );
      const down = await request(service.url, WHOAMI, { token: ISSUER_DOWN_JWT });
      expect(down.status).toBe(503);
      expect(down.json()).toMatchObject({
        error: 'unavailable',
        message: expect.stringContaining('https://issuer.example.com'),
      });
      // A poll with such a token is answered the same way, after the verifier's promise.
      expect(
        (
          await request(service.url, '/api/v2/gitops/clusters/c1.k8s.example.com/namespaces', {
            token: ISSUER_DOWN_JWT,
          })
        ).status,
      ).toBe(503);
      expect(
        (await request(service.url, '/api/v2/gitops/clusters/c1.k8s.example.com/namespaces', { token: ALICE_JWT }))
          .status,
      ).toBe(200);
    },
  );

  it('answers GET and HEAD only', async () => {
    const res = await request(service.url, WHOAMI, { method: 'POST', token: READ_TOKEN });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });
});

describe('GET /api/v2/gitops/whoami with a real OIDC issuer', () => {
  it("answers a person with the name, e-mail and roles of their issuer's token", async () => {
    const issuer = await startOidcIssuer();
    const oidc = await startTestService({
      STORE_BACKEND: 'memory',
      SEED_FILE: asSeedFile(),
      OIDC_ISSUER_URL: issuer.url,
      OIDC_AUDIENCE: AUDIENCE,
      OIDC_READ_GROUPS: 'developers',
      OIDC_WRITE_GROUPS: 'platform-admins',
    });
    try {
      const admin = await request(oidc.url, WHOAMI, { token: await issuer.sign({ groups: ['platform-admins'] }) });
      expect(admin.status, admin.text).toBe(200);
      expect(admin.json()).toEqual({
        kind: 'person',
        name: 'Alice Admin',
        email: 'alice@example.com',
        roles: ['read', 'write'],
        clusters: null,
      });
      await expectMatchesOpenApi('get', WHOAMI, 200, admin.json());
      const developer = await request(oidc.url, WHOAMI, {
        token: await issuer.sign({ name: 'Dev Eloper', email: 'dev@example.com', groups: ['developers'] }),
      });
      expect(developer.json()).toEqual({
        kind: 'person',
        name: 'Dev Eloper',
        email: 'dev@example.com',
        roles: ['read'],
        clusters: null,
      });
      expect((await request(oidc.url, WHOAMI, { token: issuer.unsigned() })).status).toBe(401);
    } finally {
      await oidc.close();
      await issuer.close();
    }
  });
});

describe('the Authenticator', () => {
  const snapshot = () => {
    const built = createSnapshot(
      {
        clusters: CRUD_DATA.clusters.map((c) => ({
          credential_generation: 0,
          platform_components: [],
          namespaces: [],
          rolebindings: [],
          patches: {},
          ...c,
        })) as never,
        platform_components: [],
        namespaces: [],
        rolebindings: [],
        rollouts: [],
      },
      'r1',
    );
    if (!built.ok) throw new Error('fixture snapshot');
    return built.snapshot;
  };
  const requestWith = (authorization: string | undefined) =>
    ({ headers: authorization === undefined ? {} : { authorization }, socket: {} }) as unknown as IncomingMessage;

  it('answers service and cluster tokens without a promise, a JWT with one', async () => {
    const served = snapshot();
    const auth = new Authenticator({
      readToken: READ_TOKEN,
      writeToken: WRITE_TOKEN,
      clusterTokenKeys: [KEY],
      persons,
      currentSnapshot: () => served,
    });
    const token = signClusterToken(Buffer.from(KEY), 'c1', 0);
    for (const header of [`Bearer ${READ_TOKEN}`, `Bearer ${WRITE_TOKEN}`, `Bearer ${token}`]) {
      expect(auth.authenticate(requestWith(header)), header).not.toBeInstanceOf(Promise);
    }
    // The same caller object each time: verified once, then remembered.
    expect(auth.authenticate(requestWith(`Bearer ${token}`))).toBe(auth.authenticate(requestWith(`Bearer ${token}`)));
    const person = auth.authenticate(requestWith(`Bearer ${ALICE_JWT}`));
    expect(person).toBeInstanceOf(Promise);
    expect((await person).kind).toBe('person');
    // Without OIDC, a JWT is an unknown token.
    const withoutOidc = new Authenticator({ readToken: READ_TOKEN, currentSnapshot: () => served });
    expect(() => withoutOidc.authenticate(requestWith(`Bearer ${ALICE_JWT}`))).toThrow(/not valid/);
  });

  it("maps the verifier's errors: an invalid token 401 with the challenge, an unreachable issuer 503", () => {
    const invalid = toApiError(new PersonTokenInvalid('the person token is not valid: bad signature'));
    expect([invalid.status, invalid.code, invalid.headers['www-authenticate']]).toEqual([
      401,
      'unauthorized',
      expect.stringContaining('Bearer'),
    ]);
    const down = toApiError(
      new IssuerUnavailable('the OIDC issuer https://issuer.example.com is unavailable: timeout'),
    );
    expect([down.status, down.code, down.message]).toEqual([
      503,
      'unavailable',
      expect.stringContaining('https://issuer.example.com'),
    ]);
  });
});

describe('verified cluster tokens', () => {
  it('are remembered up to a bound, oldest first out, and checked again when the cluster record changes', () => {
    const base = createSnapshot(
      {
        clusters: ['a', 'b', 'c'].map((id) => ({
          id,
          cluster_name: id,
          cluster_dns: `${id}.example.com`,
          environment: 'dev',
          credential_generation: 0,
          receiver_url: null,
          platform_components: [],
          namespaces: [],
          rolebindings: [],
          patches: {},
        })),
        platform_components: [],
        namespaces: [],
        rolebindings: [],
        rollouts: [],
      },
      'r1',
    );
    if (!base.ok) throw new Error('fixture snapshot');
    const tokens = new ClusterTokens([KEY], 2);
    const tokenOf = (id: string, generation = 0) => signClusterToken(Buffer.from(KEY), id, generation);
    const callers: (Caller | undefined)[] = ['a', 'b', 'c'].map((id) => tokens.verify(tokenOf(id), base.snapshot));
    expect(callers.map((c) => c?.name)).toEqual(['a', 'b', 'c']);
    expect(tokens.size).toBe(2);
    // Forged tokens are never remembered.
    expect(tokens.verify(`gcc1.a.${'A'.repeat(43)}`, base.snapshot)).toBeUndefined();
    expect(tokens.size).toBe(2);

    // c's record changes (its generation is raised): its remembered token no longer passes.
    const raised = { ...base.snapshot.clusters.get('c')!, credential_generation: 1 };
    const next = { ...base.snapshot, clusters: new Map([...base.snapshot.clusters, ['c', raised]]) };
    expect(tokens.verify(tokenOf('c'), next)).toBeUndefined();
    expect(tokens.verify(tokenOf('c', 1), next)?.name).toBe('c');
  });
});
