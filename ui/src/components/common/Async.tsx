// What a view shows while its data loads, and when loading failed.
import type { ComponentChildren } from 'preact';
import type { Async } from '../../hooks/use-async.ts';
import { Banner } from './Banner.tsx';

export function Loaded<T>({
  value,
  what,
  children,
}: {
  value: Async<T>;
  what: string;
  children: (value: T) => ComponentChildren;
}) {
  if (value.state === 'loading') {
    return (
      <p class="loading" role="status">
        Loading {what}…
      </p>
    );
  }
  if (value.state === 'error') {
    return (
      <Banner tone="error" title={`Could not load ${what}`}>
        <p>{value.error.message}</p>
      </Banner>
    );
  }
  return <>{children(value.value)}</>;
}
