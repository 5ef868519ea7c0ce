// The shapes a setting's value takes (one of a list, a duration, a size), read the same way
// wherever a setting is read: src/config.ts for the service as a whole, and each backend's
// folder in src/store/backends/ for its own. A value that does not parse stops the start
// with one line naming the variable and the forms it takes.
import { byteSize } from './byte-size.ts';
import { ConfigError } from './config-error.ts';
import { durationMs } from './duration.ts';
import type { Env } from './secret-settings.ts';

/** NAME as one of `allowed`; unset or empty is `fallback`. */
export function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ConfigError(`${name}=${value} is not valid; use one of: ${allowed.join(', ')}`);
  }
  return value as T;
}

/** A Go-style duration ("500ms", "30s", "5m", "1h30m") or plain seconds, in whole milliseconds. */
export function parseDuration(name: string, value: string): number {
  const exact = durationMs(value);
  if (exact === undefined) {
    throw new ConfigError(`${name}=${value} is not a duration; use e.g. 500ms, 30s, 5m, 1h30m or plain seconds`);
  }
  const ms = Math.round(exact);
  if (ms <= 0) throw new ConfigError(`${name}=${value} must be at least 1ms`);
  return ms;
}

/** "1mb", "512kb", or plain bytes. */
export function parseByteSize(name: string, value: string): number {
  const bytes = byteSize(value);
  if (bytes === undefined) throw new ConfigError(`${name}=${value} is not a size; use e.g. 1mb, 512kb or plain bytes`);
  return bytes;
}
