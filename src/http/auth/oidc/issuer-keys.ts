// The issuer's signing keys (its JWKS), as jose's createRemoteJWKSet keeps them: fetched on
// first use, kept for 10 minutes, and fetched again for a token whose `kid` no key has once
// `cooldownMs` passed since the last fetch that worked (so keys the issuer rotated in are
// picked up without a restart, and made-up key ids cannot make the service hammer it).
//
// jose counts that cooldown from the last fetch that worked only: while the issuer is down
// every token with an unknown `kid` (and, once the 10 minutes are over, every token) would
// try again at once. So a failed fetch is followed by a pause of its own, in which the
// fetch fails at once without asking the issuer.
//
// Its body is read within ISSUER_DOCUMENT_MAX_BYTES (./issuer-document.ts).
//
// What goes wrong while finding a key is sorted here: no key for the token is the token's
// fault (401); keys that cannot be fetched are the issuer's (503).
import { createRemoteJWKSet, customFetch, errors, type FlattenedJWSInput, type JWSHeaderParameters } from 'jose';
import { IssuerUnavailable } from '../caller.ts';
import { fetchFailure } from './issuer-discovery.ts';
import { issuerDocumentBytes } from './issuer-document.ts';

/** After a failed fetch of the keys, the shortest time before the issuer is asked again. */
export const FAILED_FETCH_PAUSE_MS = 5000;

/** How long one fetch of the keys may take. */
const FETCH_TIMEOUT_MS = 5000;

export type KeyLookup = (header: JWSHeaderParameters, token: FlattenedJWSInput) => Promise<CryptoKey>;

/** Errors that say the token names no usable key: the token's fault, not the issuer's. */
const TOKEN_KEY_ERRORS = [
  errors.JWKSNoMatchingKey,
  errors.JWKSMultipleMatchingKeys,
  errors.JOSEAlgNotAllowed,
  errors.JOSENotSupported,
];

export function issuerKeys(jwksUri: URL, options: { cooldownMs: number }): KeyLookup {
  let failedAt = -Infinity;
  let failure = '';
  const remote = createRemoteJWKSet(jwksUri, {
    cooldownDuration: options.cooldownMs,
    timeoutDuration: FETCH_TIMEOUT_MS,
    [customFetch]: async (url, init) => {
      if (performance.now() - failedAt < FAILED_FETCH_PAUSE_MS)
        throw new Error(`${failure} (not asked again for a few seconds)`);
      try {
        const response = await fetch(url, init);
        if (response.status !== 200) {
          await response.body?.cancel();
          throw new Error(`answered ${response.status}, not 200`);
        }
        // jose reads the body whole: it is handed only what the limit let through.
        return new Response(await issuerDocumentBytes(response, String(url)), { status: 200 });
      } catch (error) {
        failedAt = performance.now();
        failure = fetchFailure(error);
        throw error;
      }
    },
  });
  return async (header, token) => {
    try {
      return await remote(header, token);
    } catch (error) {
      if (TOKEN_KEY_ERRORS.some((type) => error instanceof type)) throw error;
      throw new IssuerUnavailable(`the issuer's keys (${jwksUri.href}) cannot be fetched: ${fetchFailure(error)}`);
    }
  };
}
