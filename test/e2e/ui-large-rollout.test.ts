// A rollout of 50,000 clusters on its page, in a real Chromium against the real service: the
// clusters' table holds only the rows in view, a search finds one cluster among all, the end of
// the list is reached by scrolling, and the page's refreshes (each a 50,000-cluster answer)
// leave it where it was. The time until the first rows is printed; the targets are the
// benchmark's, on a quiet machine.
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fleetClusterId, signedInPage } from '../../scripts/bench/ui-fleet.ts';
import { ROLLOUT_ID, timeRolloutPage, writeRolloutSeed } from '../../scripts/bench/ui-rollout.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { removeDir, tempDir } from '../helpers/git-fixture.ts';
import { request } from '../helpers/http.ts';
import { READ_TOKEN, startTestService, type TestService } from '../helpers/service.ts';

const CLUSTERS = 50_000;
const ID = ROLLOUT_ID;

let browser: Browser;
let service: TestService;
let dir: string;

beforeAll(async () => {
  dir = tempDir('ui-large-rollout-');
  const seed = join(dir, 'seed.json');
  writeRolloutSeed(seed, CLUSTERS);
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
    // The benchmark's own measure (scripts/bench/ui-rollout.ts): navigation to the first row.
    const firstRowsMs = await timeRolloutPage(page, service.url);
    const shown = `Showing ${CLUSTERS.toLocaleString('en')} of ${CLUSTERS.toLocaleString('en')} clusters`;
    await page.getByText(shown).waitFor({ timeout: 30_000 });
    await page.getByRole('link', { name: fleetClusterId(0), exact: true }).waitFor();
    console.log(`${CLUSTERS} clusters: first rows ${firstRowsMs.toFixed(0)} ms after navigation (signed in before)`);
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
