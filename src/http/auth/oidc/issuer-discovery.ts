// OpenID Connect discovery: the issuer's `/.well-known/openid-configuration` names where its
// signing keys are (`jwks_uri`). The document must name the same issuer it was asked for, or
// a misconfigured (or hostile) server could vouch for another issuer's tokens.
import { issuerDocumentJson } from './issuer-document.ts';
import { fetchableIssuerUrl } from './oidc-settings.ts';

export interface IssuerMetadata {
  issuer: string;
  jwksUri: URL;
}

/** How long one discovery request may take: a start or a person's request waits for it. */
export const DISCOVERY_TIMEOUT_MS = 5000;

/** Where discovery looks: the issuer URL (without a trailing slash) + `/.well-known/openid-configuration`. */
export function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
}

/** The issuer's metadata; throws an Error saying why it cannot be had (a reason for a person, no secrets). */
export async function discoverIssuer(issuer: string, timeoutMs = DISCOVERY_TIMEOUT_MS): Promise<IssuerMetadata> {
  const url = discoveryUrl(issuer);
  let response: Response;
  try {
    // A redirect is not followed: the document is expected where the issuer's URL says.
    response = await fetch(url, {
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/json' },
    });
  } catch (error) {
    throw new Error(`${url} cannot be reached: ${fetchFailure(error)}`);
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new Error(`${url} answered ${response.status}, not 200`);
  }
  const document = await issuerDocumentJson(response, url);
  const { issuer: named, jwks_uri: jwksUri } = (document ?? {}) as { issuer?: unknown; jwks_uri?: unknown };
  if (named !== issuer) {
    throw new Error(
      `${url} names the issuer ${JSON.stringify(named)}, not ${JSON.stringify(issuer)} (OIDC_ISSUER_URL must be ` +
        `exactly the issuer's URL)`,
    );
  }
  let keys: URL;
  try {
    keys = new URL(String(jwksUri));
  } catch {
    throw new Error(`${url} has no valid jwks_uri`);
  }
  if (typeof jwksUri !== 'string' || !fetchableIssuerUrl(keys))
    throw new Error(`${url} names a jwks_uri that is not https:// (${keys.href})`);
  return { issuer, jwksUri: keys };
}

/** Why a fetch failed, in words: the network error's code when Node gives one. */
export function fetchFailure(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError') return 'no answer in time';
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(error);
}
