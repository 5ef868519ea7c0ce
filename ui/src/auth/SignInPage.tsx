// Sign in: at the OIDC issuer when the service names one for the UI (OIDC_UI_CLIENT_ID), with a
// pasted token otherwise — and, folded away, with a pasted token beside the issuer too (a
// service token, a person's token got elsewhere). A pasted token is checked with the service
// first (./token-check.ts) and kept only when it reads the fleet.
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api/client.ts';
import type { OidcSettings, Whoami } from '../api/types.ts';
import { Banner } from '../components/common/Banner.tsx';
import { useTitle } from '../hooks/use-title.ts';
import { beginSignIn } from './oidc-sign-in.ts';
import { checkToken } from './token-check.ts';

export interface SignInPageProps {
  client: ApiClient;
  /** Where people sign in; null or undefined: they paste a token. */
  oidc: OidcSettings | null | undefined;
  /** Why the person is asked to sign in (again): a token the service stopped accepting, a sign-in that failed. */
  notice: string | undefined;
  onSignedIn: (token: string, whoami: Whoami | undefined) => void;
}

export function SignInPage({ client, oidc, notice, onSignedIn }: SignInPageProps) {
  useTitle('Sign in');
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  const signInAtIssuer = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await beginSignIn(oidc!, window.location.pathname + window.location.search);
    } catch (failure) {
      setError((failure as Error).message);
      setBusy(false);
    }
  };

  return (
    <>
      <h1 tabIndex={-1}>Sign in</h1>
      {notice && !error && (
        <Banner tone="warning">
          <p>{notice}</p>
        </Banner>
      )}
      {oidc ? (
        <>
          <div class="sign-in">
            <p id="oidc-help">
              Sign in with your account at <code>{new URL(oidc.issuer).host}</code>. The page keeps the token it gets in
              this tab only (session storage) and sends it to this service alone.
            </p>
            {error && (
              <p class="field-error" role="alert">
                {error}
              </p>
            )}
            <button
              type="button"
              class="primary"
              disabled={busy}
              aria-describedby="oidc-help"
              onClick={() => void signInAtIssuer()}
            >
              Sign in
            </button>
          </div>
          <details class="paste-instead">
            <summary>Paste a token instead</summary>
            <TokenForm client={client} onSignedIn={onSignedIn} submitLabel="Sign in with the token" />
          </details>
        </>
      ) : (
        <TokenForm client={client} onSignedIn={onSignedIn} submitLabel="Sign in" />
      )}
    </>
  );
}

function TokenForm({
  client,
  onSignedIn,
  submitLabel,
}: {
  client: ApiClient;
  onSignedIn: SignInPageProps['onSignedIn'];
  submitLabel: string;
}) {
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
    <form class="sign-in" onSubmit={(event) => void submit(event)} aria-describedby="sign-in-help">
      <p id="sign-in-help">
        Paste a token that reads the fleet: the service's read or write token, or a person's token. It is kept in this
        tab only (session storage) and sent to this service alone.
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
        {submitLabel}
      </button>
    </form>
  );
}
