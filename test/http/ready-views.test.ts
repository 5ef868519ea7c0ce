// /ready is public (the kubelet probes it without credentials), so it shows everyone only
// states and counts: ready or not, the revision served and the one refused, how many problems
// of which severity and code. The problems themselves — whose messages quote the config's
// values, a password in a patch included — paths and error texts are shown only to a caller
// with a token, Bearer or Basic, read or write.
import { afterEach, describe, expect, it } from 'vitest';
import { asRepoFiles } from '../helpers/fixture-data.ts';
import { makeConfigRepo, writeFiles } from '../helpers/git-fixture.ts';
import { eventually, request } from '../helpers/http.ts';
import { expectMatchesOpenApi } from '../helpers/openapi.ts';
import { READ_TOKEN, startTestService, type TestService, WRITE_TOKEN } from '../helpers/service.ts';

const PASSWORD_VALUE = '987654321987';
let service: TestService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

const basic = (password: string) => `Basic ${Buffer.from(`anyone:${password}`).toString('base64')}`;

describe('/ready', () => {
  it('shows counts to everyone and the problems, paths and values only with a token', async () => {
    const files = asRepoFiles();
    const dir = makeConfigRepo(files);
    service = await startTestService({ CONFIG_REPO: dir, API_MODE: 'crud', CRUD_AUTH_TOKEN: WRITE_TOKEN });
    const served = (await request(service.url, '/ready')).json().revision;

    // A database password in a patch, unquoted: YAML reads a number, the schema wants a string.
    const c1 = files['clusters/c1.yaml'] as Record<string, any>;
    const withPassword = { ...c1, patches: { ...c1.patches, podinfo: { 'db.password': 'PLACEHOLDER' } } };
    writeFiles(dir, {
      'clusters/c1.yaml': `${JSON.stringify(withPassword).replace('"PLACEHOLDER"', PASSWORD_VALUE)}\n`,
    });
    await eventually(async () => (await request(service!.url, '/ready')).json().stale === true, 3000);

    const open = await request(service.url, '/ready');
    expect(open.status).toBe(200);
    expect(open.json()).toEqual({
      status: 'ok',
      backend: 'git',
      view: 'public',
      revision: served,
      loaded_at: expect.any(String),
      clusters: 2,
      stale: true,
      last_load: {
        at: expect.any(String),
        ok: false,
        revision: expect.stringMatching(/\+dirty\./),
        problem_counts: { error: 1, warning: 0 },
        problem_codes: ['wrong_type'],
      },
      git_repository: true,
    });
    expect(open.text).not.toContain(PASSWORD_VALUE);
    expect(open.text).not.toContain('password');
    expect(open.text).not.toContain(dir);
    await expectMatchesOpenApi('get', '/ready', 200, open.json());
    // A wrong token is no error on a probe: the public view.
    for (const authorization of ['Bearer not-a-token', basic('not-a-token'), 'Basic %%%']) {
      const wrong = await request(service.url, '/ready', { headers: { authorization } });
      expect(wrong.status, authorization).toBe(200);
      expect(wrong.json(), authorization).toEqual(open.json());
    }

    for (const authorization of [
      `Bearer ${READ_TOKEN}`,
      basic(READ_TOKEN),
      `Bearer ${WRITE_TOKEN}`,
      basic(WRITE_TOKEN),
    ]) {
      const full = await request(service.url, '/ready', { headers: { authorization } });
      const body = full.json();
      expect(body, authorization).toMatchObject({
        view: 'full',
        stale: true,
        config_repo: dir,
        last_load: { ok: false, problem_counts: { error: 1, warning: 0 } },
      });
      expect(body.last_load.problems, authorization).toEqual([
        expect.objectContaining({
          code: 'wrong_type',
          file: 'clusters/c1.yaml',
          field: '/patches/podinfo/db.password',
          message: `must be a string (quote it: "${PASSWORD_VALUE}")`,
        }),
      ]);
      await expectMatchesOpenApi('get', '/ready', 200, body);
    }
  });
});
