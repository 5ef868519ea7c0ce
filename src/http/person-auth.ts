// People among the callers: a Bearer token shaped like a JWT, when an OIDC issuer is
// configured, goes to the PersonVerifier (http/oidc/); what it finds out becomes an answer
// here: an invalid token 401, an issuer that cannot be reached 503, a person outside their
// groups' scope 403.
import { type Caller, IssuerUnavailable, type PersonVerifier, PersonTokenInvalid, type Role } from './caller.ts';
import { ApiError } from './errors.ts';

/**
 * Three base64url parts, the first a JSON object (`{"` encodes as `eyJ`): the shape of a
 * JWS in compact form. Shared tokens never start so (a cluster token starts with `gcc1.`).
 */
const JWT_SHAPE = /^eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/;

export function looksLikeJwt(token: string): boolean {
  return JWT_SHAPE.test(token);
}

/** The verified person, or the ApiError to answer. */
export async function verifiedPerson(verifier: PersonVerifier, token: string, challenge: Record<string, string>): Promise<Caller> {
  try {
    return await verifier.verify(token);
  } catch (error) {
    if (error instanceof PersonTokenInvalid) throw new ApiError('unauthorized', error.message, { headers: challenge });
    if (error instanceof IssuerUnavailable) throw new ApiError('unavailable', error.message, { headers: { 'retry-after': '5' } });
    throw error;
  }
}

/** Throws 403 unless the person may do what `needed` says, naming what they may do. */
export function requirePersonRole(person: Caller, needed: Role): Caller {
  if (person.roles.has(needed)) return person;
  const may = person.roles.has('read') ? 'may read but not write' : 'may neither read nor write';
  const groups = needed === 'write' ? 'OIDC_WRITE_GROUPS' : 'OIDC_READ_GROUPS or OIDC_WRITE_GROUPS';
  throw new ApiError('forbidden', `${person.name} ${may}: this needs membership of a group named in ${groups}`);
}
