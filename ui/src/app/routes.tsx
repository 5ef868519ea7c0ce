// Which view a path under /ui/ shows. A new view is a folder under views/ and a line here.
import type { VNode } from 'preact';
import type { ApiClient } from '../api/client.ts';
import { CALLBACK_PATH } from '../auth/oidc-sign-in.ts';
import { BASE, href, type Location } from '../router/router.ts';
import { CatalogPage } from '../views/catalog/CatalogPage.tsx';
import { ChangesPage } from '../views/changes/ChangesPage.tsx';
import { ClusterPage } from '../views/cluster/ClusterPage.tsx';
import { DefinitionPage } from '../views/definitions/DefinitionPage.tsx';
import { NAMESPACES } from '../views/definitions/namespaces.tsx';
import { ROLE_BINDINGS } from '../views/definitions/rolebindings.tsx';
import { FleetPage } from '../views/fleet/FleetPage.tsx';
import { NotFoundPage } from '../views/not-found/NotFoundPage.tsx';
import { RevisionsPage } from '../views/revisions/RevisionsPage.tsx';
import { RolloutPage } from '../views/rollouts/RolloutPage.tsx';
import { RolloutsPage } from '../views/rollouts/RolloutsPage.tsx';
import { RolloutStartPage } from '../views/rollout-start/RolloutStartPage.tsx';

export interface Routed {
  /** The nav entry to mark as current. */
  nav: string | undefined;
  view: VNode;
}

export function route(location: Location, client: ApiClient): Routed {
  const parts = location.path.split('/').filter((part) => part !== '');
  const [first, second] = parts;
  // The issuer's way back after a sign-in: once signed in, the fleet.
  if (parts.length === 0 || (parts.length === 1 && first === CALLBACK_PATH))
    return { nav: BASE, view: <FleetPage client={client} location={location} /> };
  if (first === 'clusters' && parts.length === 2) {
    const id = decodePart(second);
    if (id !== undefined) return { nav: BASE, view: <ClusterPage key={id} client={client} id={id} /> };
  }
  if (parts.length === 1 && first === 'catalog') return { nav: href('catalog'), view: <CatalogPage client={client} /> };
  if (first === 'catalog' && parts.length === 3 && parts[2] === 'rollout') {
    const id = decodePart(second);
    if (id !== undefined)
      return { nav: href('catalog'), view: <RolloutStartPage key={id} client={client} component={id} /> };
  }
  if (parts.length === 1 && first === 'namespaces')
    return { nav: href('namespaces'), view: <DefinitionPage key="namespaces" client={client} kind={NAMESPACES} /> };
  if (parts.length === 1 && first === 'rolebindings')
    return {
      nav: href('rolebindings'),
      view: <DefinitionPage key="rolebindings" client={client} kind={ROLE_BINDINGS} />,
    };
  if (parts.length === 1 && first === 'rollouts') {
    return { nav: href('rollouts'), view: <RolloutsPage client={client} /> };
  }
  if (first === 'rollouts' && parts.length === 2) {
    const id = decodePart(second);
    if (id !== undefined) {
      return { nav: href('rollouts'), view: <RolloutPage key={id} client={client} id={id} location={location} /> };
    }
  }
  if (parts.length === 1 && first === 'revisions')
    return { nav: href('revisions'), view: <RevisionsPage client={client} /> };
  if (parts.length === 1 && first === 'changes') return { nav: href('changes'), view: <ChangesPage client={client} /> };
  return { nav: undefined, view: <NotFoundPage path={location.path} /> };
}

function decodePart(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}
