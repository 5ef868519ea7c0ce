import { useEffect } from 'preact/hooks';

/** The browser tab's title for a view. */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · gitops-config-api`;
  }, [title]);
}
