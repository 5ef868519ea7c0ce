// /ui/signed-in: the issuer sent the person back with a code. It is exchanged for the ID token
// once, the token checked with the service like a pasted one (a person the service does not
// let read is told so), and the address bar goes back to the view the person signed in from,
// without the code.
import { useEffect, useState } from 'preact/hooks';
import type { ApiClient } from '../api/client.ts';
import type { OidcSettings, Whoami } from '../api/types.ts';
import { useTitle } from '../hooks/use-title.ts';
import { BASE, navigate } from '../router/router.ts';
import { finishSignIn } from './oidc-sign-in.ts';
import { checkToken } from './token-check.ts';

export interface OidcCallbackProps {
  client: ApiClient;
  oidc: OidcSettings;
  query: URLSearchParams;
  onSignedIn: (token: string, whoami: Whoami | undefined) => void;
  onFailed: (message: string) => void;
}

export function OidcCallback({ client, oidc, query, onSignedIn, onFailed }: OidcCallbackProps) {
  useTitle('Signing in');
  const [step, setStep] = useState('Exchanging the code the issuer sent back…');
  useEffect(() => {
    let current = true;
    void (async () => {
      const finished = await finishSignIn(oidc, query);
      // The code is used (or refused): it leaves the address bar and the history either way.
      const returnTo = finished.ok && finished.returnTo.startsWith(BASE) ? finished.returnTo : BASE;
      navigate(returnTo, { replace: true });
      if (!current) return;
      if (!finished.ok) return onFailed(finished.message);
      setStep('Checking the token with the service…');
      const check = await checkToken(client, finished.idToken);
      if (!current) return;
      if (check.ok) onSignedIn(finished.idToken, check.whoami);
      else onFailed(check.message);
    })();
    return () => {
      current = false;
    };
  }, []);
  return (
    <>
      <h1 tabIndex={-1}>Signing in</h1>
      <p class="loading" role="status">
        {step}
      </p>
    </>
  );
}
