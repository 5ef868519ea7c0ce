// What the list of backends (index.ts) holds for each name STORE_BACKEND takes: how that
// backend reads its own settings from the environment, and how it is made from them. The
// settings several backends share are read once, in shared-settings.ts, and handed to
// `create` beside the backend's own.
import type { Logger } from 'pino';
import type { Env } from '../../shared/secret-settings.ts';
import type { Backend } from '../backend.ts';
import type { SharedBackendSettings } from './shared-settings.ts';

export interface BackendKind<Own extends object> {
  /**
   * The backend's own settings: names, defaults, parsing. A value that does not parse throws
   * ConfigError naming the variable; nothing is opened or read from disk here.
   */
  settingsFrom(env: Env): Own;
  /**
   * The backend, not opened yet (the runner opens it). A setting that cannot work with another
   * (a read-only database in crud mode) throws StartupError here.
   */
  create(settings: Own & SharedBackendSettings, log: Logger): Backend;
}
