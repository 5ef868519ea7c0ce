// Credentials for an HTTP(S) Git remote, and keeping them out of everything that is shown.
import type { AuthCallback } from 'isomorphic-git';
import { redactUrls } from '../../../shared/redact-url.ts';

export interface GitCredentials {
  username: string;
  password: string;
}

/**
 * GIT_TOKEN goes as the password of HTTP Basic auth, which GitHub (personal access tokens,
 * App installation tokens) and GitLab (personal, project and group access tokens) accept;
 * GitLab wants a non-empty user name, for which "oauth2" is its documented choice and
 * GitHub ignores it. GIT_USERNAME overrides that name; GIT_USERNAME + GIT_PASSWORD is plain
 * Basic auth (Gitea, Bitbucket app passwords, a proxy).
 */
export function gitCredentials(options: {
  token?: string;
  username?: string;
  password?: string;
}): GitCredentials | undefined {
  if (options.token) return { username: options.username || 'oauth2', password: options.token };
  if (options.username && options.password) return { username: options.username, password: options.password };
  return undefined;
}

export function authCallbacks(credentials: GitCredentials | undefined): {
  onAuth?: AuthCallback;
  onAuthFailure?: () => { cancel: true };
} {
  if (!credentials) return {};
  // Failing credentials are not offered again: one clear error instead of a retry loop.
  return {
    onAuth: () => ({ username: credentials.username, password: credentials.password }),
    onAuthFailure: () => ({ cancel: true }),
  };
}

/**
 * Credentials written into the URL (https://user:token@host/repo.git) are taken out of it,
 * so that they reach neither logs nor the clone's .git/config; they count as GIT_USERNAME /
 * GIT_PASSWORD when those are not set. The rest of the URL (a query word included) is kept:
 * it is what the remote is fetched from.
 */
export function splitUrlCredentials(url: string): { url: string; credentials: GitCredentials | undefined } {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return { url, credentials: undefined };
    const credentials = {
      username: decodeURIComponent(parsed.username) || 'oauth2',
      password: decodeURIComponent(parsed.password),
    };
    parsed.username = '';
    parsed.password = '';
    return { url: parsed.toString(), credentials };
  } catch {
    return { url, credentials: undefined };
  }
}

/**
 * A text about to be shown (an error of the Git transport, which may quote the URL), with
 * the user info and secret query words of every URL in it and every known credential
 * replaced.
 */
export function redact(text: string, secrets: (string | undefined)[]): string {
  let out = redactUrls(text);
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('***');
  }
  return out;
}
