// Which view a path under /ui/ shows. A new view (the revisions, a change set's preview) is a
// folder under views/ and a line here.
import type { VNode } from 'preact';
import type { ApiClient } from '../api/client.ts';
import { CatalogPage } from '../views/catalog/CatalogPage.tsx';
import { ClusterPage } from '../views/cluster/ClusterPage.tsx';
import { FleetPage } from '../views/fleet/FleetPage.tsx';
import { NamespacesPage } from '../views/namespaces/NamespacesPage.tsx';
import { NotFoundPage } from '../views/not-found/NotFoundPage.tsx';
import { RoleBindingsPage } from '../views/rolebindings/RoleBindingsPage.tsx';
import { BASE, href, type Location } from './router.ts';

export interface Routed {
  /** The nav entry to mark as current. */
  nav: string | undefined;
  view: VNode;
}

export function route(location: Location, client: ApiClient): Routed {
  const parts = location.path.split('/').filter((part) => part !== '');
  const [first, second] = parts;
  if (parts.length === 0) return { nav: BASE, view: <FleetPage client={client} location={location} /> };
  if (first === 'clusters' && parts.length === 2) {
    const id = decodePart(second!);
    if (id !== undefined) return { nav: BASE, view: <ClusterPage key={id} client={client} id={id} /> };
  }
  if (parts.length === 1 && first === 'catalog') return { nav: href('catalog'), view: <CatalogPage client={client} /> };
  if (parts.length === 1 && first === 'namespaces') return { nav: href('namespaces'), view: <NamespacesPage client={client} /> };
  if (parts.length === 1 && first === 'rolebindings') return { nav: href('rolebindings'), view: <RoleBindingsPage client={client} /> };
  return { nav: undefined, view: <NotFoundPage path={location.path} /> };
}

function decodePart(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}
