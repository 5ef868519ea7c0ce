// Every kind of caller on one service, with a real OIDC issuer on loopback
// (test/helpers/oidc-issuer.ts), cluster tokens and the service tokens side by side: whoami
// answers a person with name, e-mail and roles and any valid credential at all; /ready shows
// its full view only to a caller that reads the whole fleet (a person in no read group gets
// the public one); a cluster token reads its own cluster and nothing else; a person's requests
// are counted as `person`; and with the issuer down, person tokens get 503 while the service
// and cluster tokens keep working.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signClusterToken } from '../../../src/domain/cluster-token.ts';
import { type CrudService, send, startCrud } from '../../helpers/crud.ts';
import { request } from '../../helpers/http.ts';
import { AUDIENCE, type OidcIssuer, startOidcIssuer } from '../../helpers/oidc-issuer.ts';
import { parsePrometheusText } from '../../helpers/prometheus-text.ts';
import { READ_TOKEN, WRITE_TOKEN } from '../../helpers/service.ts';

const PREFIX = '/api/v2/gitops';
const WHOAMI = `${PREFIX}/whoami`;
const KEY = 'oidc-callers-cluster-token-key-0123456789';
const C1_PC = `${PREFIX}/clusters/c1.k8s.example.com/platform-components`;
const C0_PC = `${PREFIX}/clusters/Bare.Example.COM/platform-components`;
const c1Token = signClusterToken(Buffer.from(KEY), 'c1', 0);

function env(issuer: OidcIssuer): Record<string, string> {
  return {
    OIDC_ISSUER_URL: issuer.url,
    OIDC_AUDIENCE: AUDIENCE,
    OIDC_READ_GROUPS: 'platform-readers',
    OIDC_WRITE_GROUPS: 'platform-admins',
    CLUSTER_TOKEN_KEYS: KEY,
  };
}

