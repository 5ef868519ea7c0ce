// The bearer token of whoever is signed in, kept in sessionStorage only: it lives as long as
// the tab, is not shared with other tabs or written to disk for later, and never appears in a
// URL (it would end up in history, logs and Referer headers). A pasted token and the ID token
// of a sign-in at the OIDC issuer are kept alike; which one it is only changes what the page
// says when the service stops accepting it.
import type { TokenSource } from '../api/client.ts';

const KEY = 'gitops-config-api.token';
const HOW = 'gitops-config-api.token-from';

export type TokenOrigin = 'pasted' | 'oidc';

export class SessionToken implements TokenSource {
  token(): string | undefined {
    try {
      return sessionStorage.getItem(KEY) ?? undefined;
    } catch {
      return undefined;
    }
  }

  /** How the token kept was got. */
  origin(): TokenOrigin | undefined {
    try {
      const how = sessionStorage.getItem(HOW);
      return how === 'oidc' || how === 'pasted' ? how : undefined;
    } catch {
      return undefined;
    }
  }

  /** Keeps a token that was checked with the service. */
  keep(token: string, origin: TokenOrigin): void {
    sessionStorage.setItem(KEY, token);
    sessionStorage.setItem(HOW, origin);
  }

  /** Forgets the token; the next request goes out without one. */
  signOut(): void {
    sessionStorage.removeItem(KEY);
    sessionStorage.removeItem(HOW);
  }
}
