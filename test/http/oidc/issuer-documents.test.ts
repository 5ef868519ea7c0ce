// The issuer's documents are read within 1 MiB (src/http/auth/oidc/issuer-document.ts), against a
// real issuer on loopback (test/helpers/oidc-issuer.ts) serving a JWKS or a discovery
// document of 16 MiB: person tokens get 503 naming the limit, service tokens keep working, and
// the service's memory does not grow by what the issuer sent; a document just under the limit
// is read as before.
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { afterEach, describe, expect, it } from 'vitest';
import { ISSUER_DOCUMENT_MAX_BYTES } from '../../../src/http/auth/oidc/issuer-document.ts';
import { type CrudService, startCrud } from '../../helpers/crud.ts';
import { request } from '../../helpers/http.ts';
import { AUDIENCE, DISCOVERY_PATH, JWKS_PATH, type OidcIssuer, startOidcIssuer } from '../../helpers/oidc-issuer.ts';
import { READ_TOKEN } from '../../helpers/service.ts';

const PC = '/api/v2/gitops/clusters/c1.k8s.example.com/platform-components';
const LARGE = 16 * 1024 * 1024;
const MIB = 2 ** 20;

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

/** Full garbage collections, then what this process holds: JavaScript's heap and buffers, and its RSS. */
function memory(): { retained: number; rss: number } {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  // Buffers are freed by a collection after the one that finds them unreachable.
  for (let i = 0; i < 3; i++) gc();
  const { heapUsed, external, rss } = process.memoryUsage();
  return { retained: heapUsed + external, rss };
}

describe("an issuer's documents", () => {
  it('a JWKS of 16 MiB is refused naming the limit, and the service holds none of it', async () => {
    // A person's first request loads code and fills caches (some 10 MiB of RSS): another
    // service in this process makes one first, so that what is measured is the document's.
    const warm = await startOidcIssuer();
    const warmService = await startWith(warm);
    expect((await request(warmService.url, PC, { token: await warm.sign() })).status).toBe(200);
    const issuer = await startOidcIssuer();
    const service = await startWith(issuer);
    // Discovery (at start, in the background) is small and works.
    if (issuer.served(DISCOVERY_PATH) === 0) await issuer.nextServed(DISCOVERY_PATH);
    const token = await issuer.sign();
    issuer.padTo(JWKS_PATH, LARGE);
    const before = memory();
    const refused = await request(service.url, PC, { token });
    const after = memory();
    const grown = { retained: (after.retained - before.retained) / MIB, rss: (after.rss - before.rss) / MIB };
    console.log(
      `a 16 MiB JWKS (${refused.status}): +${grown.retained.toFixed(1)} MiB held (heap and buffers after a ` +
        `collection), +${grown.rss.toFixed(1)} MiB RSS`,
    );
    expect(refused.status).toBe(503);
    expect(refused.json().error).toBe('unavailable');
    expect(refused.json().message).toContain(
      `larger than ${ISSUER_DOCUMENT_MAX_BYTES} bytes (1 MiB), the limit for an issuer's document`,
    );
    expect(refused.json().message).toContain(JWKS_PATH);
    expect(grown.retained).toBeLessThan(2);
    expect(grown.rss).toBeLessThan(8);
    expect((await request(service.url, PC, { token: READ_TOKEN })).status).toBe(200);
  });

  it('a discovery document of 16 MiB is refused naming the limit', async () => {
    const issuer = await startOidcIssuer();
    issuer.padTo(DISCOVERY_PATH, LARGE);
    const service = await startWith(issuer);
    const refused = await request(service.url, PC, { token: await issuer.sign() });
    expect(refused.status).toBe(503);
    expect(refused.json().message).toContain(
      `${DISCOVERY_PATH} answered a document larger than ${ISSUER_DOCUMENT_MAX_BYTES} bytes (1 MiB)`,
    );
    expect((await request(service.url, PC, { token: READ_TOKEN })).status).toBe(200);
  });

  it('documents just under the limit are read as before', async () => {
    const issuer = await startOidcIssuer();
    issuer.padTo(DISCOVERY_PATH, ISSUER_DOCUMENT_MAX_BYTES - 100);
    issuer.padTo(JWKS_PATH, ISSUER_DOCUMENT_MAX_BYTES - 100);
    const service = await startWith(issuer);
    const res = await request(service.url, PC, { token: await issuer.sign() });
    expect(res.status, res.text).toBe(200);
  });
});
