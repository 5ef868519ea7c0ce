// The web UI's page of a rollout over a large fleet, in a real Chromium: how long from
// navigation until the first rows of its clusters' table are shown, read from the page's own
// clock (performance.now() when the first row is in the table). Used by `npm run bench` and by
// test/e2e/ui-large-rollout.test.ts, which share the seed.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ENVIRONMENTS } from '../../src/domain/records.ts';
import { fleetClusterId, withSignedInPage } from './ui-fleet.ts';

export const ROLLOUT_ID = 'podinfo-7';

/** A seed file (memory backend): every cluster uses podinfo; its rollout has a canary, then the rest in tenths. */
export function writeRolloutSeed(file: string, clusters: number): void {
  const records = Array.from({ length: clusters }, (_, i) => ({
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
    _id: ROLLOUT_ID,
    component: 'podinfo',
    set: { component_version: '7.0.0', oci_tag: '7.0.0' },
    released: 2,
    waves: [
      { name: 'canary', clusters: [fleetClusterId(0)] },
      { name: 'all', environments: ENVIRONMENTS, batch: '10%' },
    ],
  };
  const seed = {
    clusters: records,
    platform_components: [podinfo],
    namespaces: [],
    rolebindings: [],
    rollouts: [rollout],
  };
  writeFileSync(file, JSON.stringify(seed));
}

/** One load of the rollout's page: ms from navigation until a row of its clusters' table is in the page. */
export async function timeRolloutPage(page: Page, url: string): Promise<number> {
  await page.goto(`${url}/ui/rollouts/${ROLLOUT_ID}`);
  // A function, not text: a text predicate would be run with eval, which the page's CSP forbids.
  // (The page's document, typed here by hand: scripts are compiled without the DOM's types.)
  const shown = await page.waitForFunction(() => {
    const page = (globalThis as unknown as { document: { querySelector(selector: string): unknown } }).document;
    return page.querySelector('tr.vrow') === null ? false : performance.now();
  });
  return (await shown.jsonValue()) as number;
}

export interface UiRolloutFigure {
  clusters: number;
  runs: number[];
  firstRowsMs: number;
}

/** The figure of `npm run bench`: a service process (memory backend), the page loaded `repeat` times, the median. */
export async function measureUiRollout(options: {
  clusters: number;
  repeat: number;
  dir: string;
  token: string;
}): Promise<UiRolloutFigure> {
  const seed = join(options.dir, 'ui-rollout-seed.json');
  writeRolloutSeed(seed, options.clusters);
  return withSignedInPage(seed, options.token, async (page, url) => {
    // One load first, not counted: the browser's caches and the service's first evaluation warm up.
    await timeRolloutPage(page, url);
    const runs: number[] = [];
    for (let i = 0; i < options.repeat; i++) runs.push(await timeRolloutPage(page, url));
    const sorted = [...runs].sort((a, b) => a - b);
    return { clusters: options.clusters, runs, firstRowsMs: sorted[Math.floor(sorted.length / 2)] };
  });
}
