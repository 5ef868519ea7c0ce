import { describe, expect, it } from 'vitest';
import { gitCredentials, redact, splitUrlCredentials } from '../../../../src/store/backends/git-remote/remote-auth.ts';

describe('Git remote credentials', () => {
  it('sends GIT_TOKEN as the Basic password, with user name oauth2 unless GIT_USERNAME is set', () => {
    expect(gitCredentials({ token: 'tok' })).toEqual({ username: 'oauth2', password: 'tok' });
    expect(gitCredentials({ token: 'tok', username: 'x-access-token' })).toEqual({
      username: 'x-access-token',
      password: 'tok',
    });
    expect(gitCredentials({ username: 'u', password: 'p' })).toEqual({ username: 'u', password: 'p' });
    expect(gitCredentials({})).toBeUndefined();
  });

  it('takes credentials out of a URL', () => {
    expect(splitUrlCredentials('https://bot:s3cret@git.example.com/fleet.git')).toEqual({
      url: 'https://git.example.com/fleet.git',
      credentials: { username: 'bot', password: 's3cret' },
    });
    expect(splitUrlCredentials('https://git.example.com/fleet.git')).toEqual({
      url: 'https://git.example.com/fleet.git',
      credentials: undefined,
    });
    // A query word stays in the URL that is fetched: the host may need it.
    expect(splitUrlCredentials('https://bot:s3cret@git.example.com/fleet.git?private_token=t0k3n').url).toBe(
      'https://git.example.com/fleet.git?private_token=t0k3n',
    );
  });

  it('removes user info and secrets from anything shown', () => {
    expect(
      redact('fetch https://bot:s3cret@git.example.com/x?private_token=abc failed; token s3cret-token', [
        's3cret-token',
      ]),
    ).toBe('fetch https://***@git.example.com/x?private_token=*** failed; token ***');
  });
});
