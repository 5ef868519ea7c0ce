// A value loaded when a view opens and again every so often while it stays open, for views
// that watch something move (a rollout). A refresh replaces the value in place: the view never
// goes back to "Loading…", so nothing it shows flickers, a scrolled table keeps its place, and
// focus stays where it was. A failed refresh keeps the last value and says so. The next load
// starts only after the last one ended, at least `everyMs` later and never sooner than a few
// times the last load took (a large answer is asked for less often); none while the tab is
// hidden, one as soon as it shows again. A new `refreshKey` (raised after a commit) loads at
// once, in place like any refresh.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Async } from './use-async.ts';

/** A polled value: as `Async`, and once loaded, whether the last refresh failed. */
export type Polled<T> = Async<T> & { refreshFailed?: Error };

/** The wait after a load is at least this many times what the load took. */
const SLOWDOWN = 4;

/** A load that stops when the view closes. */
type Load<T> = (signal: AbortSignal) => Promise<T>;

export function usePolled<T>(load: Load<T>, inputs: unknown[], everyMs: number, refreshKey?: unknown): Polled<T> {
  const [result, setResult] = useState<Polled<T>>({ state: 'loading' });
  const refreshNow = useRef<() => void>(() => undefined);
  const lastKey = useRef(refreshKey);
  useEffect(() => {
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let loaded = false;
    let waiting = false;
    /** Asked to load now while a load runs: the next one starts as soon as it ends. */
    let again = false;
    setResult({ state: 'loading' });

    const schedule = (tookMs: number) => {
      waiting = true;
      const delay = again ? 0 : Math.max(everyMs, tookMs * SLOWDOWN);
      again = false;
      timer = setTimeout(() => {
        timer = undefined;
        if (!document.hidden) void once();
      }, delay);
    };
    const once = async () => {
      waiting = false;
      const started = performance.now();
      try {
        const value = await load(abort.signal);
        if (abort.signal.aborted) return;
        loaded = true;
        setResult({ state: 'done', value });
      } catch (error: unknown) {
        if (abort.signal.aborted) return;
        const failure = error instanceof Error ? error : new Error(String(error));
        setResult((last) =>
          loaded && last.state === 'done' ? { ...last, refreshFailed: failure } : { state: 'error', error: failure },
        );
      }
      schedule(performance.now() - started);
    };
    // Back on a hidden tab whose timer ran out meanwhile: load now.
    const onVisible = () => {
      if (!document.hidden && waiting && timer === undefined) void once();
    };
    document.addEventListener('visibilitychange', onVisible);
    refreshNow.current = () => {
      if (timer === undefined) again = true;
      else {
        clearTimeout(timer);
        timer = undefined;
        void once();
      }
    };
    void once();
    return () => {
      abort.abort();
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, inputs);
  useEffect(() => {
    if (lastKey.current === refreshKey) return;
    lastKey.current = refreshKey;
    refreshNow.current();
  }, [refreshKey]);
  return result;
}
