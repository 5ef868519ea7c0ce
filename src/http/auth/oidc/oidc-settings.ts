// The settings of people signing in through an OpenID Connect issuer (OIDC_*), read and
// checked at start like every other setting (config.ts calls oidcSettingsFrom). Unset
// OIDC_ISSUER_URL: no person tokens, and no other OIDC_* setting may be given (it would
// look as if people could sign in when they cannot).
import { ConfigError } from '../../../shared/config-error.ts';
import { durationMs } from '../../../shared/duration.ts';

export interface OidcSettings {
  /** OIDC_ISSUER_URL: the issuer as its tokens name it in `iss`, exactly. */
  issuerUrl: string;
  /** OIDC_AUDIENCE: the `aud` a token must carry (one of these). */
  audiences: string[];
  /** OIDC_GROUPS_CLAIM: the claim holding the person's groups (an array of strings, or one string). */
  groupsClaim: string;
  /** OIDC_READ_GROUPS: a person in one of these reads; empty: every valid token reads. */
  readGroups: string[];
  /** OIDC_WRITE_GROUPS: a person in one of these writes (and reads); empty: no person writes. */
  writeGroups: string[];
  /**
   * OIDC_JWKS_COOLDOWN: after the issuer's keys were fetched, how long a token with an unknown `kid` waits for another
   * fetch.
   */
  jwksCooldownMs: number;
  /**
   * OIDC_UI_CLIENT_ID, OIDC_UI_SCOPES: the web UI signs people in itself (authorization code with PKCE); undefined:
   * people paste a token.
   */
  ui?: UiSignInSettings;
}

/** How the web UI signs a person in with the issuer: as a public client, without a secret. */
export interface UiSignInSettings {
  /** OIDC_UI_CLIENT_ID: the client registered at the issuer for the UI (public, PKCE). */
  clientId: string;
  /** OIDC_UI_SCOPES: the scopes asked for; `openid` always among them. */
  scopes: string[];
}

const DEPENDENT = [
  'OIDC_AUDIENCE',
  'OIDC_GROUPS_CLAIM',
  'OIDC_READ_GROUPS',
  'OIDC_WRITE_GROUPS',
  'OIDC_JWKS_COOLDOWN',
  'OIDC_UI_CLIENT_ID',
  'OIDC_UI_SCOPES',
];

export const DEFAULT_GROUPS_CLAIM = 'groups';
/**
 * What jose waits by default, and long enough that tokens with made-up key ids cannot make the service hammer the
 * issuer.
 */
export const DEFAULT_JWKS_COOLDOWN = '30s';
/** The claims of a person's name and e-mail; the groups come with them at most issuers (Dex needs `groups` added). */
export const DEFAULT_UI_SCOPES = 'openid profile email';

export function oidcSettingsFrom(env: Record<string, string | undefined>): OidcSettings | undefined {
  const issuerUrl = env.OIDC_ISSUER_URL?.trim();
  if (!issuerUrl) {
    const stray = DEPENDENT.filter((name) => env[name]);
    if (stray.length > 0)
      throw new ConfigError(
        `${stray.join(', ')} ${stray.length > 1 ? 'are' : 'is'} set without OIDC_ISSUER_URL; set the issuer too, or ` +
          `unset them`,
      );
    return undefined;
  }
  checkIssuerUrl(issuerUrl);
  const audiences = list(env.OIDC_AUDIENCE);
  if (audiences.length === 0) {
    throw new ConfigError(
      'OIDC_AUDIENCE is required with OIDC_ISSUER_URL: the client id the tokens are issued for (their `aud`); ' +
        'without it a token issued to any other application of the issuer would be accepted',
    );
  }
  const cooldownText = env.OIDC_JWKS_COOLDOWN || DEFAULT_JWKS_COOLDOWN;
  const cooldown = durationMs(cooldownText);
  if (cooldown === undefined || cooldown < 0)
    throw new ConfigError(`OIDC_JWKS_COOLDOWN=${cooldownText} is not a duration; use e.g. 30s or 1m`);
  return {
    issuerUrl,
    audiences,
    groupsClaim: env.OIDC_GROUPS_CLAIM?.trim() || DEFAULT_GROUPS_CLAIM,
    readGroups: list(env.OIDC_READ_GROUPS),
    writeGroups: list(env.OIDC_WRITE_GROUPS),
    jwksCooldownMs: Math.round(cooldown),
    ui: uiSignIn(env, audiences),
  };
}

/**
 * The UI sends the ID token the issuer gives its client as the person's Bearer token: an ID
 * token is always a JWT, and its `aud` is the client id. So the client id must be one of the
 * audiences the service accepts, or every person signing in through the UI would be refused.
 */
function uiSignIn(env: Record<string, string | undefined>, audiences: readonly string[]): UiSignInSettings | undefined {
  const clientId = env.OIDC_UI_CLIENT_ID?.trim();
  if (!clientId) {
    if (env.OIDC_UI_SCOPES)
      throw new ConfigError("OIDC_UI_SCOPES is set without OIDC_UI_CLIENT_ID; set the UI's client id too, or unset it");
    return undefined;
  }
  if (!audiences.includes(clientId)) {
    throw new ConfigError(
      `OIDC_UI_CLIENT_ID=${clientId} is not among OIDC_AUDIENCE (${audiences.join(', ')}): the web UI sends the ID ` +
        `token the issuer makes for this client, whose aud is the client id; add it to OIDC_AUDIENCE`,
    );
  }
  const scopes = (env.OIDC_UI_SCOPES || DEFAULT_UI_SCOPES).split(/[\s,]+/).filter((scope) => scope !== '');
  return { clientId, scopes: scopes.includes('openid') ? scopes : ['openid', ...scopes] };
}

/**
 * The issuer is where the keys that vouch for every person come from: fetched over plain
 * HTTP, anyone on the path could hand the service keys of their own. So HTTPS only, but for
 * the machine itself (a test issuer, a developer's Dex on localhost).
 */
function checkIssuerUrl(value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(
      `OIDC_ISSUER_URL=${value} is not a URL; use the issuer's URL, e.g. https://dex.example.com or ` +
        `https://keycloak.example.com/realms/platform`,
    );
  }
  if (url.username || url.password) throw new ConfigError('OIDC_ISSUER_URL must not carry a user name or password');
  if (url.search || url.hash)
    throw new ConfigError(`OIDC_ISSUER_URL=${value} has a query or a fragment; an issuer is a URL without them`);
  if (!fetchableIssuerUrl(url)) {
    throw new ConfigError(
      `OIDC_ISSUER_URL=${value} is not an https:// URL; only https:// is accepted (http:// only on loopback: ` +
        `localhost, 127.0.0.1, [::1])`,
    );
  }
}

/** HTTPS anywhere, plain HTTP only on this machine's loopback. Also applies to the `jwks_uri` the issuer names. */
export function fetchableIssuerUrl(url: URL): boolean {
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && isLoopbackHost(url.hostname);
}

function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}
