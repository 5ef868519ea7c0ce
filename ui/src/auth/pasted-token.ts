// A token the person pasted into the sign-in form. It is kept in sessionStorage only: it lives
// as long as the tab, is not shared with other tabs or written to disk for later, and never
// appears in a URL (it would end up in history, logs and Referer headers).
import type { TokenProvider } from './token-provider.ts';

const KEY = 'gitops-config-api.token';

export class PastedTokenProvider implements TokenProvider {
  readonly method = 'pasted-token' as const;

  token(): string | undefined {
    try {
      return sessionStorage.getItem(KEY) ?? undefined;
    } catch {
      return undefined;
    }
  }

  /** Keeps a token that was checked with the service. */
  keep(token: string): void {
    sessionStorage.setItem(KEY, token);
  }

  signOut(): void {
    sessionStorage.removeItem(KEY);
  }
}
