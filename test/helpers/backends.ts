// One data set, served by each of the four backends: YAML files in a local Git repository
// (git), the same files pushed to a real smart-HTTP Git remote on loopback and cloned by the
// service (git-remote), a seed file (memory), and a seed file loaded into a new SQLite
// database (sqlite). Parity tests start the same suite on each.
import { join } from 'node:path';
import type { DataSet } from '../fixtures/example-repo.ts';
import { asRepoFiles, asSeedFile, fixtureData } from './fixture-data.ts';
import { makeConfigRepo, type RepoFiles, tempDir } from './git-fixture.ts';
import { type GitHttpRemote, startGitHttpRemote } from './git-http-server.ts';
import { startTestService, type TestService } from './service.ts';
import { tempDatabase } from './sqlite.ts';

export const BACKENDS = ['git', 'git-remote', 'memory', 'sqlite'] as const;
export type Backend = (typeof BACKENDS)[number];

export { type DataSet, exampleRepoData, exampleRepoFiles, referenceSeedData } from '../fixtures/example-repo.ts';

export const REMOTE_USER = 'config-bot';
export const REMOTE_PASSWORD = 'remote-password-for-tests';
export const WEBHOOK_SECRET = 'webhook-secret-for-tests';

let sharedRemote: Promise<GitHttpRemote> | undefined;
let remoteRepos = 0;

/** The smart-HTTP Git remote of this test file (started on first use; it ends with the worker). */
export function gitRemote(): Promise<GitHttpRemote> {
  sharedRemote ??= startGitHttpRemote({ username: REMOTE_USER, password: REMOTE_PASSWORD });
  return sharedRemote;
}

/** A backend made ready to serve a data set, with what a test needs to act on its store. */
export interface PreparedBackend {
  backend: Backend;
  env: Record<string, string>;
  /** git: the config repo the service serves. */
  dir?: string;
  /** git-remote: the repository on the remote, and a clone of it for "another engineer". */
  remote?: { name: string; work: string; server: GitHttpRemote };
  /** sqlite: the database file. */
  dbPath?: string;
}

export async function prepareBackend(
  backend: Backend,
  data: DataSet = fixtureData,
  files: RepoFiles = asRepoFiles(data),
): Promise<PreparedBackend> {
  switch (backend) {
    case 'git': {
      const dir = makeConfigRepo(files);
      return { backend, dir, env: { STORE_BACKEND: 'git', CONFIG_REPO: dir } };
    }
    case 'git-remote': {
      const server = await gitRemote();
      const name = `config-${++remoteRepos}`;
      server.publish(name, makeConfigRepo(files));
      const work = join(tempDir(), 'work');
      server.cloneTo(name, work);
      const env = {
        STORE_BACKEND: 'git',
        CONFIG_REPO: server.url(name),
        GIT_USERNAME: REMOTE_USER,
        GIT_PASSWORD: REMOTE_PASSWORD,
        CONFIG_CLONE_DIR: join(tempDir(), 'clone'),
        // Changes made on the remote are announced by the webhook in tests, never waited for.
        CONFIG_SYNC_INTERVAL: '1h',
        WEBHOOK_SECRET,
      };
      return { backend, remote: { name, work, server }, env };
    }
    case 'memory':
      return { backend, env: { STORE_BACKEND: 'memory', SEED_FILE: asSeedFile(data) } };
    case 'sqlite': {
      const { path, url } = tempDatabase('rwc', '&busy_timeout=300');
      return {
        backend,
        dbPath: path,
        env: { STORE_BACKEND: 'sqlite', SEED_FILE: asSeedFile(data), DATABASE_URL: url },
      };
    }
  }
}

/** The environment that makes `backend` serve `data`. */
export async function backendEnv(backend: Backend, data: DataSet = fixtureData): Promise<Record<string, string>> {
  return (await prepareBackend(backend, data)).env;
}

export async function startBackend(
  backend: Backend,
  data: DataSet = fixtureData,
  env: Record<string, string> = {},
): Promise<TestService> {
  return startTestService({ ...(await backendEnv(backend, data)), ...env });
}
