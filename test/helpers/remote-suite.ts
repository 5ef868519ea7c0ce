// A smart-HTTP Git remote for a test file (git http-backend on loopback, ./git-http-server.ts):
// started before the file's first test, closed after its last, with repos made on it under
// names of their own and a clone of each to push from, as another engineer would.
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { asRepoFiles } from './fixture-data.ts';
import { git, makeConfigRepo, type RepoFiles, tempDir, writeFiles } from './git-fixture.ts';
import { type GitHttpRemote, startGitHttpRemote } from './git-http-server.ts';

export interface RemoteRepo {
  name: string;
  url: string;
  /** A clone to push from. */
  work: string;
}

export interface RemoteSuite {
  /** The remote (set once the file's tests run). */
  readonly remote: GitHttpRemote;
  /** A new repo `<prefix>-<n>` on the remote holding `files` (the fixture by default). */
  newRepo(prefix: string, files?: RepoFiles): RemoteRepo;
}

export function gitRemoteSuite(credentials: { username: string; password: string }): RemoteSuite {
  let remote: GitHttpRemote | undefined;
  let count = 0;
  beforeAll(async () => {
    remote = await startGitHttpRemote(credentials);
  });
  afterAll(() => remote?.close());
  return {
    get remote() {
      if (!remote) throw new Error('the remote starts before the first test');
      return remote;
    },
    newRepo(prefix, files = asRepoFiles()) {
      const name = `${prefix}-${++count}`;
      this.remote.publish(name, makeConfigRepo(files));
      const work = join(tempDir(), 'work');
      this.remote.cloneTo(name, work);
      return { name, url: this.remote.url(name), work };
    },
  };
}

/** Commits the files in a clone and pushes them to its remote's main; the new commit. */
export function pushFiles(work: string, files: RepoFiles, message: string): string {
  writeFiles(work, files);
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '-m', message);
  git(work, 'push', '-q', 'origin', 'HEAD:main');
  return git(work, 'rev-parse', 'HEAD');
}
