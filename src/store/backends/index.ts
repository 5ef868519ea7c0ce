// The store backends, by the name STORE_BACKEND gives. Adding a backend is one folder with its
// BackendKind (its own settings and how it is made; backend-kind.ts) and one line in BACKENDS;
// src/config.ts then reads its settings without a line of its own.
import type { Logger } from 'pino';
import type { Env } from '../../shared/secret-settings.ts';
import { oneOf } from '../../shared/setting-values.ts';
import { StartupError } from '../../shared/startup-error.ts';
import type { Backend } from '../backend.ts';
import type { BackendKind } from './backend-kind.ts';
import { gitKind } from './git-kind.ts';
import { memoryKind } from './memory/memory-kind.ts';
import { type SharedBackendSettings, sharedBackendSettingsFrom } from './shared-settings.ts';
import { sqliteKind } from './sqlite/sqlite-kind.ts';

const BACKENDS = {
  git: gitKind,
  sqlite: sqliteKind,
  memory: memoryKind,
} satisfies Record<string, BackendKind<object>>;

export type BackendName = keyof typeof BACKENDS;
export const BACKEND_NAMES = Object.keys(BACKENDS) as BackendName[];

type OwnSettings<Kind> = Kind extends BackendKind<infer Own> ? Own : never;
/** The union U as one object type with the members of all its parts (the function-parameter trick). */
type AllOf<U> = (U extends unknown ? (part: U) => void : never) extends (all: infer I) => void ? I : never;
/** The own settings of every backend in BACKENDS, as one object type. */
type EveryOwnSettings = AllOf<OwnSettings<(typeof BACKENDS)[BackendName]>>;

/** What the store is made from: the backend chosen, the settings backends share, and every backend's own. */
export type BackendSettings = { backend: BackendName } & SharedBackendSettings & EveryOwnSettings;

/**
 * STORE_BACKEND, and the settings of every backend, not only the one chosen: a mistake in a
 * setting stops the start whichever backend it belongs to (docs/decisions/0040-backends-own-their-settings.md).
 */
export function backendSettingsFrom(env: Env): BackendSettings {
  const backend = oneOf(env, 'STORE_BACKEND', BACKEND_NAMES, 'git');
  const own = BACKEND_NAMES.map((name) => BACKENDS[name].settingsFrom(env));
  return Object.assign({ backend }, sharedBackendSettingsFrom(env), ...own) as BackendSettings;
}

export function createBackend(settings: BackendSettings, log: Logger): Backend {
  if (!Object.hasOwn(BACKENDS, settings.backend)) {
    throw new StartupError(`STORE_BACKEND=${settings.backend} is not known; use one of: ${BACKEND_NAMES.join(', ')}`);
  }
  return BACKENDS[settings.backend].create(settings, log);
}
