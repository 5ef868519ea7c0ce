// STORE_BACKEND=git is two backends, one per folder: CONFIG_REPO a folder is a local checkout
// (git-local/), an http(s) URL a remote cloned (git-remote/). Both read their settings
// whichever CONFIG_REPO names, so that a mistake in either stops the start before the repo is
// changed from one form to the other.
import type { Env } from '../../shared/secret-settings.ts';
import type { BackendKind } from './backend-kind.ts';
import { type LocalGitSettings, localGitKind } from './git-local/local-git-kind.ts';
import { type RemoteGitSettings, remoteGitKind } from './git-remote/remote-git-kind.ts';

export type GitSettings = LocalGitSettings & RemoteGitSettings;

export const gitKind: BackendKind<GitSettings> = {
  settingsFrom: (env: Env) => ({ ...localGitKind.settingsFrom(env), ...remoteGitKind.settingsFrom(env) }),
  create: (settings, log) => (isRemote(settings.configRepo) ? remoteGitKind : localGitKind).create(settings, log),
};

/** Whether CONFIG_REPO names a remote (http or https) rather than a folder. */
function isRemote(configRepo: string): boolean {
  return /^https?:\/\//.test(configRepo);
}
