// Bearer-token authentication. Two shared tokens: AUTH_TOKEN reads, CRUD_AUTH_TOKEN (crud
// mode only) writes and also reads. Tokens are compared in constant time and never logged.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ApiError } from './errors.ts';

export type TokenRole = 'read' | 'write';

function digest(value: string): Buffer {
  // Hashing first gives equal-length buffers, so the comparison time says nothing about length.
  return createHash('sha256').update(value, 'utf8').digest();
}

export class Authenticator {
  readonly #read: Buffer;
  readonly #write: Buffer | undefined;

  constructor(readToken: string, writeToken: string | undefined) {
    this.#read = digest(readToken);
    this.#write = writeToken === undefined ? undefined : digest(writeToken);
  }

  /** The role the request's token grants, or undefined when it carries no valid token. */
  roleOf(req: IncomingMessage): TokenRole | undefined {
    const token = bearerToken(req.headers.authorization);
    if (token === undefined) return undefined;
    const presented = digest(token);
    if (this.#write && timingSafeEqual(presented, this.#write)) return 'write';
    if (timingSafeEqual(presented, this.#read)) return 'read';
    return undefined;
  }

  /** Throws 401 unless the request may do what `needed` says. */
  require(req: IncomingMessage, needed: TokenRole): TokenRole {
    const role = this.roleOf(req);
    if (role === undefined) {
      const why = req.headers.authorization ? 'the bearer token is not valid' : 'an Authorization: Bearer <token> header is required';
      throw unauthorized(why);
    }
    if (needed === 'write' && role !== 'write') throw unauthorized('this operation needs the write token (CRUD_AUTH_TOKEN)');
    return role;
  }
}

function unauthorized(message: string): ApiError {
  return new ApiError('unauthorized', message, { headers: { 'www-authenticate': 'Bearer realm="gitops-config-api"' } });
}

export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : undefined;
}
