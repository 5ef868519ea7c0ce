// Signing a person in at the OIDC issuer: the authorization code flow with PKCE for a public
// client (no secret: a page cannot keep one). The steps, as pure functions of their inputs
// (fetch is passed in), so that they are tested without a browser:
//
// 1. discover: the issuer's /.well-known/openid-configuration names its login page and token
//    endpoint. The page's Content-Security-Policy lets it connect to the issuer's own origin
//    only, so a token endpoint elsewhere is refused here with that reason.
// 2. prepare: a random state (ties the answer to this tab's request), a PKCE verifier and a
//    nonce (ties the ID token to this request); the URL of the login page.
// 3. readCallback: the issuer sends the browser back with `code` and `state`; the state must
//    be the one this tab made, or nothing is exchanged.
// 4. exchange: the code and the verifier for the ID token, whose nonce and audience are
//    checked. The service verifies its signature on every request, as for any person's token.
import type { OidcSettings } from '../api/types.ts';

export interface IssuerEndpoints {
  authorization: string;
  token: string;
}

/** What the tab keeps between sending the person to the issuer and their return. */
export interface PendingSignIn {
  state: string;
  verifier: string;
  nonce: string;
  redirectUri: string;
  tokenEndpoint: string;
  /** The view to show once signed in (a path under /ui/ with its query). */
  returnTo: string;
  /** Date.now() when the person was sent away. */
  startedAt: number;
}

/** A sign-in not finished within this time is forgotten: the code it waits for would be stale anyway. */
export const PENDING_LIFETIME_MS = 10 * 60_000;

type Fetch = (url: string, init: RequestInit) => Promise<Response>;

export class SignInError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignInError';
  }
}

export async function discover(settings: OidcSettings, fetchFn: Fetch): Promise<IssuerEndpoints> {
  const url = `${settings.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  let document: {
    issuer?: unknown;
    authorization_endpoint?: unknown;
    token_endpoint?: unknown;
    code_challenge_methods_supported?: unknown;
  };
  try {
    const response = await fetchFn(url, {
      credentials: 'omit',
      redirect: 'error',
      headers: { accept: 'application/json' },
    });
    if (!response.ok) throw new SignInError(`the issuer's discovery document (${url}) answered ${response.status}`);
    document = (await response.json()) as typeof document;
  } catch (error) {
    if (error instanceof SignInError) throw error;
    throw new SignInError(`the issuer's discovery document (${url}) could not be read: ${(error as Error).message}`);
  }
  if (document.issuer !== settings.issuer)
    throw new SignInError(
      `the discovery document names the issuer ${JSON.stringify(document.issuer)}, not ${settings.issuer}`,
    );
  const authorization = endpoint(document.authorization_endpoint, 'authorization_endpoint');
  const token = endpoint(document.token_endpoint, 'token_endpoint');
  if (new URL(token).origin !== new URL(settings.issuer).origin) {
    throw new SignInError(
      `the issuer's token endpoint ${token} is not on the issuer's origin (${new URL(settings.issuer).origin}); the ` +
        `page may connect to the issuer's origin only`,
    );
  }
  const methods = document.code_challenge_methods_supported;
  if (Array.isArray(methods) && !methods.includes('S256'))
    throw new SignInError('the issuer does not offer PKCE with S256 (code_challenge_methods_supported)');
  return { authorization, token };
}

/** An endpoint the page may go to: https, or http on this machine only (as the service requires of the issuer). */
function endpoint(value: unknown, name: string): string {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new SignInError(`the discovery document has no valid ${name}`);
  }
  const loopback =
    url.hostname === 'localhost' || url.hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(url.hostname);
  if (typeof value !== 'string' || !(url.protocol === 'https:' || (url.protocol === 'http:' && loopback))) {
    throw new SignInError(`the discovery document's ${name} is not an https:// URL (${url.href})`);
  }
  return url.href;
}

export interface PreparedSignIn {
  /** The issuer's login page, with the request in its query. */
  url: string;
  pending: PendingSignIn;
}

