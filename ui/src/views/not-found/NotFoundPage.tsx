import { useTitle } from '../../hooks/use-title.ts';
import { BASE } from '../../router/router.ts';

export function NotFoundPage({ path }: { path: string }) {
  useTitle('Not found');
  return (
    <>
      <h1 tabIndex={-1}>Not found</h1>
      <p>
        The UI has no view at <code>/ui/{path}</code>. Go to <a href={BASE}>the fleet</a>.
      </p>
    </>
  );
}
