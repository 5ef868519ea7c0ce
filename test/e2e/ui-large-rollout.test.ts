// A rollout of 50,000 clusters on its page, in a real Chromium against the real service: the
// clusters' table holds only the rows in view, a search finds one cluster among all, the end of
// the list is reached by scrolling, and the page's refreshes (each a 50,000-cluster answer)
// leave it where it was. The time until the first rows is printed; the targets are the
// benchmark's, on a quiet machine.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fleetClusterId, signedInPage } from '../../scripts/bench/ui-fleet.ts';
import { ENVIRONMENTS } from '../../src/domain/records.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { removeDir, tempDir } from '../helpers/git-fixture.ts';
import { request } from '../helpers/http.ts';
import { READ_TOKEN, startTestService, type TestService } from '../helpers/service.ts';

const CLUSTERS = 50_000;
const ID = 'podinfo-7';

let browser: Browser;
let service: TestService;
let dir: string;

/** Every cluster uses podinfo; its rollout has a canary of one cluster, then the rest in tenths. */
function writeRolloutSeed(file: string): void {
  const clusters = Array.from({ length: CLUSTERS }, (_, i) => ({
    _id: fleetClusterId(i),
    cluster_name: fleetClusterId(i),
    cluster_dns: `${fleetClusterId(i)}.fleet.example.com`,
    environment: ENVIRONMENTS[i % ENVIRONMENTS.length],
    platform_components: [{ id: 'podinfo', enabled: true }],
  }));
  const podinfo = {
    _id: 'podinfo',
    component_path: 'podinfo',
    component_version: '6.7.1',
    oci_url: 'oci://ghcr.io/stefanprodan/charts',
    oci_tag: '6.7.1',
    cluster_env_enabled: false,
    depends_on: [],
  };
  const rollout = {
    _id: ID,
    component: 'podinfo',
    set: { component_version: '7.0.0', oci_tag: '7.0.0' },
    released: 2,
    waves: [
      { name: 'canary', clusters: [fleetClusterId(0)] },
      { name: 'all', environments: ENVIRONMENTS, batch: '10%' },
    ],
  };
  const seed = { clusters, platform_components: [podinfo], namespaces: [], rolebindings: [], rollouts: [rollout] };
  writeFileSync(file, JSON.stringify(seed));
}

beforeAll(async () => {
  dir = tempDir('ui-large-rollout-');
  const seed = join(dir, 'seed.json');
  writeRolloutSeed(seed);
  [browser, service] = await Promise.all([
    launchBrowser(),
    startTestService({ STORE_BACKEND: 'memory', SEED_FILE: seed, LOG_LEVEL: 'warn' }),
  ]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
  removeDir(dir);
});

describe(`a rollout of ${CLUSTERS.toLocaleString('en')} clusters`, () => {
  it('shows its clusters in few rows of the page, finds one by search, and keeps its place on refresh', async () => {
    const answer = await request(service.url, `/api/v2/gitops/rollouts/${ID}`, { token: READ_TOKEN });
    expect(answer.status).toBe(200);
    console.log(`the rollout's answer: ${(answer.text.length / 1e6).toFixed(1)} MB`);
    const page = await signedInPage(browser, service.url, READ_TOKEN);
    const started = Date.now();
    await page.goto(`${service.url}/ui/rollouts/${ID}`);
    const shown = `Showing ${CLUSTERS.toLocaleString('en')} of ${CLUSTERS.toLocaleString('en')} clusters`;
    await page.getByText(shown).waitFor({ timeout: 30_000 });
    await page.getByRole('link', { name: fleetClusterId(0), exact: true }).waitFor();
    console.log(`${CLUSTERS} clusters: first rows ${Date.now() - started} ms after navigation (signed in before)`);
    expect(await page.locator('tr.vrow').count()).toBeLessThan(100);
    // Steps: the canary, then ten tenths of the rest.
    expect(await page.getByRole('table', { name: 'Steps of wave all' }).getByRole('row').count()).toBe(11);

    await page.evaluate(`document.querySelector('.vtable').scrollTop = 1e9`);
    await page.getByRole('link', { name: fleetClusterId(CLUSTERS - 1), exact: true }).waitFor();
    expect(await page.locator('tr.vrow').count()).toBeLessThan(100);
    const bottom = await page.evaluate(`document.querySelector('.vtable').scrollTop`);
    // A refresh (at least 5 s apart) replaces the rows in place: the table stays scrolled.
    await page.evaluate(`document.querySelector('.vtable table').__kept = true`);
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await expect
      .poll(() => requests.filter((u) => u.endsWith(`/rollouts/${ID}`)).length, { timeout: 30_000 })
      .toBeGreaterThan(0);
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(`document.querySelector('.vtable table').__kept === true`)).toBe(true);
    expect(await page.evaluate(`document.querySelector('.vtable').scrollTop`)).toBe(bottom);

    const wanted = fleetClusterId(43_210);
    await page.getByRole('searchbox', { name: "Search the rollout's clusters" }).fill(wanted);
    await page.getByText(`Showing 1 of ${CLUSTERS.toLocaleString('en')} clusters`).waitFor();
    await page.getByRole('link', { name: wanted, exact: true }).waitFor();
    await page.context().close();
  }, 180_000);
});