export interface PrepareInput {
  settings: OidcSettings;
  endpoints: IssuerEndpoints;
  redirectUri: string;
  returnTo: string;
  /** Random tokens (state, verifier, nonce) and the S256 challenge: ./pkce.ts. */
  random: () => string;
  challenge: (verifier: string) => Promise<string>;
  now: number;
}

export async function prepare({
  settings,
  endpoints,
  redirectUri,
  returnTo,
  random,
  challenge,
  now,
}: PrepareInput): Promise<PreparedSignIn> {
  const pending: PendingSignIn = {
    state: random(),
    verifier: random(),
    nonce: random(),
    redirectUri,
    tokenEndpoint: endpoints.token,
    returnTo,
    startedAt: now,
  };
  const url = new URL(endpoints.authorization);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', settings.client_id);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('scope', settings.scopes.join(' '));
  url.searchParams.set('state', pending.state);
  url.searchParams.set('nonce', pending.nonce);
  url.searchParams.set('code_challenge', await challenge(pending.verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  return { url: url.href, pending };
}

/** The code the issuer sent back, when the answer belongs to the sign-in this tab started. */
export function readCallback(
  query: URLSearchParams,
  pending: PendingSignIn | undefined,
  now: number,
): { ok: true; code: string } | { ok: false; message: string } {
  const error = query.get('error');
  if (error) {
    const description = query.get('error_description');
    return { ok: false, message: `the issuer did not sign you in: ${error}${description ? ` (${description})` : ''}` };
  }
  if (!pending || now - pending.startedAt > PENDING_LIFETIME_MS) {
    return {
      ok: false,
      message: 'this tab started no sign-in that is still waiting (or it was finished already); press Sign in again',
    };
  }
  if (query.get('state') !== pending.state)
    return {
      ok: false,
      message: 'the answer does not belong to the sign-in this tab started (its state differs); nothing was kept',
    };
  const code = query.get('code');
  if (!code) return { ok: false, message: 'the issuer sent no code back' };
  return { ok: true, code };
}

/** The ID token for the code, its nonce and audience checked. */
export async function exchange(
  settings: OidcSettings,
  pending: PendingSignIn,
  code: string,
  fetchFn: Fetch,
): Promise<string> {
  const body = new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    redirect_uri: pending.redirectUri,
    client_id: settings.client_id,
    code_verifier: pending.verifier,
  });
  let answer: { id_token?: unknown; error?: unknown; error_description?: unknown };
  let status: number;
  try {
    const response = await fetchFn(pending.tokenEndpoint, {
      method: 'POST',
      credentials: 'omit',
      redirect: 'error',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: body.toString(),
    });
    status = response.status;
    answer = (await response.json()) as typeof answer;
  } catch (error) {
    throw new SignInError(`the issuer's token endpoint could not be reached: ${(error as Error).message}`);
  }
  if (status !== 200 || typeof answer.id_token !== 'string') {
    const why =
      typeof answer.error === 'string'
        ? `${answer.error}${typeof answer.error_description === 'string' ? `: ${answer.error_description}` : ''}`
        : `status ${status}`;
    throw new SignInError(`the issuer gave no ID token for the code (${why})`);
  }
  const claims = tokenClaims(answer.id_token);
  if (!claims) throw new SignInError('the issuer sent an ID token that is not a JWT');
  if (claims.nonce !== pending.nonce)
    throw new SignInError('the ID token was not made for this sign-in (its nonce differs); nothing was kept');
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.includes(settings.client_id))
    throw new SignInError(`the ID token was made for another client, not ${settings.client_id}`);
  return answer.id_token;
}

/** The claims of a JWT, read without checking its signature (the service checks it). */
export function tokenClaims(jwt: string): Record<string, unknown> | undefined {
  const part = jwt.split('.')[1];
  if (!part) return undefined;
  try {
    const binary = atob(part.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const claims = JSON.parse(new TextDecoder().decode(bytes)) as unknown;
    return claims !== null && typeof claims === 'object' ? (claims as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
