// The page: who is signed in (and whether they may edit), which view the URL names, and the
// frame around it.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiClient } from '../api/client.ts';
import { fetchWhoami } from '../api/endpoints.ts';
import type { UiSettings, Whoami } from '../api/types.ts';
import { OidcCallback } from '../auth/OidcCallback.tsx';
import { CALLBACK_PATH, forgetPendingSignIn } from '../auth/oidc-sign-in.ts';
import { SessionToken } from '../auth/session-token.ts';
import { SignInPage } from '../auth/SignInPage.tsx';
import { Layout } from '../components/common/Layout.tsx';
import { StaleBanner, useReady } from '../components/common/StaleBanner.tsx';
import { PendingBar } from '../components/edits/PendingBar.tsx';
import { forget } from '../data/cache.ts';
import { serviceSettings } from '../data/capabilities.ts';
import { EditingContext } from '../edits/editing.ts';
import { discardChangeSet } from '../edits/use-change-set.ts';
import { useAsync } from '../hooks/use-async.ts';
import { useLocation } from '../router/router.ts';
import { route } from './routes.tsx';

const tokens = new SessionToken();

export function App() {
  const [signedIn, setSignedIn] = useState(() => tokens.token() !== undefined);
  const [whoami, setWhoami] = useState<Whoami | undefined>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [dataVersion, setDataVersion] = useState(0);
  const location = useLocation();
  // The issuer's answer on /ui/signed-in, taken once when the page loads there.
  const [callback, setCallback] = useState(() => (location.path === CALLBACK_PATH ? location.search : undefined));

  const client = useMemo(
    () =>
      new ApiClient(tokens, () => {
        // Requests sent side by side with the one token are refused side by side: the first
        // refusal signs out, and the later ones must not say it again without knowing how
        // the token was got.
        if (tokens.token() === undefined) return;
        const fromIssuer = tokens.origin() === 'oidc';
        // The pending edits stay: signing in again brings them back.
        forgetSession();
        setNotice(
          fromIssuer
            ? 'Your sign-in has expired (the service answered 401). Sign in again; your pending changes are kept.'
            : 'The service refused the token (401): it may have been changed or revoked. Sign in again.',
        );
      }),
    [],
  );
  const ready = useReady(client, location.path);
  const settings = useAsync<UiSettings | undefined>(() => serviceSettings(client).catch(() => undefined), [client]);
  const oidc = settings.state === 'done' ? settings.value?.oidc : undefined;
  const crud = settings.state === 'done' && settings.value?.api_mode === 'crud';

  function forgetSession() {
    tokens.signOut();
    forget();
    setWhoami(undefined);
    setSignedIn(false);
  }

  function signOut() {
    forgetSession();
    forgetPendingSignIn();
    discardChangeSet();
  }

  function signedInWith(token: string, origin: 'pasted' | 'oidc', who: Whoami | undefined) {
    tokens.keep(token, origin);
    setNotice(undefined);
    setWhoami(who);
    setSignedIn(true);
  }

  // After a reload the token is still in the tab: ask again whose it is, for the header and
  // for whether the person may edit.
  useEffect(() => {
    if (!signedIn || whoami) return;
    fetchWhoami(client).then(
      (answer) => answer.kind === 'known' && setWhoami(answer.whoami),
      () => undefined,
    );
  }, [signedIn]);

  // On a move to another view, focus goes to its heading, as on a new page: a screen reader
  // reads where the person is, and Tab continues from the top of the view. A layout effect,
  // so that focus has moved by the time the view is painted (a deferred effect left a frame
  // in which the followed link was gone and focus was on the page's body).
  const first = useRef(true);
  useLayoutEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.querySelector<HTMLElement>('main h1')?.focus();
  }, [location.path, signedIn]);

  const canEdit = crud && signedIn && (whoami?.roles ?? []).includes('write');
  const editing = useMemo(
    () => ({ canEdit, dataVersion, reload: () => setDataVersion((v) => v + 1) }),
    [canEdit, dataVersion],
  );

  if (callback && !signedIn) {
    if (settings.state !== 'done') return <Layout current={undefined}>{null}</Layout>;
    if (!oidc) {
      setCallback(undefined);
      return null;
    }
    return (
      <Layout current={undefined}>
        <OidcCallback
          client={client}
          oidc={oidc}
          query={callback}
          onSignedIn={(token, who) => {
            setCallback(undefined);
            signedInWith(token, 'oidc', who);
          }}
          onFailed={(message) => {
            setCallback(undefined);
            setNotice(message);
          }}
        />
      </Layout>
    );
  }

  if (!signedIn) {
    return (
      <Layout current={undefined} banner={<StaleBanner ready={ready} />}>
        {settings.state === 'loading' ? null : (
          <SignInPage
            client={client}
            oidc={oidc}
            notice={notice}
            onSignedIn={(token, who) => signedInWith(token, 'pasted', who)}
          />
        )}
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
    <EditingContext.Provider value={editing}>
      <Layout
        current={nav}
        session={session}
        canEdit={canEdit}
        banner={
          <>
            <StaleBanner ready={ready} />
            {canEdit && <PendingBar current={nav} />}
          </>
        }
      >
        {view}
      </Layout>
    </EditingContext.Provider>
  );
}

function describe(whoami: Whoami): string {
  const name = whoami.name ?? whoami.email ?? whoami.kind;
  const roles = whoami.roles?.length ? ` (${whoami.roles.join(', ')})` : '';
  return `Signed in as ${name}${roles}`;
}
