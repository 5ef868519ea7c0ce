// The web UI's sign-in at an OIDC issuer (ui/src/auth/oidc-flow.ts, pkce.ts), step by step
// against the test issuer on loopback (test/helpers/oidc-issuer.ts), with Node's fetch in the
// browser's place: discovery, the login page's redirect with code and state, the code
// exchanged for the ID token only with the right verifier, and every answer that does not
// belong to this sign-in refused. The whole flow in Chromium: test/e2e/ui-edit.test.ts.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  discover,
  exchange,
  PENDING_LIFETIME_MS,
  prepare,
  readCallback,
  SignInError,
  tokenClaims,
} from '../../ui/src/auth/oidc-flow.ts';
import { randomToken, s256Challenge } from '../../ui/src/auth/pkce.ts';
import { AUDIENCE, type OidcIssuer, startOidcIssuer } from '../helpers/oidc-issuer.ts';

const REDIRECT = 'http://127.0.0.1:9/ui/signed-in';
let issuer: OidcIssuer;
beforeAll(async () => {
  issuer = await startOidcIssuer();
});
afterAll(() => issuer?.close());

const settings = () => ({ issuer: issuer.url, client_id: AUDIENCE, scopes: ['openid', 'profile', 'email'] });
const nodeFetch = (url: string, init: RequestInit) => fetch(url, init);

/** What a browser does at the login page: follow it, and read where the issuer sends it back. */
async function visitLoginPage(url: string): Promise<URLSearchParams> {
  const response = await fetch(url, { redirect: 'manual' });
  expect(response.status).toBe(302);
  const back = new URL(response.headers.get('location')!);
  expect(back.origin + back.pathname).toBe(REDIRECT);
  return back.searchParams;
}

async function begin() {
  const endpoints = await discover(settings(), nodeFetch);
  return prepare({
    settings: settings(),
    endpoints,
    redirectUri: REDIRECT,
    returnTo: '/ui/clusters/c1',
    random: () => randomToken(),
    challenge: s256Challenge,
    now: Date.now(),
  });
}

describe('PKCE', () => {
  it(
    'makes 43-character verifiers, and the S256 challenge ' + "is base64url(SHA-256) as Node's own hash gives it",
    async () => {
      const verifier = randomToken();
      expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(randomToken()).not.toBe(verifier);
      expect(await s256Challenge(verifier)).toBe(createHash('sha256').update(verifier).digest('base64url'));
    },
  );
});

describe('signing in at the issuer', () => {
  it(
    'discovers the endpoints, sends a code-flow request with S256, and exchanges the code for an ID token made for ' +
      'this sign-in',
    async () => {
      issuer.logIn({
        sub: 'user-carol',
        name: 'Carol Writer',
        email: 'carol@example.com',
        groups: ['platform-admins'],
      });
      const { url, pending } = await begin();
      const request = new URL(url).searchParams;
      expect(Object.fromEntries(request)).toEqual({
        response_type: 'code',
        client_id: AUDIENCE,
        redirect_uri: REDIRECT,
        scope: 'openid profile email',
        state: pending.state,
        nonce: pending.nonce,
        code_challenge: createHash('sha256').update(pending.verifier).digest('base64url'),
        code_challenge_method: 'S256',
      });
      const callback = readCallback(await visitLoginPage(url), pending, Date.now());
      expect(callback.ok).toBe(true);
      const idToken = await exchange(settings(), pending, (callback as { code: string }).code, nodeFetch);
      expect(tokenClaims(idToken)).toMatchObject({
        iss: issuer.url,
        aud: AUDIENCE,
        name: 'Carol Writer',
        nonce: pending.nonce,
      });
    },
  );

  it("refuses an answer whose state is not this tab's, one with an error, and one that comes too late", async () => {
    const { url, pending } = await begin();
    const answer = await visitLoginPage(url);
    const forged = new URLSearchParams(answer);
    forged.set('state', 'another-tabs-state');
    expect(readCallback(forged, pending, Date.now())).toEqual({
      ok: false,
      message: 'the answer does not belong to the sign-in this tab started (its state differs); nothing was kept',
    });
    expect(readCallback(answer, undefined, Date.now()).ok).toBe(false);
    expect(readCallback(answer, pending, pending.startedAt + PENDING_LIFETIME_MS + 1).ok).toBe(false);
    expect(
      readCallback(
        new URLSearchParams({ error: 'access_denied', error_description: 'not in the group' }),
        pending,
        Date.now(),
      ),
    ).toEqual({
      ok: false,
      message: 'the issuer did not sign you in: access_denied (not in the group)',
    });
  });

  it('gets no token for a code without the verifier it was issued for, nor for a code used twice', async () => {
    const { url, pending } = await begin();
    const code = (await visitLoginPage(url)).get('code')!;
    const refusals = issuer.tokenRefusals.length;
    await expect(exchange(settings(), { ...pending, verifier: randomToken() }, code, nodeFetch)).rejects.toThrow(
      SignInError,
    );
    expect(issuer.tokenRefusals.slice(refusals)).toEqual(['the code_verifier does not match the challenge']);
    // The failed try used the code up, as an issuer does.
    await expect(exchange(settings(), pending, code, nodeFetch)).rejects.toThrow(
      'the issuer gave no ID token for the code (invalid_grant: unknown or used code)',
    );
  });

  it("refuses an ID token whose nonce is another sign-in's", async () => {
    const first = await begin();
    const second = await begin();
    const code = (await visitLoginPage(first.url)).get('code')!;
    // The code of the first sign-in, exchanged as if it answered the second (its verifier made to match).
    await expect(
      exchange(settings(), { ...second.pending, verifier: first.pending.verifier }, code, nodeFetch),
    ).rejects.toThrow('the ID token was not made for this sign-in (its nonce differs); nothing was kept');
  });

  it(
    'refuses a discovery document naming another issuer, or a token endpoint on another origin (the page may not ' +
      'connect there)',
    async () => {
      const documentWith = (fields: Record<string, unknown>) => async () =>
        new Response(
          JSON.stringify({
            issuer: issuer.url,
            authorization_endpoint: `${issuer.url}/auth`,
            token_endpoint: `${issuer.url}/token`,
            ...fields,
          }),
          { status: 200 },
        );
      await expect(discover(settings(), documentWith({ issuer: 'https://elsewhere.example.com' }))).rejects.toThrow(
        /names the issuer "https:\/\/elsewhere.example.com"/,
      );
      await expect(
        discover(settings(), documentWith({ token_endpoint: 'https://tokens.example.com/token' })),
      ).rejects.toThrow(
        `the issuer's token endpoint https://tokens.example.com/token is not on the issuer's origin ` +
          `(${new URL(issuer.url).origin}); the page may connect to the issuer's origin only`,
      );
      await expect(
        discover(settings(), documentWith({ authorization_endpoint: 'http://login.example.com/auth' })),
      ).rejects.toThrow(/authorization_endpoint is not an https:\/\/ URL/);
      await expect(discover(settings(), documentWith({ code_challenge_methods_supported: ['plain'] }))).rejects.toThrow(
        'the issuer does not offer PKCE with S256',
      );
    },
  );
});
