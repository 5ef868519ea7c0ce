// People signing in through an OIDC issuer (a real one on loopback, test/helpers/oidc-issuer.ts),
// on the real server: a writer's write is authored by the person on every backend (the commit
// on git and git-remote, the audit row on sqlite, the audit line everywhere), a reader may
// read but not write, forged and stale tokens are refused, and keys the issuer rotates are
// picked up without a restart.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLines, CRUD_BACKENDS, type CrudService, gitOut, send, startCrud } from '../../helpers/crud.ts';
import { request } from '../../helpers/http.ts';
import { AUDIENCE, JWKS_PATH, type OidcIssuer, startOidcIssuer } from '../../helpers/oidc-issuer.ts';
import { READ_TOKEN, WRITE_TOKEN } from '../../helpers/service.ts';

const PC = '/api/v2/gitops/clusters/c1.k8s.example.com/platform-components';
const SERVICE_IDENT = 'gitops-config-api <gitops-config-api@localhost>';

let issuer: OidcIssuer;
beforeAll(async () => {
  issuer = await startOidcIssuer();
});
afterAll(() => issuer?.close());

function oidcEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    OIDC_ISSUER_URL: issuer.url,
    OIDC_AUDIENCE: AUDIENCE,
    OIDC_READ_GROUPS: 'platform-readers',
    OIDC_WRITE_GROUPS: 'platform-admins',
    ...extra,
  };
}

const writer = () => issuer.sign({ groups: ['platform-admins', 'everyone'] });
const reader = () =>
  issuer.sign({ sub: 'user-bob', name: 'Bob Reader', email: 'bob@example.com', groups: ['platform-readers'] });

/** Rows of the database file, read as a person with the sqlite3 shell would. */
function auditRows(path: string, where: string): unknown[] {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(`SELECT token_role, caller_kind, caller_name, caller_email FROM audit_log WHERE ${where} ORDER BY seq`)
      .all();
  } finally {
    db.close();
  }
}

/** The newest commit's author and committer, as `git log` shows them. */
const lastCommitIdents = (gitDirArgs: string[]) =>
  gitOut(process.cwd(), ...gitDirArgs, 'log', '-1', '--format=%an <%ae>|%cn <%ce>');

describe.each(CRUD_BACKENDS)('a person writes on the %s backend', (backend) => {
  let service: CrudService;
  beforeAll(async () => {
    service = await startCrud(backend, oidcEnv());
  });
  afterAll(() => service?.close());

  /** The git directory the newest commit is read from: the working tree, or the remote's bare repository. */
  const gitDir = (): string[] | undefined => {
    if (backend === 'git') return ['-C', service.dir!];
    if (backend === 'git-remote')
      return ['--git-dir', service.prepared.remote!.server.path(service.prepared.remote!.name)];
    return undefined;
  };

  it("a writer's create is authored by the person and committed by the service; the audit names them", async () => {
    const res = await send(
      service,
      'POST',
      '/namespaces',
      { id: 'team-alice', labels: { team: 'alice' } },
      { token: await writer() },
    );
    expect(res.status, res.text).toBe(201);
    const where = gitDir();
    if (where) expect(lastCommitIdents(where)).toBe(`Alice Admin <alice@example.com>|${SERVICE_IDENT}`);
    if (backend === 'sqlite') {
      expect(auditRows(service.prepared.dbPath!, "record_id = 'team-alice'")).toEqual([
        { token_role: 'write', caller_kind: 'person', caller_name: 'Alice Admin', caller_email: 'alice@example.com' },
      ]);
    }
    const audit = auditLines(service).find((line) => line.id === 'team-alice');
    expect(audit).toMatchObject({
      action: 'create',
      role: 'write',
      caller_kind: 'person',
      caller_name: 'Alice Admin',
      caller_email: 'alice@example.com',
    });
  });

  it("a write with the service's write token keeps the service as author", async () => {
    const res = await send(service, 'PATCH', '/namespaces/team-b', { labels: { by: 'pipeline' } });
    expect(res.status, res.text).toBe(200);
    const where = gitDir();
    if (where) expect(lastCommitIdents(where)).toBe(`${SERVICE_IDENT}|${SERVICE_IDENT}`);
    if (backend === 'sqlite') {
      expect(auditRows(service.prepared.dbPath!, "record_id = 'team-b'")).toEqual([
        { token_role: 'write', caller_kind: 'service', caller_name: 'write-token', caller_email: null },
      ]);
    }
    expect(auditLines(service).find((line) => line.id === 'team-b')).toMatchObject({
      caller_kind: 'service',
      caller_name: 'write-token',
    });
  });

  it('never logs a person token', async () => {
    const token = await writer();
    await send(service, 'PATCH', '/namespaces/team-alice', { labels: { team: 'alice', again: 'yes' } }, { token });
    expect(service.logText()).not.toContain(token.split('.')[2]);
  });
});

