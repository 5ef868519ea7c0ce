// A value loaded when a view opens (and again when its inputs change); a load overtaken by a
// newer one is dropped, so a slow answer never overwrites a newer view.
import { useEffect, useState } from 'preact/hooks';

export type Async<T> = { state: 'loading' } | { state: 'done'; value: T } | { state: 'error'; error: Error };

export function useAsync<T>(load: () => Promise<T>, inputs: unknown[]): Async<T> {
  const [result, setResult] = useState<Async<T>>({ state: 'loading' });
  useEffect(() => {
    let current = true;
    setResult({ state: 'loading' });
    load().then(
      (value) => current && setResult({ state: 'done', value }),
      (error: unknown) =>
        current && setResult({ state: 'error', error: error instanceof Error ? error : new Error(String(error)) }),
    );
    return () => {
      current = false;
    };
  }, inputs);
  return result;
}
