// Durations in settings, written as Go writes them (the Flux and Kubernetes tools these
// settings sit next to use Go's syntax): "500ms", "30s", "5m", "1h30m", "2m30s", "1.5h".
// A plain number is seconds, as it always was here. parse-duration does the arithmetic;
// the shape is checked first, because it also reads prose ("1 hour") and negative values,
// which a setting should refuse rather than guess at.
import parse from 'parse-duration';

const GO_DURATION = /^(?:\d+(?:\.\d+)?|\.\d+)(?:ns|us|µs|ms|s|m|h)(?:(?:\d+(?:\.\d+)?|\.\d+)(?:ns|us|µs|ms|s|m|h))*$/;
const PLAIN_SECONDS = /^\d+(?:\.\d+)?$/;

/** Milliseconds, or undefined when `text` is not a duration. */
export function durationMs(text: string): number | undefined {
  const value = text.trim();
  if (PLAIN_SECONDS.test(value)) return Number(value) * 1000;
  if (!GO_DURATION.test(value)) return undefined;
  const ms = parse(value, 'ms');
  return ms === null || ms === undefined || !Number.isFinite(ms) ? undefined : ms;
}