describe('what a person may do', () => {
  let service: CrudService;
  beforeAll(async () => {
    service = await startCrud('git', oidcEnv());
  });
  afterAll(() => service?.close());

  it("a reader's token reads (REST and the read endpoints) and gets 403 on writes", async () => {
    const token = await reader();
    expect((await request(service.url, '/namespaces', { token })).status).toBe(200);
    expect((await request(service.url, PC, { token })).status).toBe(200);
    const commits = gitOut(service.dir!, 'rev-list', '--count', 'HEAD');
    for (const [method, path, body] of [
      ['POST', '/namespaces', { id: 'team-bob' }],
      ['PATCH', '/namespaces/team-b', { labels: { a: 'b' } }],
      ['DELETE', '/namespaces/team-b', undefined],
    ] as const) {
      const res = await send(service, method, path, body, { token });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.json()).toMatchObject({ error: 'forbidden' });
      expect(res.json().message).toContain('Bob Reader may read but not write');
    }
    expect(gitOut(service.dir!, 'rev-list', '--count', 'HEAD')).toBe(commits);
  });

  it('a writer reads too', async () => {
    expect((await request(service.url, PC, { token: await writer() })).status).toBe(200);
  });

  it('a person in none of the read or write groups gets 403 on reads', async () => {
    const res = await request(service.url, PC, { token: await issuer.sign({ groups: ['sales'] }) });
    expect(res.status).toBe(403);
    expect(res.json().error).toBe('forbidden');
  });

  it('takes the groups claim as a single string too', async () => {
    const res = await send(
      service,
      'PATCH',
      '/namespaces/team-a',
      { labels: { team: 'a', single: 'group' } },
      { token: await issuer.sign({ groups: 'platform-admins' }) },
    );
    expect(res.status, res.text).toBe(200);
  });

  it('accepts a token expired less than a minute ago (clock leeway)', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(
      (await request(service.url, PC, { token: await issuer.sign({ iat: now - 400, exp: now - 30 }) })).status,
    ).toBe(200);
  });

  it('accepts an ID token or an access token by its typ header, spelt as RFC 7515 allows, or none', async () => {
    for (const typ of [
      'JWT',
      'jwt',
      'application/jwt',
      'Application/JWT',
      'at+jwt',
      'AT+JWT',
      'application/at+jwt',
      null,
    ]) {
      const res = await request(service.url, PC, { token: await issuer.sign({}, { typ }) });
      expect(res.status, `typ ${typ}: ${res.text}`).toBe(200);
    }
  });

  it('accepts a token issued up to a minute ahead of this clock (clock leeway)', async () => {
    expect(
      (await request(service.url, PC, { token: await issuer.sign({ iat: Math.floor(Date.now() / 1000) + 30 }) }))
        .status,
    ).toBe(200);
  });

  it.each(['logout+jwt', 'application/logout+jwt', 'secevent+jwt', 'JOSE', 'at+jwt; charset=utf-8'])(
    'refuses a token whose typ is %s, naming it',
    async (typ) => {
      const res = await request(service.url, PC, { token: await issuer.sign({}, { typ }) });
      expect(res.status).toBe(401);
      expect(res.json().message).toContain(`its "typ" header says it is a ${JSON.stringify(typ)}`);
      expect(
        (await send(service, 'DELETE', '/namespaces/team-b', undefined, { token: await issuer.sign({}, { typ }) }))
          .status,
      ).toBe(401);
    },
  );

  it('refuses a token issued more than a minute in the future, naming iat', async () => {
    const res = await request(service.url, PC, {
      token: await issuer.sign({ iat: Math.floor(Date.now() / 1000) + 300 }),
    });
    expect(res.status).toBe(401);
    expect(res.json().message).toMatch(/its "iat" claim says it was issued \d+ s from now/);
  });

  it.each<[string, () => Promise<string>]>([
    ['an expired token', () => issuer.sign({ exp: Math.floor(Date.now() / 1000) - 120 })],
    ['a token not valid yet', () => issuer.sign({ nbf: Math.floor(Date.now() / 1000) + 300 })],
    ['a token without exp', () => issuer.sign({}, { omit: ['exp'] })],
    ['a token for another audience', () => issuer.sign({ aud: 'another-app' })],
    ['a token of another issuer', () => issuer.sign({ iss: 'https://evil.example.com/realms/test' })],
    [
      'a token signed by a key the issuer never published',
      async () => issuer.sign({}, { key: await issuer.strayKey() }),
    ],
    [
      "a token signed by another key under a published key's kid",
      async () => issuer.sign({}, { key: await issuer.strayKey(), kid: issuer.keys[0].kid }),
    ],
    ['an unsigned token (alg: none)', async () => issuer.unsigned()],
    ["an HS256 token signed with the issuer's public key", () => issuer.hmacWithPublicKey()],
    ['a token whose signature was cut off', async () => `${(await writer()).split('.').slice(0, 2).join('.')}.`],
  ])('refuses %s with 401', async (_name, token) => {
    const res = await request(service.url, PC, { token: await token() });
    expect(res.status).toBe(401);
    expect(res.json().error).toBe('unauthorized');
    expect(res.headers['www-authenticate']).toContain('Bearer');
    // And no write gets through with it either.
    expect((await send(service, 'DELETE', '/namespaces/team-b', undefined, { token: await token() })).status).toBe(401);
  });

  it('fetches the keys again for an unknown kid at most once per cooldown (30 s by default)', async () => {
    expect((await request(service.url, PC, { token: await writer() })).status).toBe(200);
    // This one may fetch them (when the last fetch was more than 30 s ago on a slow
    // machine); those right after it may not.
    expect(
      (await request(service.url, PC, { token: await issuer.sign({}, { key: await issuer.strayKey() }) })).status,
    ).toBe(401);
    const fetched = issuer.served(JWKS_PATH);
    for (let i = 0; i < 5; i++) {
      const stray = await issuer.strayKey();
      expect((await request(service.url, PC, { token: await issuer.sign({}, { key: stray }) })).status).toBe(401);
    }
    expect(issuer.served(JWKS_PATH)).toBe(fetched);
  });

  it('service tokens work as before', async () => {
    expect((await request(service.url, PC, { token: READ_TOKEN })).status).toBe(200);
    expect(
      (await send(service, 'PATCH', '/namespaces/team-b', { labels: { service: 'yes' } }, { token: WRITE_TOKEN }))
        .status,
    ).toBe(200);
  });
});

