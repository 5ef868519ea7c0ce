// The frame of every view: a skip link, the header with the service's name, the views' links
// and who is signed in, the stale banner, and the view itself in <main>.
import type { ComponentChildren } from 'preact';
import { BASE, href } from '../../router/router.ts';

export interface NavItem {
  label: string;
  path: string;
}

export const NAV: NavItem[] = [
  { label: 'Fleet', path: BASE },
  { label: 'Catalog', path: href('catalog') },
  { label: 'Rollouts', path: href('rollouts') },
  { label: 'Namespaces', path: href('namespaces') },
  { label: 'Role bindings', path: href('rolebindings') },
  { label: 'Revisions', path: href('revisions') },
];

/** Shown to a person who may edit: the pending change set, its preview and commit. */
const CHANGES: NavItem = { label: 'Changes', path: href('changes') };

export interface LayoutProps {
  /** The nav item of the view shown, for aria-current. */
  current: string | undefined;
  /** Who is signed in, and the sign-out control; absent on the sign-in page. */
  session?: ComponentChildren;
  /** The person may edit: the Changes view is offered. */
  canEdit?: boolean;
  banner?: ComponentChildren;
  children: ComponentChildren;
}

export function Layout({ current, session, canEdit, banner, children }: LayoutProps) {
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <a class="brand" href={BASE}>
          gitops-config-api
        </a>
        {session && (
          <nav aria-label="Views">
            <ul>
              {(canEdit ? [...NAV, CHANGES] : NAV).map((item) => (
                <li>
                  <a href={item.path} aria-current={item.path === current ? 'page' : undefined}>
                    {item.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        )}
        {session && <div class="session">{session}</div>}
      </header>
      {banner}
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
