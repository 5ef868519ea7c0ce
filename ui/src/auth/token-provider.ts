// Where the bearer token comes from. Today a person pastes one (./pasted-token.ts); signing
// in with OIDC (authorization code with PKCE, a public client) will be a second provider
// behind the same interface: it redirects to the identity provider in `signIn`, takes the code
// back on its callback path and keeps the tokens it gets, and the rest of the UI — the API
// client, the views — does not change.
import type { TokenSource } from '../api/client.ts';

export interface TokenProvider extends TokenSource {
  /** How this provider signs people in, for the sign-in page to offer the right control. */
  readonly method: 'pasted-token';
  /** Forgets the token; the next request goes out without one. */
  signOut(): void;
}
