// Sign in by pasting a token. The token is checked with the service first (./token-check.ts)
// and kept only when it reads the fleet; a refused or cluster-scoped token is explained.
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api/client.ts';
import type { Whoami } from '../api/types.ts';
import { useTitle } from '../app/use-title.ts';
import { Banner } from '../components/common/Banner.tsx';
import { checkToken } from './token-check.ts';

export interface SignInPageProps {
  client: ApiClient;
  /** Why the person is asked to sign in again (a token the service stopped accepting). */
  notice: string | undefined;
  onSignedIn: (token: string, whoami: Whoami | undefined) => void;
}

export function SignInPage({ client, notice, onSignedIn }: SignInPageProps) {
  useTitle('Sign in');
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const check = await checkToken(client, token);
    setBusy(false);
    if (check.ok) onSignedIn(token.trim(), check.whoami);
    else setError(check.message);
  };

  return (
    <>
      <h1 tabIndex={-1}>Sign in</h1>
      {notice && !error && (
        <Banner tone="warning">
          <p>{notice}</p>
        </Banner>
      )}
      <form class="sign-in" onSubmit={submit} aria-describedby="sign-in-help">
        <p id="sign-in-help">
          Paste a token that reads the fleet: the service's read or write token, or a person's token. It is kept in this tab only (session storage) and sent to
          this service alone.
        </p>
        <label for="token">Token</label>
        <input
          id="token"
          name="token"
          type="password"
          autoComplete="off"
          spellcheck={false}
          value={token}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'token-error' : undefined}
          onInput={(event) => setToken((event.target as HTMLInputElement).value)}
        />
        {error && (
          <p id="token-error" class="field-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
    </>
  );
}
