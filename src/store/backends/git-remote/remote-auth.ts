// Credentials for an HTTP(S) Git remote, and keeping them out of everything that is shown.
import type { AuthCallback } from 'isomorphic-git';

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
export function gitCredentials(options: { token?: string; username?: string; password?: string }): GitCredentials | undefined {
  if (options.token) return { username: options.username || 'oauth2', password: options.token };
  if (options.username && options.password) return { username: options.username, password: options.password };
  return undefined;
}

export function authCallbacks(credentials: GitCredentials | undefined): { onAuth?: AuthCallback; onAuthFailure?: () => { cancel: true } } {
  if (!credentials) return {};
  // Failing credentials are not offered again: one clear error instead of a retry loop.
  return { onAuth: () => ({ username: credentials.username, password: credentials.password }), onAuthFailure: () => ({ cancel: true }) };
}

/**
 * Credentials written into the URL (https://user:token@host/repo.git) are taken out of it,
 * so that they reach neither logs nor the clone's .git/config; they count as GIT_USERNAME /
 * GIT_PASSWORD when those are not set.
 */
export function splitUrlCredentials(url: string): { url: string; credentials: GitCredentials | undefined } {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return { url, credentials: undefined };
    const credentials = { username: decodeURIComponent(parsed.username) || 'oauth2', password: decodeURIComponent(parsed.password) };
    return { url: redactUrl(url), credentials };
  } catch {
    return { url, credentials: undefined };
  }
}

/** The URL as it may be shown: user name and password removed. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//');
  }
}

/** Removes every secret, and any user info of a URL, from a text that is about to be shown. */
export function redact(text: string, secrets: (string | undefined)[]): string {
  let out = text.replace(/(https?:\/\/)[^@\s/]*@/g, '$1');
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  return out;
}
