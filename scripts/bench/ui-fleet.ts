// The web UI's fleet page on a large fleet, in a real Chromium: how long from navigation until
// the first rows are shown, and from a keystroke in the search box until its rows are; and how
// many table rows the page holds meanwhile. The page sets performance marks for both
// (ui/src/views/fleet/FleetTable.tsx); they are read from the page, so the figures are the
// browser's own. Used by `npm run bench` and by test/e2e/ui-large-fleet.test.ts.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { ENVIRONMENTS } from '../../src/domain/records.ts';
import { UI_BUILD_DIR } from '../../src/http/web-ui/ui-files.ts';

export function fleetClusterId(i: number): string {
  return `cluster-${String(i).padStart(5, '0')}`;
}

/**
 * A seed file (memory backend) of `clusters` clusters referencing nothing: the fleet page
 * reads only ids, DNS names and environments, and a bare record starts in a second.
 */
export function writeFleetSeed(file: string, clusters: number): void {
  const records = Array.from({ length: clusters }, (_, i) => ({
    _id: fleetClusterId(i),
    cluster_name: fleetClusterId(i),
    cluster_dns: `${fleetClusterId(i)}.fleet.example.com`,
    environment: ENVIRONMENTS[i % ENVIRONMENTS.length],
  }));
  writeFileSync(file, JSON.stringify({ clusters: records, platform_components: [], namespaces: [], rolebindings: [] }));
}

/** The built UI's JavaScript and CSS, gzip -9, in bytes. */
export function uiAssetBytes(): { gzip: number; plain: number } {
  const folder = join(UI_BUILD_DIR, 'assets');
  let gzip = 0;
  let plain = 0;
  for (const name of readdirSync(folder).filter((n) => /\.(js|css)$/.test(n))) {
    const bytes = readFileSync(join(folder, name));
    plain += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { gzip, plain };
}

export interface FleetPageTiming {
  /** From navigation start until the first rows were in the table (mark fleet-rows-shown). */
  firstRowsMs: number;
  /** From the search's input event until its rows were in the table. */
  searchMs: number;
  /** Table rows in the page with the whole fleet listed (the header row included). */
  rowsInDom: number;
  /** What the page said it shows after the search. */
  shownAfterSearch: string;
}

/** Signs in once in a fresh page; the token stays in the tab's sessionStorage for the loads that follow. */
export async function signedInPage(browser: Browser, url: string, token: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  page.setDefaultTimeout(60_000);
  await page.goto(`${url}/ui/`);
  await page.getByLabel('Token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('searchbox', { name: 'Search clusters' }).waitFor();
  return page;
}

/** One load of the fleet page and one search, timed by the page's own marks. */
export async function timeFleetPage(page: Page, url: string, query: string): Promise<FleetPageTiming> {
  await page.goto(`${url}/ui/`);
  // Functions, not text: a text predicate would be run with eval, which the page's CSP forbids.
  await page.waitForFunction(() => performance.getEntriesByName('fleet-rows-shown').length > 0);
  const firstRowsMs = await page.evaluate<number>(`performance.getEntriesByName('fleet-rows-shown')[0].startTime`);
  const rowsInDom = await page.locator('tr').count();
  await page.getByRole('searchbox', { name: 'Search clusters' }).fill(query);
  await page.waitForFunction(() => performance.getEntriesByName('fleet-filter-shown').length > 0);
  const searchMs = await page.evaluate<number>(
    `performance.getEntriesByName('fleet-filter-shown').at(-1).startTime - ` +
      `performance.getEntriesByName('fleet-filter-start').at(-1).startTime`,
  );
  const shownAfterSearch = (await page.locator('.shown').textContent()) ?? '';
  return { firstRowsMs, searchMs, rowsInDom, shownAfterSearch };
}

export interface UiFigure {
  clusters: number;
  runs: FleetPageTiming[];
  firstRowsMs: number;
  searchMs: number;
  rowsInDom: number;
  assets: { gzip: number; plain: number };
}

/**
 * The UI figure of `npm run bench`: a service process (memory backend) with `clusters`
 * clusters, the fleet page loaded `repeat` times in one tab, medians of the marks.
 */
export async function measureUiFigure(options: {
  clusters: number;
  repeat: number;
  dir: string;
  token: string;
}): Promise<UiFigure> {
  const seed = join(options.dir, 'ui-seed.json');
  writeFleetSeed(seed, options.clusters);
  return withSignedInPage(seed, options.token, async (page, url) => {
    // One load first, not counted: the browser's caches and the service's first answers warm up.
    await timeFleetPage(page, url, fleetClusterId(1));
    const runs: FleetPageTiming[] = [];
    for (let i = 0; i < options.repeat; i++)
      runs.push(
        await timeFleetPage(page, url, fleetClusterId(Math.floor(((i + 1) * options.clusters) / (options.repeat + 1)))),
      );
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
    return {
      clusters: options.clusters,
      runs,
      firstRowsMs: median(runs.map((r) => r.firstRowsMs)),
      searchMs: median(runs.map((r) => r.searchMs)),
      rowsInDom: Math.max(...runs.map((r) => r.rowsInDom)),
      assets: uiAssetBytes(),
    };
  });
}

/**
 * A service process (memory backend) on the seed file `seed`, and the Chromium of the tests
 * with a page signed in to it with `token`: `measure` is given the page and the service's URL;
 * both are stopped after it, whatever happens.
 */
export async function withSignedInPage<T>(
  seed: string,
  token: string,
  measure: (page: Page, url: string) => Promise<T>,
): Promise<T> {
  const { launchBrowser } = await import('../../test/helpers/browser.ts');
  const { SERVICE_MAIN, startNodeProcess } = await import('./node-process.ts');
  const env = {
    AUTH_TOKEN: token,
    STORE_BACKEND: 'memory',
    SEED_FILE: seed,
    LISTEN_ADDR: '127.0.0.1:0',
    LOG_LEVEL: 'info',
  };
  const [service, browser] = await Promise.all([startNodeProcess(SERVICE_MAIN, { env }), launchBrowser()]);
  const url = `http://127.0.0.1:${service.port}`;
  try {
    return await measure(await signedInPage(browser, url, token), url);
  } finally {
    await browser.close();
    await service.stop();
  }
}
