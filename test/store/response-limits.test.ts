// A response the consumer would cut at 900 KiB is never published: the revision that would
// hold it is refused like any other error, and the validator says the same.
import { afterEach, expect, it } from 'vitest';
import { asRepoFiles, asSeedFile, fixtureData } from '../helpers/fixture-data.ts';
import { commitAll, makeConfigRepo, writeFiles } from '../helpers/git-fixture.ts';
import { eventually, request } from '../helpers/http.ts';
import { READ_TOKEN, startTestService, type TestService } from '../helpers/service.ts';
import { runTool } from '../helpers/run-tool.ts';

// Ten catalog entries of ~100 KB each (every file well under MAX_RECORD_BYTES), all of them
// assigned to one cluster: its platform-components answer passes 900 KiB.
const heavy = Array.from({ length: 10 }, (_, i) => ({
  id: `heavy-${i}`,
  component_path: `charts/${'x'.repeat(100_000)}`,
  component_version: '1.0.0',
  oci_url: 'oci://example.com/charts',
  oci_tag: '1.0.0',
}));
const oversized = fixtureData.clusters.map((c: any) =>
  c.id === 'c1'
    ? { ...c, platform_components: [...c.platform_components, ...heavy.map((h) => ({ id: h.id, enabled: true }))] }
    : c,
);
const oversizedFiles = Object.fromEntries(heavy.map((h) => [`platform_components/${h.id}.yaml`, h]));
const PC = '/api/v2/gitops/clusters/c1.k8s.example.com/platform-components';

let service: TestService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

it('refuses a revision with a response over 900 KiB, keeps the last good one, and validate agrees', async () => {
  const dir = makeConfigRepo(asRepoFiles());
  service = await startTestService({ CONFIG_REPO: dir });
  const good = await request(service.url, PC, { token: READ_TOKEN });
  writeFiles(dir, { ...oversizedFiles, 'clusters/c1.yaml': oversized.find((c: any) => c.id === 'c1') });
  const head = commitAll(dir, 'a huge patch');
  await eventually(
    async () => (await request(service!.url, '/ready', { token: READ_TOKEN })).json().last_load?.revision === head,
    20_000,
  );
  const ready = (await request(service.url, '/ready', { token: READ_TOKEN })).json();
  expect(ready).toMatchObject({ stale: true, revision: good.headers['x-config-revision'] });
  expect(ready.last_load.problems).toContainEqual(
    expect.objectContaining({ code: 'response_too_large', record: 'clusters/c1' }),
  );
  const still = await request(service.url, PC, { token: READ_TOKEN });
  expect(still.status).toBe(200);
  expect(still.body.equals(good.body)).toBe(true);

  const validate = await runTool(['validate', dir]);
  expect(validate.status).toBe(1);
  expect(validate.stdout).toMatch(
    /clusters\/c1\.yaml:\d+:\d+: error: its platform-components response would be \d+ bytes, over the consumer's 900 KiB limit/,
  );
});

it('a seed the service would never serve stops the start of the memory backend, naming the problem', async () => {
  const data = {
    ...fixtureData,
    clusters: oversized,
    platform_components: [...fixtureData.platform_components, ...heavy],
  };
  await expect(startTestService({ STORE_BACKEND: 'memory', SEED_FILE: asSeedFile(data) })).rejects.toThrow(
    /the data cannot be served .*clusters\/c1: its platform-components response would be \d+ bytes/,
  );
});
