// Proof Key for Code Exchange (RFC 7636), S256: the page makes a random verifier before it
// sends the person to the issuer, and sends only its SHA-256 hash (the challenge) there. The
// code that comes back is worth nothing without the verifier, which never left this tab, so a
// code intercepted on its way back (another app registered for the redirect, a log) cannot be
// exchanged. Pure: Web Crypto, in the browser and in Node alike.

/** `bytes` random bytes as base64url without padding (32 bytes: 43 characters, within the 43–128 RFC 7636 allows). */
export function randomToken(bytes = 32): string {
  const buffer = new Uint8Array(bytes);
  crypto.getRandomValues(buffer);
  return base64url(buffer);
}

/** The S256 challenge of a verifier: base64url(SHA-256(ASCII(verifier))). */
export async function s256Challenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
