// Token authentication. Two shared tokens: AUTH_TOKEN reads, CRUD_AUTH_TOKEN (crud mode only)
// writes and also reads. A token comes as `Authorization: Bearer <token>`, or as the password
// of HTTP Basic (the Flux Operator sends Basic when its Secret holds username and password
// rather than token; the user name is not checked). Tokens are compared in constant time and
// never logged.
import type { IncomingMessage } from 'node:http';
import type { Caller, PersonVerifier } from './caller.ts';
import { ApiError } from './errors.ts';
import { looksLikeJwt, requirePersonRole, verifiedPerson } from './person-auth.ts';

export type TokenRole = 'read' | 'write';

/**
 * Compares in time that depends only on the expected token's length: every character of the
 * expected token is visited whatever the presented one holds, so neither content nor length
 * can be probed. It allocates nothing, which matters on the read path.
 */
export function tokenEquals(presented: string, expected: string): boolean {
  let difference = presented.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) {
    // charCodeAt past the end gives NaN, which `| 0` turns into 0: still a difference.
    difference |= (presented.charCodeAt(i) | 0) ^ expected.charCodeAt(i);
  }
  return difference === 0;
}

export class Authenticator {
  readonly #read: string;
  readonly #write: string | undefined;
  /** Verifies people's JWTs when an OIDC issuer is configured. */
  readonly #people: PersonVerifier | undefined;

  constructor(readToken: string, writeToken: string | undefined, people?: PersonVerifier) {
    this.#read = readToken;
    this.#write = writeToken;
    this.#people = people;
  }

  /**
   * Who the request comes from, if it may do what `needed` says; throws 401 (no valid
   * credential), 403 (a person outside their groups) or 503 (the issuer cannot be reached).
   * A shared token is answered at once, without a promise, so that the read path stays
   * synchronous for the clusters' polls; only a person's token waits for its verification.
   */
  requireCaller(req: IncomingMessage, needed: TokenRole): Caller | Promise<Caller> {
    const token = bearerToken(req.headers.authorization);
    if (this.#people && token !== undefined && looksLikeJwt(token) && this.roleOf(req) === undefined) {
      return verifiedPerson(this.#people, token, CHALLENGE).then((person) => requirePersonRole(person, needed));
    }
    return serviceCaller(this.require(req, needed));
  }

  /** The role the request's token grants, or undefined when it carries no valid token. */
  roleOf(req: IncomingMessage): TokenRole | undefined {
    const token = presentedToken(req.headers.authorization);
    if (token === undefined) return undefined;
    if (this.#write !== undefined && tokenEquals(token, this.#write)) return 'write';
    if (tokenEquals(token, this.#read)) return 'read';
    return undefined;
  }

  /** Throws 401 unless the request may do what `needed` says. */
  require(req: IncomingMessage, needed: TokenRole): TokenRole {
    const role = this.roleOf(req);
    if (role === undefined) {
      const why = req.headers.authorization
        ? 'the token is not valid (Bearer, or the password of Basic)'
        : 'an Authorization header is required: Bearer <token>, or Basic with the token as the password';
      throw unauthorized(why);
    }
    if (needed === 'write' && role !== 'write') throw unauthorized('this operation needs the write token (CRUD_AUTH_TOKEN)');
    return role;
  }
}

const CHALLENGE = { 'www-authenticate': 'Bearer realm="gitops-config-api", Basic realm="gitops-config-api", charset="UTF-8"' };

function unauthorized(message: string): ApiError {
  return new ApiError('unauthorized', message, { headers: CHALLENGE });
}

/** A shared token's caller: the audit trail and the commit name it by its role, never by its value. */
function serviceCaller(role: TokenRole): Caller {
  return { kind: 'service', name: `${role}-token`, roles: new Set(role === 'write' ? ['read', 'write'] : ['read']) };
}

/** The token a request presents: a Bearer token, or the password of Basic credentials. */
export function presentedToken(header: string | undefined): string | undefined {
  return bearerToken(header) ?? basicPassword(header);
}

export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : undefined;
}

/** The password of `Basic base64(user:password)`; the user name may be anything, even empty. */
export function basicPassword(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const password = decoded.slice(colon + 1);
  return password === '' ? undefined : password;
}
