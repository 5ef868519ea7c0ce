// Views are addressed by the URL path under /ui/ (the history API), so every view can be
// linked to and the browser's back button works. The service answers the page for every path
// under /ui/, and the page picks the view here.
import { useEffect, useState } from 'preact/hooks';

export const BASE = '/ui/';

export interface Location {
  /** The path below /ui/, decoded segment by segment by the routes, e.g. `clusters/c1`. */
  path: string;
  search: URLSearchParams;
}

const listeners = new Set<() => void>();

function read(): Location {
  const { pathname, search } = window.location;
  return { path: pathname.startsWith(BASE) ? pathname.slice(BASE.length) : '', search: new URLSearchParams(search) };
}

/** The URL of a view: `href('clusters', id)` is /ui/clusters/<id>, each part percent-encoded. */
export function href(...parts: string[]): string {
  return BASE + parts.map(encodeURIComponent).join('/');
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  for (const listener of listeners) listener();
}

/** Changes the query of the current view without a new history entry (filters as they are typed). */
export function replaceSearch(search: URLSearchParams): void {
  const query = search.toString();
  history.replaceState(null, '', window.location.pathname + (query ? `?${query}` : ''));
}

export function useLocation(): Location {
  const [location, setLocation] = useState(read);
  useEffect(() => {
    const update = () => setLocation(read());
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return location;
}

/**
 * Follows links to other views inside the page instead of loading it again. Only a plain
 * click (no modifier, main button, no target) on a link under /ui/ is taken: opening in a new
 * tab and the like keep working as the browser does them.
 */
export function interceptLinks(root: HTMLElement): () => void {
  const onClick = (event: MouseEvent) => {
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    const link = (event.target as Element | null)?.closest?.('a');
    if (!link || link.target || link.hasAttribute('download') || link.origin !== window.location.origin) return;
    if (!link.pathname.startsWith(BASE) || (link.hash && link.pathname === window.location.pathname)) return;
    event.preventDefault();
    navigate(link.pathname + link.search);
  };
  root.addEventListener('click', onClick);
  return () => root.removeEventListener('click', onClick);
}
