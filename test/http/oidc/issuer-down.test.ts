// An OIDC issuer that cannot be reached must not take the service down with it: the service
// starts, answers person tokens 503 naming the issuer, keeps serving service tokens, does not
// flood the issuer with requests, and takes person tokens as soon as the issuer is back,
// without a restart.
import { afterEach, describe, expect, it } from 'vitest';
import { type CrudService, send, startCrud } from '../../helpers/crud.ts';
import { request } from '../../helpers/http.ts';
import { AUDIENCE, DISCOVERY_PATH, JWKS_PATH, type OidcIssuer, startOidcIssuer } from '../../helpers/oidc-issuer.ts';
import { READ_TOKEN } from '../../helpers/service.ts';

const PC = '/api/v2/gitops/clusters/c1.k8s.example.com/platform-components';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startWith(issuer: OidcIssuer): Promise<CrudService> {
  cleanups.push(() => issuer.close());
  const service = await startCrud('git', {
    OIDC_ISSUER_URL: issuer.url,
    OIDC_AUDIENCE: AUDIENCE,
    OIDC_WRITE_GROUPS: 'platform-admins',
  });
  cleanups.push(() => service.close());
  return service;
}

describe('an issuer that is down at start', () => {
  it(
    'person tokens get 503 naming the issuer, service tokens ' +
      '200; once it is up, person tokens work without a restart',
    async () => {
      const issuer = await startOidcIssuer({ down: true });
      const service = await startWith(issuer);
      const token = await issuer.sign();

      const refused = await request(service.url, PC, { token });
      expect(refused.status).toBe(503);
      expect(refused.json().error).toBe('unavailable');
      expect(refused.json().message).toContain(issuer.url);
      expect(refused.headers['retry-after']).toBeDefined();
      const write = await send(service, 'POST', '/namespaces', { id: 'team-person' }, { token });
      expect(write.status).toBe(503);
      expect(write.json().message).toContain(issuer.url);

      expect((await request(service.url, PC, { token: READ_TOKEN })).status).toBe(200);
      expect((await send(service, 'POST', '/namespaces', { id: 'team-pipeline' })).status).toBe(201);

      // Back up: the service's next discovery attempt (its background retry, or a person's
      // request once a few seconds have passed) finds it.
      const discovered = issuer.nextServed(DISCOVERY_PATH);
      await issuer.up();
      await discovered;
      const res = await request(service.url, PC, { token });
      expect(res.status, res.text).toBe(200);
      expect((await send(service, 'POST', '/namespaces', { id: 'team-person' }, { token })).status).toBe(201);
    },
  );
});

describe('an issuer that answers errors', () => {
  it(
    'is not asked on every person request: discovery at ' + 'most every few seconds, whatever the number of tokens',
    async () => {
      const issuer = await startOidcIssuer();
      issuer.failWith(500);
      const service = await startWith(issuer);
      const token = await issuer.sign();
      const first = await request(service.url, PC, { token });
      expect(first.status).toBe(503);
      expect(first.json().message).toContain('answered 500');
      const asked = issuer.served(DISCOVERY_PATH);
      expect(asked).toBeGreaterThanOrEqual(1);
      const answers = await Promise.all(Array.from({ length: 50 }, () => request(service.url, PC, { token })));
      expect(answers.map((a) => a.status)).toEqual(Array(50).fill(503));
      // At most one more: the background retry (1 s after the first failure) may fall in.
      expect(issuer.served(DISCOVERY_PATH)).toBeLessThanOrEqual(asked + 1);
      expect((await request(service.url, PC, { token: READ_TOKEN })).status).toBe(200);
    },
  );

  it('whose keys cannot be fetched: 503 for person tokens, and the keys are not asked for again at once', async () => {
    const issuer = await startOidcIssuer();
    issuer.failWith(503, JWKS_PATH);
    const service = await startWith(issuer);
    const token = await issuer.sign();
    const refused = await request(service.url, PC, { token });
    expect(refused.status).toBe(503);
    expect(refused.json().message).toContain(issuer.url);
    const asked = issuer.served(JWKS_PATH);
    expect(asked).toBe(1);
    const answers = await Promise.all(Array.from({ length: 20 }, () => request(service.url, PC, { token })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(503));
    expect(issuer.served(JWKS_PATH)).toBe(asked);
  });
});
