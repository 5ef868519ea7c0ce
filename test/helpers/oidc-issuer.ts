// A small OpenID Connect issuer on loopback for tests: discovery and a JWKS of keys made here
// (jose's generateKeyPair and exportJWK), tokens signed with chosen claims, algorithm and key
// id, keys rotated, the issuer taken down and brought back on the same port, or made to
// answer errors. Like Keycloak, the issuer's URL has a path (/realms/test).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { base64url, exportJWK, exportSPKI, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';

export const ISSUER_PATH = '/realms/test';
export const DISCOVERY_PATH = `${ISSUER_PATH}/.well-known/openid-configuration`;
export const JWKS_PATH = `${ISSUER_PATH}/protocol/openid-connect/certs`;
export const AUDIENCE = 'gitops-config-api';

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

/** The default person: Alice, in the given groups. */
export function personClaims(issuer: string, groups: string[] = ['platform-admins']): JWTPayload {
  const now = Math.floor(Date.now() / 1000);
  return { iss: issuer, aud: AUDIENCE, sub: 'user-alice', name: 'Alice Admin', email: 'alice@example.com', groups, iat: now, exp: now + 300 };
}

/** Starts the issuer (or only takes its port, when `down`). */
export async function startOidcIssuer(options: { down?: boolean } = {}): Promise<OidcIssuer> {
  let keys: IssuerKey[] = [await makeKey('RS256')];
  let failStatus = 0;
  let failPath: string | undefined;
  const counts = new Map<string, number>();
  const waiting = new Map<string, (() => void)[]>();

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body), () => {
        counts.set(path, (counts.get(path) ?? 0) + 1);
        for (const resolve of waiting.get(path)?.splice(0) ?? []) resolve();
      });
    };
    if (failStatus !== 0 && (failPath === undefined || failPath === path)) return answer(failStatus, { error: 'failing on purpose' });
    if (path === DISCOVERY_PATH) return answer(200, { issuer: issuer.url, jwks_uri: `${origin}${JWKS_PATH}`, id_token_signing_alg_values_supported: ['RS256'] });
    if (path === JWKS_PATH) return answer(200, { keys: keys.map((k) => k.jwk) });
    answer(404, { error: 'not found' });
  };

  const server = createServer(handle);
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

  const newest = () => keys[keys.length - 1]!;
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
      return new SignJWT(payload).setProtectedHeader({ alg: key.alg, kid: signOptions.kid ?? key.kid, typ: 'JWT' }).sign(key.privateKey);
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
      return new SignJWT({ ...personClaims(issuer.url), ...claims }).setProtectedHeader({ alg: 'HS256', kid: key.kid, typ: 'JWT' }).sign(secret);
    },
    failWith(status, path) {
      failStatus = status;
      failPath = path;
    },
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
