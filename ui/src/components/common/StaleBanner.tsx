// Shown on every view while /ready says the newest revision was refused and an older one is
// still served: what the clusters get is not what the repository holds.
import { useEffect, useState } from 'preact/hooks';
import type { ApiClient } from '../../api/client.ts';
import { fetchReady } from '../../api/endpoints.ts';
import type { ReadyBody } from '../../api/types.ts';
import { Banner } from './Banner.tsx';

/** How often /ready is asked again while a view is open. */
const EVERY_MS = 30_000;

export function useReady(client: ApiClient, path: string): ReadyBody | undefined {
  const [ready, setReady] = useState<ReadyBody | undefined>(undefined);
  useEffect(() => {
    let current = true;
    const ask = () =>
      fetchReady(client).then(
        (body) => current && setReady(body),
        () => undefined,
      );
    void ask();
    const timer = setInterval(ask, EVERY_MS);
    return () => {
      current = false;
      clearInterval(timer);
    };
  }, [client, path]);
  return ready;
}

export function StaleBanner({ ready }: { ready: ReadyBody | undefined }) {
  if (!ready) return null;
  if (ready.status !== 'ok') {
    return (
      <div class="banner-row">
        <Banner tone="error" title="No configuration is served">
          <p>{ready.message ?? 'The service has not loaded a configuration yet.'}</p>
        </Banner>
      </div>
    );
  }
  if (!ready.stale) return null;
  const load = ready.last_load;
  const counts = load?.problem_counts;
  const problems = load?.problems ?? [];
  return (
    <div class="banner-row">
      <Banner tone="warning" title="Stale: the newest revision was refused">
        <p>
          The newest revision {load?.revision ? <code>{load.revision}</code> : 'of the store'} was refused
          {counts
            ? ` (${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')})`
            : load?.reason
              ? ` (${load.reason})`
              : ''}
          ; the service still serves <code>{ready.revision}</code>.
        </p>
        {problems.length > 0 && (
          <details>
            <summary>Problems of the refused revision</summary>
            <ul class="problems">
              {problems.slice(0, 50).map((problem) => (
                <li>
                  <code>{problem.at ?? ''}</code> {problem.severity}: {problem.message}
                </li>
              ))}
            </ul>
          </details>
        )}
      </Banner>
    </div>
  );
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}
