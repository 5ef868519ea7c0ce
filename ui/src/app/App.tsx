// The page: who is signed in, which view the URL names, and the frame around it.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiClient } from '../api/client.ts';
import { fetchWhoami } from '../api/endpoints.ts';
import type { Whoami } from '../api/types.ts';
import { PastedTokenProvider } from '../auth/pasted-token.ts';
import { SignInPage } from '../auth/SignInPage.tsx';
import { Layout } from '../components/common/Layout.tsx';
import { StaleBanner, useReady } from '../components/common/StaleBanner.tsx';
import { forget } from '../data/cache.ts';
import { route } from './routes.tsx';
import { useLocation } from './router.ts';

const provider = new PastedTokenProvider();

export function App() {
  const [signedIn, setSignedIn] = useState(() => provider.token() !== undefined);
  const [whoami, setWhoami] = useState<Whoami | undefined>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const location = useLocation();

  const client = useMemo(
    () =>
      new ApiClient(provider, () => {
        signOut();
        setNotice('The service refused the token (401): it may have been changed or revoked. Sign in again.');
      }),
    [],
  );
  const ready = useReady(client, location.path);

  function signOut() {
    provider.signOut();
    forget();
    setWhoami(undefined);
    setSignedIn(false);
  }

  // After a reload the token is still in the tab: ask again whose it is, for the header.
  useEffect(() => {
    if (!signedIn || whoami) return;
    fetchWhoami(client).then((answer) => answer.kind === 'known' && setWhoami(answer.whoami), () => undefined);
  }, [signedIn]);

  // On a move to another view, focus goes to its heading, as on a new page: a screen reader
  // reads where the person is, and Tab continues from the top of the view.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.querySelector<HTMLElement>('main h1')?.focus();
  }, [location.path, signedIn]);

  if (!signedIn) {
    return (
      <Layout current={undefined} banner={<StaleBanner ready={ready} />}>
        <SignInPage
          client={client}
          notice={notice}
          onSignedIn={(token, who) => {
            provider.keep(token);
            setNotice(undefined);
            setWhoami(who);
            setSignedIn(true);
          }}
        />
      </Layout>
    );
  }

  const { nav, view } = route(location, client);
  const session = (
    <>
      <span class="who">{whoami ? describe(whoami) : 'Signed in with a token'}</span>
      <button type="button" onClick={signOut}>
        Sign out
      </button>
    </>
  );
  return (
    <Layout current={nav} session={session} banner={<StaleBanner ready={ready} />}>
      {view}
    </Layout>
  );
}

function describe(whoami: Whoami): string {
  const name = whoami.name ?? whoami.email ?? whoami.kind;
  const roles = whoami.roles?.length ? ` (${whoami.roles.join(', ')})` : '';
  return `Signed in as ${name}${roles}`;
}
