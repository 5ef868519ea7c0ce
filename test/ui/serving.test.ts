// The web UI's files as the service serves them at /ui/: the page for every view path, hashed
// files cached for good, gzip, the headers that lock the page to its own origin, UI=off, and
// the read path left as it was. The UI itself is tested in a browser (test/e2e/ui-browser.test.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UI_BUILD_DIR, UiFiles } from '../../src/http/web-ui/ui-files.ts';
import { UI_CONTENT_SECURITY_POLICY } from '../../src/http/web-ui/ui-routes.ts';
import { removeDir, tempDir } from '../helpers/git-fixture.ts';
import { request } from '../helpers/http.ts';
import { expectMatchesOpenApi } from '../helpers/openapi.ts';
import { AUDIENCE, startOidcIssuer } from '../helpers/oidc-issuer.ts';
import { READ_TOKEN, startTestService, type TestService } from '../helpers/service.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const EXAMPLE_DNS = 'qa-eu-1.k8s.example.com';

let service: TestService;
let off: TestService;
beforeAll(async () => {
  [service, off] = await Promise.all([
    startTestService({ CONFIG_REPO: join(ROOT, 'config-repo-example') }),
    startTestService({ CONFIG_REPO: join(ROOT, 'config-repo-example'), UI: 'off' }),
  ]);
});
afterAll(async () => {
  await Promise.all([service?.close(), off?.close()]);
});

const assetNames = () => readdirSync(join(UI_BUILD_DIR, 'assets'));