describe('key rotation at the issuer', () => {
  let service: CrudService;
  let rotating: OidcIssuer;
  beforeAll(async () => {
    rotating = await startOidcIssuer();
    // No cooldown: the refetch a new kid causes is seen at once instead of after 30 s.
    service = await startCrud('git', {
      OIDC_ISSUER_URL: rotating.url,
      OIDC_AUDIENCE: AUDIENCE,
      OIDC_WRITE_GROUPS: 'platform-admins',
      OIDC_JWKS_COOLDOWN: '0s',
    });
  });
  afterAll(async () => {
    await service?.close();
    await rotating?.close();
  });

  it('is picked up without a restart: a new kid fetches the keys again', async () => {
    const old = await rotating.sign();
    expect((await request(service.url, PC, { token: old })).status).toBe(200);
    const fetched = rotating.served(JWKS_PATH);

    const key = await rotating.rotate({ alg: 'ES256' });
    const res = await request(service.url, PC, { token: await rotating.sign({}, { key }) });
    expect(res.status, res.text).toBe(200);
    expect(rotating.served(JWKS_PATH)).toBe(fetched + 1);
    // The withdrawn key no longer verifies anything once the keys were fetched again.
    expect((await request(service.url, PC, { token: old })).status).toBe(401);

    const write = await send(
      service,
      'POST',
      '/namespaces',
      { id: 'team-rotated' },
      { token: await rotating.sign({}, { key }) },
    );
    expect(write.status, write.text).toBe(201);
    expect(gitOut(service.dir!, 'log', '-1', '--format=%an <%ae>')).toBe('Alice Admin <alice@example.com>');
  });
});
