// How a request presents a token, and how a token is compared. A token comes as
// `Authorization: Bearer <token>`, or as the password of HTTP Basic (the Flux Operator sends
// Basic when its Secret holds username and password rather than token). The service's
// tokens, the peer token and the webhook's secret are all compared with tokenEquals.

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

/** The token a request presents: a Bearer token, or the password of Basic credentials. */
export function presentedToken(header: string | undefined): string | undefined {
  return bearerToken(header) ?? basicPassword(header);
}

const BEARER = 'Bearer ';

/** `Bearer <token>`, the scheme's name in any case, the token without white space. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  // What every poll sends: `Bearer `, then the token and nothing else; read without a regex.
  if (header.startsWith(BEARER) && header.length > BEARER.length && !mayHoldSpace(header, BEARER.length))
    return header.slice(BEARER.length);
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : undefined;
}

/**
 * Whether `text` from `from` on may hold a character `\s` matches: any at or below the space,
 * U+00A0, and everything from U+1680 up (a few of which are spaces), so that a token said to
 * hold none is one the regex above would take whole.
 */
function mayHoldSpace(text: string, from: number): boolean {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x20 || c === 0xa0 || c >= 0x1680) return true;
  }
  return false;
}

/** The user name and password of `Basic base64(user:password)`; undefined without a password. */
export function basicCredentials(header: string | undefined): { user: string; password: string } | undefined {
  if (!header) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const password = decoded.slice(colon + 1);
  return password === '' ? undefined : { user: decoded.slice(0, colon), password };
}

/** The password of `Basic base64(user:password)`; the user name may be anything, even empty. */
export function basicPassword(header: string | undefined): string | undefined {
  return basicCredentials(header)?.password;
}
