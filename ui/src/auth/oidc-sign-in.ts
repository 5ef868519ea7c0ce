// The browser's side of signing in at the OIDC issuer (./oidc-flow.ts has the steps): what
// the tab keeps in sessionStorage while the person is at the issuer, the trip there (a
// top-level navigation), and the return to /ui/signed-in, whose code is exchanged once and
// removed from the address bar and the history at once.
import type { OidcSettings } from '../api/types.ts';
import { BASE } from '../router/router.ts';
import { discover, exchange, type PendingSignIn, prepare, readCallback, SignInError } from './oidc-flow.ts';
import { randomToken, s256Challenge } from './pkce.ts';

const PENDING = 'gitops-config-api.oidc-pending';

/**
 * The path under /ui/ the issuer sends the person back to: register `<origin>/ui/signed-in` as the client's redirect
 * URI.
 */
export const CALLBACK_PATH = 'signed-in';

export function redirectUri(): string {
  return `${window.location.origin}${BASE}${CALLBACK_PATH}`;
}

/** Sends the person to the issuer's login page; throws a SignInError saying why it cannot. */
export async function beginSignIn(settings: OidcSettings, returnTo: string): Promise<void> {
  const endpoints = await discover(settings, (url, init) => fetch(url, init));
  const { url, pending } = await prepare({
    settings,
    endpoints,
    redirectUri: redirectUri(),
    returnTo,
    random: () => randomToken(),
    challenge: s256Challenge,
    now: Date.now(),
  });
  sessionStorage.setItem(PENDING, JSON.stringify(pending));
  window.location.assign(url);
}

export type FinishedSignIn = { ok: true; idToken: string; returnTo: string } | { ok: false; message: string };

/** On /ui/signed-in: the ID token for the code the issuer sent back. The pending sign-in is used once. */
export async function finishSignIn(settings: OidcSettings, query: URLSearchParams): Promise<FinishedSignIn> {
  const pending = takePending();
  const callback = readCallback(query, pending, Date.now());
  if (!callback.ok) return callback;
  try {
    const idToken = await exchange(settings, pending!, callback.code, (url, init) => fetch(url, init));
    return { ok: true, idToken, returnTo: pending!.returnTo };
  } catch (error) {
    return {
      ok: false,
      message: error instanceof SignInError ? error.message : `signing in failed: ${(error as Error).message}`,
    };
  }
}

function takePending(): PendingSignIn | undefined {
  const text = sessionStorage.getItem(PENDING);
  sessionStorage.removeItem(PENDING);
  if (!text) return undefined;
  try {
    return JSON.parse(text) as PendingSignIn;
  } catch {
    return undefined;
  }
}

export function forgetPendingSignIn(): void {
  sessionStorage.removeItem(PENDING);
}
