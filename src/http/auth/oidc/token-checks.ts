// What a person's token must be besides signed, issued for this service and current — the
// checks jose leaves to its caller. An issuer signs other JWTs with the same keys: a logout
// token (`logout+jwt`, OpenID Connect Back-Channel Logout), a security event (`secevent+jwt`);
// RFC 8725 (§3.11) says to tell them apart by the `typ` header, so a token that declares a
// type must declare that of an ID token or an access token. And a token issued later than
// the clocks' leeway allows was not issued by a clock that agrees with this one.

/**
 * The types a person's token may declare (`JWT`: an ID token; `at+jwt`: a JWT access token,
 * RFC 9068), as media types.
 */
export const PERSON_TOKEN_TYPES: readonly string[] = ['application/jwt', 'application/at+jwt'];

/**
 * A `typ` as a media type: compared without regard to case, and with `application/` put in
 * front when it has no `/` (RFC 7515 §4.1.9: producers may leave that prefix out).
 */
export function tokenMediaType(typ: string): string {
  const lower = typ.toLowerCase();
  return lower.includes('/') ? lower : `application/${lower}`;
}

/** Why the token's `typ` header refuses it, or undefined (none at all is accepted: most issuers send one, not all). */
export function tokenTypeProblem(typ: unknown): string | undefined {
  if (typ === undefined) return undefined;
  if (typeof typ !== 'string') return 'its "typ" header is not a string';
  if (PERSON_TOKEN_TYPES.includes(tokenMediaType(typ))) return undefined;
  return `its "typ" header says it is a ${JSON.stringify(typ)}, not an ID token or an access token (JWT, at+jwt)`;
}

/** Why the token's `iat` refuses it (issued later than now plus the leeway), or undefined. */
export function issuedAtProblem(iat: unknown, nowSeconds: number, leewaySeconds: number): string | undefined {
  if (typeof iat !== 'number' || iat <= nowSeconds + leewaySeconds) return undefined;
  const ahead = Math.round(iat - nowSeconds);
  return `its "iat" claim says it was issued ${ahead} s from now (clocks may disagree by ${leewaySeconds} s)`;
}
