// The store backends, by the name STORE_BACKEND gives. Adding a backend is one folder here and
// one line in BACKENDS.
import type { Logger } from 'pino';
import { StartupError } from '../../shared/startup-error.ts';
import type { Backend } from '../backend.ts';
import { LocalGitBackend } from './git-local/local-git-backend.ts';
import { gitCredentials, splitUrlCredentials } from './git-remote/remote-auth.ts';
import { RemoteGitBackend } from './git-remote/remote-git-backend.ts';
import { MemoryBackend } from './memory/memory-backend.ts';
import { parseSqliteDsn } from './sqlite/dsn.ts';
import { SqliteBackend } from './sqlite/sqlite-backend.ts';
import type { BackendSettings } from './settings.ts';

type BackendFactory = (config: BackendSettings, log: Logger) => Backend;

const BACKENDS = {
  git: gitBackend,
  sqlite: sqliteBackend,
  memory: (config) => new MemoryBackend({ seedFile: config.seedFile }),
} satisfies Record<string, BackendFactory>;

export type BackendName = keyof typeof BACKENDS;
export const BACKEND_NAMES = Object.keys(BACKENDS) as BackendName[];

export function createBackend(config: BackendSettings, log: Logger): Backend {
  if (!Object.hasOwn(BACKENDS, config.backend)) throw new StartupError(`STORE_BACKEND=${config.backend} is not known; use one of: ${BACKEND_NAMES.join(', ')}`);
  return BACKENDS[config.backend as BackendName](config, log);
}

/** A local directory, or an http(s) URL cloned into CONFIG_CLONE_DIR. */
function gitBackend(config: BackendSettings, log: Logger): Backend {
  const author = { name: config.gitAuthorName, email: config.gitAuthorEmail };
  if (!/^https?:\/\//.test(config.configRepo)) {
    return new LocalGitBackend({
      dir: config.configRepo,
      log,
      writable: config.apiMode === 'crud',
      author,
      maxRecordBytes: config.maxRecordBytes,
      lockTimeoutMs: config.gitLockTimeoutMs,
    });
  }
  const fromUrl = splitUrlCredentials(config.configRepo);
  return new RemoteGitBackend({
    url: fromUrl.url,
    branch: config.configBranch,
    cloneDir: config.cloneDir,
    syncIntervalMs: config.syncIntervalMs,
    credentials: gitCredentials({ token: config.gitToken, username: config.gitUsername, password: config.gitPassword }) ?? fromUrl.credentials,
    log,
    author,
    maxRecordBytes: config.maxRecordBytes,
  });
}

function sqliteBackend(config: BackendSettings, log: Logger): Backend {
  const dsn = parseSqliteDsn(config.databaseUrl);
  if (dsn.mode === 'ro' && config.apiMode === 'crud') {
    throw new StartupError(
      'DATABASE_URL opens the database read-only (mode=ro), but API_MODE=crud writes to it; use mode=rw or mode=rwc, or API_MODE=read-only',
    );
  }
  return new SqliteBackend({ dsn, seedFile: config.seedFile, log });
}
