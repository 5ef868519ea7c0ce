// A CONFIG_REPO carrying secrets in its URL — a password in its user info, a token as a query
// word — run as production runs it (its own process, logs on stdout): neither secret appears
// in the logs, on /ready with or without a token, or on stderr, while the URL itself is shown.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asRepoFiles } from '../../../helpers/fixture-data.ts';
import { makeConfigRepo, tempDir } from '../../../helpers/git-fixture.ts';
import { type GitHttpRemote, startGitHttpRemote } from '../../../helpers/git-http-server.ts';
import { request } from '../../../helpers/http.ts';
import { expectMatchesOpenApi } from '../../../helpers/openapi.ts';
import { startServiceProcess } from '../../../helpers/process.ts';

const USER = 'url-bot';
const PASSWORD = 'pw-in-the-url-83c1';
const TOKEN_IN_QUERY = 'SECRET-query-token-4e9a';
const READ = 'process-token';

let remote: GitHttpRemote;
beforeAll(async () => {
  remote = await startGitHttpRemote({ username: USER, password: PASSWORD });
  remote.publish('with-token', makeConfigRepo(asRepoFiles()));
});
afterAll(() => remote?.close());

describe('secrets in CONFIG_REPO', () => {
  it('never shows the password of the user info or the private_token query word', async () => {
    // The query word makes the remote answer 404 (git http-backend knows no such path), so the
    // sync fails and its error is reported too.
    const url =
      remote.url('with-token').replace('http://', `http://${USER}:${PASSWORD}@`) + `?private_token=${TOKEN_IN_QUERY}`;
    const service = await startServiceProcess({
      CONFIG_REPO: url,
      CONFIG_CLONE_DIR: join(tempDir(), 'clone'),
      CONFIG_SYNC_INTERVAL: '1h',
    });
    try {
      await service.waitForOutput(/config repo sync failed/);
      const open = await request(service.url, '/ready');
      const full = await request(service.url, '/ready', { token: READ });
      expect(open.status).toBe(503);
      expect(full.status).toBe(503);
      await expectMatchesOpenApi('get', '/ready', 503, open.json());
      await expectMatchesOpenApi('get', '/ready', 503, full.json());
      // The URL is shown where it helps, with its secrets replaced.
      expect(full.json().config_repo).toBe(`${remote.url('with-token')}?private_token=***`);
      expect(full.json().last_sync.error).toBeTruthy();
      expect(service.output()).toContain(`"config_repo":"http://***@127.0.0.1:`);
      expect(service.output()).toContain('private_token=***');
      for (const [where, text] of [
        ['the logs', service.output()],
        ['stderr', service.errors()],
        ['/ready', open.text],
        ['/ready with a token', full.text],
      ] as const) {
        expect(text, where).not.toContain(TOKEN_IN_QUERY);
        expect(text, where).not.toContain(PASSWORD);
      }
    } finally {
      await service.stop();
    }
  });
});