describe('callers of every kind, the issuer up', () => {
  let issuer: OidcIssuer;
  let service: CrudService;
  const writer = () => issuer.sign({ groups: ['platform-admins'] });
  const reader = () =>
    issuer.sign({ sub: 'user-bob', name: 'Bob Reader', email: 'bob@example.com', groups: ['platform-readers'] });
  const outsider = () =>
    issuer.sign({ sub: 'user-eve', name: 'Eve Sales', email: 'eve@example.com', groups: ['sales'] });

  beforeAll(async () => {
    issuer = await startOidcIssuer();
    service = await startCrud('git', env(issuer));
  });
  afterAll(async () => {
    await service?.close();
    await issuer?.close();
  });

  it('whoami answers a person with name, e-mail and roles from the groups', async () => {
    const write = await request(service.url, WHOAMI, { token: await writer() });
    expect(write.status, write.text).toBe(200);
    expect(write.json()).toEqual({
      kind: 'person',
      name: 'Alice Admin',
      email: 'alice@example.com',
      roles: ['read', 'write'],
      clusters: null,
    });
    expect((await request(service.url, WHOAMI, { token: await reader() })).json()).toEqual({
      kind: 'person',
      name: 'Bob Reader',
      email: 'bob@example.com',
      roles: ['read'],
      clusters: null,
    });
    // A person in no group is still a valid credential: whoami says they may do nothing.
    expect((await request(service.url, WHOAMI, { token: await outsider() })).json()).toMatchObject({
      kind: 'person',
      name: 'Eve Sales',
      roles: [],
    });
  });

  it('whoami is allowed to a cluster token, which reads only its own cluster', async () => {
    const who = await request(service.url, WHOAMI, { token: c1Token });
    expect(who.status).toBe(200);
    expect(who.json()).toEqual({ kind: 'cluster', name: 'c1', email: null, roles: ['read'], clusters: ['c1'] });
    expect((await request(service.url, C1_PC, { token: c1Token })).status).toBe(200);
    for (const path of [C0_PC, `${PREFIX}/clusters`, `${PREFIX}/fleet`, '/clusters/c1', '/namespaces']) {
      const res = await request(service.url, path, { token: c1Token });
      expect(res.status, path).toBe(403);
      expect(res.json().error, path).toBe('forbidden');
    }
    expect(
      (await send(service, 'PATCH', '/namespaces/team-b', { labels: { by: 'cluster' } }, { token: c1Token })).status,
    ).toBe(403);
  });

  it(
    'a reader person reads everything and gets 403 on ' + 'every REST write; a read token on a write gets 401',
    async () => {
      const token = await reader();
      expect((await request(service.url, C0_PC, { token })).status).toBe(200);
      expect((await request(service.url, '/clusters', { token })).status).toBe(200);
      const refused = await send(service, 'POST', '/namespaces', { id: 'team-bob' }, { token });
      expect(refused.status).toBe(403);
      expect(refused.json().message).toMatch(
        /may read but not write; writes need membership of a group in OIDC_WRITE_GROUPS/,
      );
      const readToken = await send(service, 'POST', '/namespaces', { id: 'team-read' }, { token: READ_TOKEN });
      expect(readToken.status).toBe(401);
      expect(readToken.json().message).toMatch(/the read token \(AUTH_TOKEN\) may read but not write/);
    },
  );

  it(
    '/ready shows the full view to a person who reads, the ' +
      'public one to a person in no group and to a cluster token',
    async () => {
      const full = (await request(service.url, '/ready', { token: READ_TOKEN })).json();
      expect(full.view).toBe('full');
      for (const token of [await reader(), await writer()]) {
        expect((await request(service.url, '/ready', { token })).json()).toMatchObject({
          view: 'full',
          config_repo: full.config_repo,
        });
      }
      for (const token of [await outsider(), c1Token, issuer.unsigned()]) {
        const res = await request(service.url, '/ready', { token });
        expect(res.status).toBe(200);
        expect(res.json().view).toBe('public');
        expect(res.text).not.toContain(service.dir!);
      }
    },
  );

  it('counts a person\'s requests under caller="person", on the read path and on Express routes alike', async () => {
    const count = async (labels: Record<string, string>): Promise<number> => {
      const families = parsePrometheusText((await request(service.url, '/metrics')).text);
      const samples = families.get('gitops_config_http_requests_total')?.samples ?? [];
      return samples
        .filter((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))
        .reduce((sum, s) => sum + s.value, 0);
    };
    const pollRoute = `${PREFIX}/clusters/:cluster_dns/platform-components`;
    const before = {
      poll: await count({ caller: 'person', route: pollRoute, code: '200' }),
      write: await count({ caller: 'person', method: 'POST', code: '403' }),
      whoami: await count({ caller: 'person', route: WHOAMI, code: '200' }),
    };
    const token = await reader();
    await request(service.url, C1_PC, { token });
    await request(service.url, C1_PC, { token });
    await send(service, 'POST', '/namespaces', { id: 'team-counted' }, { token });
    await request(service.url, WHOAMI, { token });
    expect(await count({ caller: 'person', route: pollRoute, code: '200' })).toBe(before.poll + 2);
    expect(await count({ caller: 'person', method: 'POST', code: '403' })).toBe(before.write + 1);
    expect(await count({ caller: 'person', route: WHOAMI, code: '200' })).toBe(before.whoami + 1);
  });

  it(
    'refuses alg:none and an HS256 token signed with the ' +
      "issuer's public key with 401, on reads, writes and whoami",
    async () => {
      for (const token of [
        issuer.unsigned({ groups: ['platform-admins'] }),
        await issuer.hmacWithPublicKey({ groups: ['platform-admins'] }),
      ]) {
        expect((await request(service.url, C1_PC, { token })).status).toBe(401);
        expect((await request(service.url, WHOAMI, { token })).status).toBe(401);
        expect((await send(service, 'DELETE', '/namespaces/team-b', undefined, { token })).status).toBe(401);
      }
    },
  );
});

describe('callers of every kind, the issuer down', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it(
    'person tokens get 503 naming the issuer; service and cluster tokens get 200; /ready stays 200 with the public ' +
      'view',
    async () => {
      const issuer = await startOidcIssuer({ down: true });
      cleanups.push(() => issuer.close());
      const service = await startCrud('git', env(issuer));
      cleanups.push(() => service.close());
      const person = await issuer.sign({ groups: ['platform-admins'] });

      for (const path of [C1_PC, WHOAMI, '/namespaces']) {
        const res = await request(service.url, path, { token: person });
        expect(res.status, path).toBe(503);
        expect(res.json().message, path).toContain(issuer.url);
      }
      expect((await send(service, 'POST', '/namespaces', { id: 'team-person' }, { token: person })).status).toBe(503);

      expect((await request(service.url, C1_PC, { token: READ_TOKEN })).status).toBe(200);
      expect((await request(service.url, C1_PC, { token: c1Token })).status).toBe(200);
      expect((await request(service.url, WHOAMI, { token: c1Token })).status).toBe(200);
      expect((await send(service, 'POST', '/namespaces', { id: 'team-pipeline' }, { token: WRITE_TOKEN })).status).toBe(
        201,
      );

      const ready = await request(service.url, '/ready', { token: person });
      expect(ready.status).toBe(200);
      expect(ready.json().view).toBe('public');
    },
  );
});
