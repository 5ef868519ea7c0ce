// A small OpenID Connect issuer on loopback for tests: discovery and a JWKS of keys made here
// (jose's generateKeyPair and exportJWK), tokens signed with chosen claims, algorithm and key
// id, keys rotated, the issuer taken down and brought back on the same port, or made to
// answer errors. Like Keycloak, the issuer's URL has a path (/realms/test).
//
// It also signs a person in as a browser would meet it: the authorization code flow with
// PKCE (S256) for a public client. Its login page approves at once, as the person set with
// `logIn` (no form to fill in), and redirects back with a code; the token endpoint gives the
// ID token for the code only with the verifier whose S256 hash was the challenge, the same
// client and redirect URI, once. Discovery and the token endpoint answer any origin (CORS),
// as Keycloak and Dex do for the web origins they are told of.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { base64url, exportJWK, exportSPKI, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';

export const ISSUER_PATH = '/realms/test';
export const DISCOVERY_PATH = `${ISSUER_PATH}/.well-known/openid-configuration`;
export const JWKS_PATH = `${ISSUER_PATH}/protocol/openid-connect/certs`;
export const AUTHORIZATION_PATH = `${ISSUER_PATH}/protocol/openid-connect/auth`;
export const TOKEN_PATH = `${ISSUER_PATH}/protocol/openid-connect/token`;
export const AUDIENCE = 'gitops-config-api';

/** An authorization request the login page approved, as the browser sent it. */
export interface AuthorizationRequest {
  client_id: string;
  redirect_uri: string;
  response_type: string;
  scope: string;
  state: string;
  code_challenge: string;
  code_challenge_method: string;
  nonce: string | undefined;
}

export interface IssuerKey {
  kid: string;
  alg: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  jwk: JWK;
}

export interface SignOptions {
  /** The key to sign with (default: the newest published key). */
  key?: IssuerKey;
  /** A `kid` header other than the key's (undefined: the key's). */
  kid?: string;
  /** Claims left out of the defaults (`exp` to make a token that never expires). */
  omit?: string[];
  /** The `typ` header (default `JWT`, as ID tokens have it); null: none. */
  typ?: string | null;
}

export interface OidcIssuer {
  /** The issuer URL, as tokens name it in `iss`. */
  readonly url: string;
  readonly port: number;
  /** The keys published in the JWKS now, newest last. */
  readonly keys: readonly IssuerKey[];
  /** Requests answered so far for `path` (DISCOVERY_PATH, JWKS_PATH). */
  served(path: string): number;
  /** Resolves when the next request for `path` has been answered. */
  nextServed(path: string): Promise<void>;
  /** A token signed with an asymmetric key; `claims` are added to (and override) the defaults. */
  sign(claims?: JWTPayload, options?: SignOptions): Promise<string>;
  /** A new key, published; unless `keep`, the keys before it are withdrawn. */
  rotate(options?: { alg?: string; keep?: boolean }): Promise<IssuerKey>;
  /** A key made like the issuer's but never published. */
  strayKey(alg?: string): Promise<IssuerKey>;
  /** An unsigned token (`alg: none`), with the newest key's kid. */
  unsigned(claims?: JWTPayload): string;
  /** The classic attack: HS256, with the issuer's public key (PEM) as the HMAC secret, and its kid. */
  hmacWithPublicKey(claims?: JWTPayload): Promise<string>;
  /** Every answer (or only those for `path`) becomes this status (0: answer normally). */
  failWith(status: number, path?: string): void;
  /**
   * From now on `path` (DISCOVERY_PATH, JWKS_PATH) answers its document as it is now with a
   * member "padding" that makes it `bytes` long, made once here (0: the plain document again).
   */
  padTo(path: string, bytes: number): void;
  /** Who the login page signs in from now on: claims added to (and overriding) the defaults. */
  logIn(claims: JWTPayload): void;
  /** The authorization requests approved so far, oldest first. */
  readonly authorizations: readonly AuthorizationRequest[];
  /** Token requests refused so far, with the reason (a wrong verifier, a code used twice, …). */
  readonly tokenRefusals: readonly string[];
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

let keyCount = 0;

async function makeKey(alg: string): Promise<IssuerKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg);
  const kid = `key-${++keyCount}-${alg.toLowerCase()}`;
  const jwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { kid, alg, privateKey, publicKey, jwk };
}

