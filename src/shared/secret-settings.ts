// Secrets from the environment, as the service and the command line both read them: a value
// or a file a Kubernetes Secret is mounted as (NAME_FILE), and the keys that sign cluster
// tokens. Kept apart from config.ts, which loads every backend: the command line needs these
// and none of the server's packages.
import { readFileSync } from 'node:fs';
import { ConfigError } from './config-error.ts';

export { ConfigError };

export type Env = Record<string, string | undefined>;

/**
 * A secret from NAME, or from the file named by NAME_FILE (as Kubernetes mounts secrets). An
 * empty value, or an empty file, counts as unset.
 */
export function secretFrom(env: Env, name: string): string | undefined {
  const direct = env[name];
  const file = env[`${name}_FILE`];
  if (direct !== undefined && direct !== '' && file) {
    throw new ConfigError(`${name} and ${name}_FILE are both set; set only one`);
  }
  if (file) {
    try {
      // Trailing newlines come with most secret files and are never part of a token.
      const text = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
      return text === '' ? undefined : text;
    } catch (error) {
      throw new ConfigError(
        `${name}_FILE: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
  }
  return direct === '' ? undefined : direct;
}

/**
 * CLUSTER_TOKEN_KEYS (or _FILE): comma-separated keys that sign cluster tokens, the first one
 * signing, every one verifying. An empty key, or one with whitespace at its ends or a control
 * character, is refused: a key copied with a stray space would sign tokens no one else
 * computes. A key is never echoed.
 */
export function clusterTokenKeysFrom(env: Env): string[] {
  const value = secretFrom(env, 'CLUSTER_TOKEN_KEYS');
  if (value === undefined) return [];
  return value.split(',').map((key, i) => {
    const which = `CLUSTER_TOKEN_KEYS: key ${i + 1}`;
    if (key === '') throw new ConfigError(`${which} is empty; separate keys with single commas`);
    if (/\p{Cc}/u.test(key) || /^\s|\s$/u.test(key))
      throw new ConfigError(`${which} has whitespace at its ends or a control character; remove it`);
    return key;
  });
}

/** Keys shorter than this are logged as a warning at start: HMAC keys should be long and random. */
export const SHORT_KEY_LENGTH = 32;