describe('the web UI at /ui/', () => {
  it('answers the page at /ui/ without a token, with the headers that keep it to its own origin', async () => {
    const res = await request(service.url, '/ui/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    );
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.text).toBe(readFileSync(join(UI_BUILD_DIR, 'index.html'), 'utf8'));
  });

  it('redirects /ui to /ui/, keeping the query', async () => {
    const res = await request(service.url, '/ui?q=qa');
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe('/ui/?q=qa');
  });

  it('answers the page for a view path (a cluster id with dots), and 404 for a missing hashed file', async () => {
    const page = await request(service.url, '/ui/clusters/qa-eu-1.example');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const missing = await request(service.url, '/ui/assets/index-0000.js');
    expect(missing.status).toBe(404);
    expect(missing.json()).toEqual({
      error: 'not_found',
      message: 'no such file of the web UI: /ui/assets/index-0000.js',
    });
  });

  it('serves hashed files immutable for a year, gzip when accepted, and 304 on revalidation', async () => {
    const script = assetNames().find((name) => name.endsWith('.js'))!;
    const plain = await request(service.url, `/ui/assets/${script}`);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-security-policy']).toBe(UI_CONTENT_SECURITY_POLICY);
    expect(plain.body.equals(readFileSync(join(UI_BUILD_DIR, 'assets', script)))).toBe(true);
    const gzip = await request(service.url, `/ui/assets/${script}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toBe('Accept-Encoding');
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    expect(gzip.body.length).toBeLessThan(plain.body.length / 2);
    const again = await request(service.url, `/ui/assets/${script}`, {
      headers: { 'if-none-match': gzip.headers.etag as string },
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('answers GET and HEAD only', async () => {
    const post = await request(service.url, '/ui/', {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    const head = await request(service.url, '/ui/', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });

  it('with UI=off answers 404 at /ui/ and /ui, and serves the API as usual', async () => {
    for (const path of ['/ui/', '/ui', '/ui/clusters/x']) {
      const res = await request(off.url, path);
      expect(res.status).toBe(404);
      expect(res.json()).toEqual({ error: 'not_found', message: 'the web UI is off in this service (UI=off)' });
    }
    const settings = await request(off.url, '/ui/config.json');
    expect(settings.status).toBe(404);
    await expectMatchesOpenApi('get', '/ui/config.json', 404, settings.json());
    expect(
      (await request(off.url, `/api/v2/gitops/clusters/${EXAMPLE_DNS}/namespaces`, { token: READ_TOKEN })).status,
    ).toBe(200);
  });

  it('leaves the read path as it was: its answers carry no UI header', async () => {
    const res = await request(service.url, `/api/v2/gitops/clusters/${EXAMPLE_DNS}/namespaces`, { token: READ_TOKEN });
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-cache');
  });
});

describe('/ui/config.json and the policy with sign-in at an OIDC issuer', () => {
  it(
    "without OIDC_UI_CLIENT_ID: the policy is exactly default-src 'self' as always, and the page is told to take a " +
      'pasted token',
    async () => {
      const settings = await request(service.url, '/ui/config.json');
      expect(settings.json()).toEqual({ api_mode: 'read-only', fleet_view: true, oidc: null });
      await expectMatchesOpenApi('get', '/ui/config.json', 200, settings.json());
      expect(settings.headers['content-security-policy']).toBe(
        "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
      );
      // An issuer for people's tokens alone (no client for the UI) changes nothing either.
      const issuer = await startOidcIssuer();
      const withIssuer = await startTestService({
        CONFIG_REPO: join(ROOT, 'config-repo-example'),
        OIDC_ISSUER_URL: issuer.url,
        OIDC_AUDIENCE: AUDIENCE,
      });
      try {
        const page = await request(withIssuer.url, '/ui/');
        expect(page.headers['content-security-policy']).toBe(UI_CONTENT_SECURITY_POLICY);
        expect((await request(withIssuer.url, '/ui/config.json')).json().oidc).toBeNull();
      } finally {
        await withIssuer.close();
        await issuer.close();
      }
    },
  );

  it(
    "with OIDC_UI_CLIENT_ID: connect-src names the issuer's origin and nothing else, and config.json says where to " +
      'sign in',
    async () => {
      const issuer = await startOidcIssuer();
      const oidc = await startTestService({
        CONFIG_REPO: join(ROOT, 'config-repo-example'),
        OIDC_ISSUER_URL: issuer.url,
        OIDC_AUDIENCE: AUDIENCE,
        OIDC_UI_CLIENT_ID: AUDIENCE,
        OIDC_UI_SCOPES: 'openid profile email groups',
      });
      try {
        const origin = new URL(issuer.url).origin;
        for (const path of ['/ui/', '/ui/signed-in', '/ui/config.json']) {
          const res = await request(oidc.url, path);
          expect(res.headers['content-security-policy'], path).toBe(
            `default-src 'self'; connect-src 'self' ${origin}; frame-ancestors 'none'; base-uri 'none'; form-action ` +
              `'self'`,
          );
        }
        const settings = (await request(oidc.url, '/ui/config.json')).json();
        expect(settings).toEqual({
          api_mode: 'read-only',
          fleet_view: true,
          oidc: { issuer: issuer.url, client_id: AUDIENCE, scopes: ['openid', 'profile', 'email', 'groups'] },
        });
        await expectMatchesOpenApi('get', '/ui/config.json', 200, settings);
      } finally {
        await oidc.close();
        await issuer.close();
      }
    },
  );
});

describe('the built UI', () => {
  it('needs no inline script or style and loads nothing from another origin', () => {
    const html = readFileSync(join(UI_BUILD_DIR, 'index.html'), 'utf8');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    for (const name of assetNames()) {
      const text = readFileSync(join(UI_BUILD_DIR, 'assets', name), 'utf8');
      // Built for production: no development JSX carrying the files' paths on the build machine.
      expect(text, name).not.toContain(ROOT);
      expect(text, name).not.toMatch(/https?:\/\/(?!www\.w3\.org\/)[a-z]/i);
      expect(text, name).not.toMatch(/@import|url\(\s*['"]?(https?:|\/\/|data:)/);
    }
  });

  it('is at most 150 KB of JavaScript and CSS together, gzip', () => {
    const total = assetNames()
      .filter((name) => /\.(js|css)$/.test(name))
      .reduce((sum, name) => sum + gzipSync(readFileSync(join(UI_BUILD_DIR, 'assets', name)), { level: 9 }).length, 0);
    expect(total).toBeLessThanOrEqual(150 * 1024);
  });

  it('is not served when it was not built: UiFiles.load finds no index.html', () => {
    const empty = tempDir('ui-empty-');
    try {
      expect(UiFiles.load(empty)).toBeUndefined();
    } finally {
      removeDir(empty);
    }
  });
});

describe('Gitops-Poll: false', () => {
  it('gets the same answer but is not counted as the cluster poll in the fleet view', async () => {
    // A cluster no other test here polls.
    const dns = 'uat-us-1.k8s.example.com';
    const path = `/api/v2/gitops/clusters/${dns}/platform-components`;
    const fleet = async () =>
      (await request(service.url, '/api/v2/gitops/fleet', { token: READ_TOKEN }))
        .json()
        .clusters.find((c: { cluster_dns: string }) => c.cluster_dns === dns);
    expect((await fleet()).state).toBe('never_seen');
    const look = await request(service.url, path, { token: READ_TOKEN, headers: { 'gitops-poll': 'false' } });
    expect(look.status).toBe(200);
    expect((await fleet()).state).toBe('never_seen');
    const poll = await request(service.url, path, { token: READ_TOKEN });
    expect(poll.body.equals(look.body)).toBe(true);
    expect((await fleet()).endpoints['platform-components'].up_to_date).toBe(true);
  });
});