/** The default person: Alice, in the given groups, with an e-mail the issuer verified (as Keycloak and Dex say it). */
export function personClaims(issuer: string, groups: string[] = ['platform-admins']): JWTPayload {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: issuer,
    aud: AUDIENCE,
    sub: 'user-alice',
    name: 'Alice Admin',
    email: 'alice@example.com',
    email_verified: true,
    groups,
    iat: now,
    exp: now + 300,
  };
}

/** Starts the issuer (or only takes its port, when `down`). */
export async function startOidcIssuer(options: { down?: boolean } = {}): Promise<OidcIssuer> {
  let keys: IssuerKey[] = [await makeKey('RS256')];
  let failStatus = 0;
  let failPath: string | undefined;
  const counts = new Map<string, number>();
  const waiting = new Map<string, (() => void)[]>();
  let person: JWTPayload = {};
  const authorizations: AuthorizationRequest[] = [];
  const tokenRefusals: string[] = [];
  const codes = new Map<string, { request: AuthorizationRequest; claims: JWTPayload }>();
  const padded = new Map<string, Buffer>();
  const discoveryDocument = () => ({
    issuer: issuer.url,
    jwks_uri: `${origin}${JWKS_PATH}`,
    authorization_endpoint: `${origin}${AUTHORIZATION_PATH}`,
    token_endpoint: `${origin}${TOKEN_PATH}`,
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
    id_token_signing_alg_values_supported: ['RS256'],
  });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', origin);
    const path = url.pathname;
    const done = () => {
      counts.set(path, (counts.get(path) ?? 0) + 1);
      for (const resolve of waiting.get(path)?.splice(0) ?? []) resolve();
    };
    const answer = (status: number, body: unknown) => {
      res
        .writeHead(status, {
          'content-type': 'application/json',
          'access-control-allow-origin': '*',
          'cache-control': 'no-store',
        })
        .end(JSON.stringify(body), done);
    };
    if (failStatus !== 0 && (failPath === undefined || failPath === path))
      return answer(failStatus, { error: 'failing on purpose' });
    const large = padded.get(path);
    if (large !== undefined) {
      // The client may stop reading: a reset socket is what it did, not the issuer's failure.
      res.on('error', () => undefined);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': large.length }).end(large, done);
      return;
    }
    if (path === DISCOVERY_PATH) return answer(200, discoveryDocument());
    if (path === JWKS_PATH) return answer(200, { keys: keys.map((k) => k.jwk) });
    if (path === AUTHORIZATION_PATH && req.method === 'GET') {
      const q = url.searchParams;
      const request: AuthorizationRequest = {
        client_id: q.get('client_id') ?? '',
        redirect_uri: q.get('redirect_uri') ?? '',
        response_type: q.get('response_type') ?? '',
        scope: q.get('scope') ?? '',
        state: q.get('state') ?? '',
        code_challenge: q.get('code_challenge') ?? '',
        code_challenge_method: q.get('code_challenge_method') ?? '',
        nonce: q.get('nonce') ?? undefined,
      };
      // A real issuer would show an error page for these; the test sees the status.
      if (
        request.response_type !== 'code' ||
        request.code_challenge_method !== 'S256' ||
        !request.code_challenge ||
        !request.redirect_uri
      ) {
        return answer(400, { error: 'invalid_request', error_description: 'code flow with PKCE (S256) only' });
      }
      authorizations.push(request);
      const code = randomBytes(24).toString('base64url');
      codes.set(code, { request, claims: { ...person } });
      const back = new URL(request.redirect_uri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', request.state);
      res.writeHead(302, { location: back.href, 'cache-control': 'no-store' }).end(done);
      return;
    }
    if (path === TOKEN_PATH && req.method === 'POST') {
      const form = new URLSearchParams(await readBody(req));
      const refuse = (why: string) => {
        tokenRefusals.push(why);
        answer(400, { error: 'invalid_grant', error_description: why });
      };
      const code = form.get('code') ?? '';
      const granted = codes.get(code);
      codes.delete(code);
      if (form.get('grant_type') !== 'authorization_code') return refuse('grant_type must be authorization_code');
      if (!granted) return refuse('unknown or used code');
      if (form.get('client_id') !== granted.request.client_id) return refuse('another client');
      if (form.get('redirect_uri') !== granted.request.redirect_uri) return refuse('another redirect_uri');
      const verifier = form.get('code_verifier') ?? '';
      if (createHash('sha256').update(verifier).digest('base64url') !== granted.request.code_challenge)
        return refuse('the code_verifier does not match the challenge');
      const idToken = await issuer.sign({
        aud: granted.request.client_id,
        azp: granted.request.client_id,
        nonce: granted.request.nonce,
        ...granted.claims,
      });
      return answer(200, {
        access_token: randomBytes(24).toString('base64url'),
        token_type: 'Bearer',
        expires_in: 300,
        id_token: idToken,
        scope: granted.request.scope,
      });
    }
    answer(404, { error: 'not found' });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => res.writeHead(500).end(String(error)));
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as AddressInfo).port);
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });

  const port = await listen(0);
  const origin = `http://127.0.0.1:${port}`;
  if (options.down) await stop();

  const newest = () => keys[keys.length - 1];
  const issuer: OidcIssuer = {
    url: `${origin}${ISSUER_PATH}`,
    port,
    get keys() {
      return keys;
    },
    served: (path) => counts.get(path) ?? 0,
    nextServed: (path) =>
      new Promise<void>((resolve) => {
        waiting.set(path, [...(waiting.get(path) ?? []), resolve]);
      }),
    async sign(claims = {}, signOptions = {}) {
      const key = signOptions.key ?? newest();
      const payload: JWTPayload = { ...personClaims(issuer.url), ...claims };
      for (const name of signOptions.omit ?? []) delete payload[name];
      const typ = signOptions.typ === undefined ? 'JWT' : signOptions.typ;
      const header = { alg: key.alg, kid: signOptions.kid ?? key.kid, ...(typ === null ? {} : { typ }) };
      return new SignJWT(payload).setProtectedHeader(header).sign(key.privateKey);
    },
    async rotate(rotateOptions = {}) {
      const key = await makeKey(rotateOptions.alg ?? 'RS256');
      keys = rotateOptions.keep ? [...keys, key] : [key];
      return key;
    },
    strayKey: (alg = 'RS256') => makeKey(alg),
    unsigned(claims = {}) {
      const header = base64url.encode(JSON.stringify({ alg: 'none', kid: newest().kid, typ: 'JWT' }));
      const payload = base64url.encode(JSON.stringify({ ...personClaims(issuer.url), ...claims }));
      return `${header}.${payload}.`;
    },
    async hmacWithPublicKey(claims = {}) {
      const key = newest();
      const secret = new TextEncoder().encode(await exportSPKI(key.publicKey));
      return new SignJWT({ ...personClaims(issuer.url), ...claims })
        .setProtectedHeader({ alg: 'HS256', kid: key.kid, typ: 'JWT' })
        .sign(secret);
    },
    failWith(status, path) {
      failStatus = status;
      failPath = path;
    },
    padTo(path, bytes) {
      if (bytes === 0) {
        padded.delete(path);
        return;
      }
      const document = JSON.stringify(path === DISCOVERY_PATH ? discoveryDocument() : { keys: keys.map((k) => k.jwk) });
      const head = Buffer.from(`${document.slice(0, -1)},"padding":"`);
      const body = Buffer.alloc(bytes, 'x');
      head.copy(body);
      body.write('"}', bytes - 2);
      padded.set(path, body);
    },
    logIn(claims) {
      person = claims;
    },
    authorizations,
    tokenRefusals,
    down: stop,
    async up() {
      await listen(port);
    },
    async close() {
      if (server.listening) await stop();
    },
  };
  return issuer;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
