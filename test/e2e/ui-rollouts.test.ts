// The Rollouts view and a rollout's page in a real Chromium, against the real service (crud
// mode, the service's own releases off) with a simulated fleet polling it: 24 clusters with
// their own tokens, and one more that never polls. Two rollouts: kube-prometheus-stack in
// three waves with step 2 released and soaking for an hour, and cert-manager's, whose one step
// names the silent cluster and is past its progress deadline, so it halts. A person reads both
// by their accessible names, moves by keyboard, and watches a release reach the page by itself
// with nothing re-drawn. With UPDATE_SCREENSHOTS=1 the views are saved to docs/ui/screenshots/.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, type PageRecord, seriousAxeViolations, tabTo } from '../helpers/browser.ts';
import { send } from '../helpers/crud.ts';
import { request } from '../helpers/http.ts';
import { READ_TOKEN } from '../helpers/service.ts';
import { OTHER, ROLLED, type SimulatedFleet, startSimulatedFleet } from '../helpers/simulated-fleet.ts';
import { ROLLOUT_ID, ROLLOUT_PATH, rolloutText } from '../fixtures/rollout-checkout.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(ROOT, 'docs', 'ui', 'screenshots') : undefined;
const HALTED_ID = 'cert-manager-1-17';
/** In the repo, not in the simulated fleet: nothing polls for it. */
const SILENT = 'prod-ap-9';
const SILENT_CLUSTER = {
  id: SILENT,
  cluster_name: SILENT,
  cluster_dns: `${SILENT}.k8s.example.com`,
  environment: 'prod',
  platform_components: [
    { id: OTHER, enabled: true },
    { id: ROLLED, enabled: true },
  ],
};
const HALTED = {
  id: HALTED_ID,
  component: OTHER,
  set: { component_version: 'v1.17.0', oci_tag: 'v1.17.0' },
  waves: [
    { name: 'first', clusters: [SILENT] },
    { name: 'rest', environments: ['dev', 'qa', 'uat', 'prod'] },
  ],
  progress_deadline: '1s',
  released: 1,
};

let browser: Browser;
let fleet: SimulatedFleet;
const pages: { page: Page; record: PageRecord }[] = [];

beforeAll(async () => {
  [browser, fleet] = await Promise.all([
    launchBrowser(),
    startSimulatedFleet({
      env: { API_MODE: 'crud', ROLLOUT_AUTO_ADVANCE: 'off' },
      extraFiles: {
        [ROLLOUT_PATH]: rolloutText({ released: 2, soak: '1h' }),
        [`rollouts/${HALTED_ID}.yaml`]: HALTED,
        [`clusters/${SILENT}.yaml`]: SILENT_CLUSTER,
      },
    }),
  ]);
  if (SCREENSHOTS) mkdirSync(SCREENSHOTS, { recursive: true });
  // Every cluster of steps 1 and 2 fetched: the rollout soaks, and holds still until a write.
  await statusUntil(ROLLOUT_ID, (s) => s.state === 'waiting');
  await statusUntil(HALTED_ID, (s) => s.state === 'halted');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await fleet?.close();
});

/** Every page a test opened made no console error, no CSP violation, and no request to another origin. */
afterEach(async () => {
  const origin = new URL(fleet.service.url).origin;
  for (const { page, record } of pages.splice(0)) {
    await page.context().close();
    expect(record.errors, 'console errors').toEqual([]);
    expect(record.cspViolations, 'CSP violations').toEqual([]);
    for (const url of record.requests) expect(new URL(url).origin, url).toBe(origin);
  }
});

interface Status {
  state: string;
  reason: string;
  released: number;
  steps: { clusters: { id: string }[] }[];
}

async function status(id: string): Promise<Status> {
  return (await request(fleet.service.url, `/api/v2/gitops/rollouts/${id}`, { token: READ_TOKEN })).json() as Status;
}

/** Progress moves with the clusters' polls and the clock, not with an event a test can await. */
async function statusUntil(id: string, check: (s: Status) => boolean): Promise<Status> {
  for (let i = 0; ; i++) {
    const s = await status(id);
    if (check(s)) return s;
    if (i > 150) throw new Error(`${id}: not reached: ${JSON.stringify(s).slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function signedIn(path: string, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const opened = await openPage(browser, { colorScheme });
  pages.push(opened);
  const { page } = opened;
  await page.goto(fleet.service.url + path);
  await page.getByLabel('Token').fill(READ_TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  return page;
}

/** The gate of the rollout in the service's words, a live region in "Where it stands". */
function gate(page: Page) {
  return page.getByRole('region', { name: 'Where it stands' }).getByRole('status');
}

/** The page needs no sideways scroll at its width, and the link named `id` shows its whole text, inside the view. */
async function expectFitsPhone(page: Page, id: string): Promise<void> {
  const link = page.getByRole('link', { name: id, exact: true });
  await link.waitFor();
  expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
  // The page's DOM types are not this project's (it knows Node's globals): the element is taken as it comes.
  const fits = await link.evaluate((a: any) => {
    const cell = a.closest('td, th');
    const box = a.getBoundingClientRect();
    return cell.scrollWidth <= cell.clientWidth && box.left >= 0 && box.right <= (globalThis as any).innerWidth;
  });
  expect(fits, `${id} shown whole`).toBe(true);
}

async function expectAccessible(page: Page, view: string): Promise<void> {
  expect(await seriousAxeViolations(page), `axe-core on ${view}`).toEqual([]);
}

async function screenshot(page: Page, name: string): Promise<void> {
  if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

describe('the Rollouts view', () => {
  it('lists every rollout with its component, what it sets, its state and why, and its progress', async () => {
    const page = await signedIn('/ui/');
    await page.getByRole('heading', { name: 'Fleet', level: 1 }).waitFor();
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Rollouts' }).click();
    await page.getByRole('heading', { name: 'Rollouts', level: 1 }).waitFor();
    const table = page.getByRole('table', { name: 'Rollouts' });
    await expect.poll(() => table.getByRole('row').count()).toBe(3);
    const [kps, halted] = [await status(ROLLOUT_ID), await status(HALTED_ID)];
    // With its date when the soak ends on the next UTC day (a run shortly before midnight).
    expect(kps.reason).toMatch(
      /^soak of step 2 ends at (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC, then waits for approval of wave prod$/,
    );
    const kpsRow = table.getByRole('row').filter({ has: page.getByRole('link', { name: ROLLOUT_ID, exact: true }) });
    expect(await kpsRow.getByRole('cell').allTextContents()).toEqual([
      `Waiting${kps.reason}`,
      'Step 2 of 4 released7 pending, 18 fetched',
      ROLLED,
      'component_version 67.5.0oci_tag 67.5.0',
    ]);
    const haltedRow = table.getByRole('row').filter({ has: page.getByRole('link', { name: HALTED_ID, exact: true }) });
    expect(halted.reason).toMatch(/not done within the progress deadline of 1s .*: 1 of 1 cluster has not fetched: /);
    expect(await haltedRow.getByRole('cell').allTextContents()).toEqual([
      `Halted${halted.reason}`,
      'Step 1 of 2 released24 pending, 1 released',
      OTHER,
      'component_version v1.17.0oci_tag v1.17.0',
    ]);
    await expectAccessible(page, 'the Rollouts view');
    await screenshot(page, 'rollouts');
    // By keyboard: Tab to the rollout's link, Enter opens its page with focus on its heading.
    await tabTo(page, `a[href="/ui/rollouts/${HALTED_ID}"]`);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: HALTED_ID, level: 1 }).waitFor();
    expect(await page.evaluate('document.activeElement?.tagName')).toBe('H1');
  });

  it('is read in the dark scheme too, and says so for an id no rollout has', async () => {
    const page = await signedIn('/ui/rollouts', 'dark');
    await page.getByRole('table', { name: 'Rollouts' }).waitFor();
    await expectAccessible(page, 'the Rollouts view, dark');
    const { record } = pages.at(-1)!;
    await page.goto(`${fleet.service.url}/ui/rollouts/no-such-rollout`);
    await page.getByRole('heading', { name: 'no-such-rollout', level: 1 }).waitFor();
    await page.getByText('No such rollout', { exact: true }).waitFor();
    expect(await page.locator('.banner').textContent()).toMatch(/no rollout "no-such-rollout" is served/);
    // The browser logs the 404 it was asked for.
    record.errors.splice(0, record.errors.length, ...record.errors.filter((e) => !/status of 404 /.test(e)));
  });
});

describe('the rollouts elsewhere', () => {
  it("a cluster's page names the rollouts it is in and its state in each; the catalog, each entry's", async () => {
    const page = await signedIn(`/ui/clusters/${SILENT}`);
    const table = page.getByRole('table', { name: `Rollouts ${SILENT} is in` });
    // The page asks for the list, then each rollout: more than expect.poll's 1 s on a loaded machine.
    await expect.poll(() => table.getByRole('row').count(), { timeout: 10_000 }).toBe(3);
    const cells = (id: string) =>
      table
        .getByRole('row')
        .filter({ has: page.getByRole('link', { name: id, exact: true }) })
        .getByRole('cell');
    expect(await cells(HALTED_ID).allTextContents()).toEqual([
      'Step 1, wave first',
      expect.stringMatching(/^Releasedsince .+ ago$/),
      `Halted${(await status(HALTED_ID)).reason}`,
    ]);
    expect(await cells(ROLLOUT_ID).allTextContents()).toEqual([
      'Step 3, wave prod',
      'Pendingsince not released',
      `Waiting${(await status(ROLLOUT_ID)).reason}`,
    ]);
    await expectAccessible(page, "a cluster's page with its rollouts");
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Catalog' }).click();
    const entry = page
      .getByRole('table', { name: 'Platform components' })
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: ROLLED }) });
    await entry.getByRole('link', { name: ROLLOUT_ID, exact: true }).waitFor();
    expect(await entry.getByRole('cell').last().textContent()).toBe(`${ROLLOUT_ID}Waiting step 2 of 4`);
  });
});

describe("a rollout's page", () => {
  it('shows its waves, steps and clusters with their states, and the gate in words', async () => {
    const page = await signedIn(`/ui/rollouts/${ROLLOUT_ID}`);
    await page.getByRole('heading', { name: ROLLOUT_ID, level: 1 }).waitFor();
    const s = await status(ROLLOUT_ID);
    await expect.poll(() => gate(page).textContent()).toBe(s.reason);
    const waves = page.getByRole('region', { name: 'Waves and steps' });
    const stepRows = async (wave: string) =>
      waves.getByRole('table', { name: `Steps of wave ${wave}` }).getByRole('row');
    expect(await (await stepRows('canary')).nth(1).getByRole('cell').nth(0).textContent()).toBe('Done');
    expect(await (await stepRows('non-prod')).nth(1).getByRole('rowheader').textContent()).toBe('Step 2released last');
    expect(await (await stepRows('non-prod')).nth(1).getByRole('cell').nth(0).textContent()).toMatch(
      /^Done, soakingsoak ends at \d{4}-\d\d-\d\d \d\d:\d\d UTC$/,
    );
    const prod = await stepRows('prod');
    expect(await prod.count()).toBe(3);
    const next = s.steps[2].clusters.length;
    expect(await prod.nth(1).getByRole('cell').allTextContents()).toEqual([
      'Next to release',
      'not released',
      'not done',
      `${next} pendingShow the ${next} clusters of step 3`,
    ]);
    const clusters = page.getByRole('table', { name: 'Clusters of the rollout' });
    await page.getByText('Showing 25 of 25 clusters').waitFor();
    await expectAccessible(page, "a rollout's page");
    await screenshot(page, 'rollout');
    // A step's button narrows the clusters to it and takes focus there.
    await waves.getByRole('button', { name: 'Show the 1 cluster of step 1' }).click();
    await page.getByText('Showing 1 of 25 clusters').waitFor();
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Clusters');
    const canary = clusters.getByRole('row').nth(1);
    expect(await canary.getByRole('cell').nth(0).textContent()).toBe('dev-eu-1');
    expect(await canary.getByRole('cell').nth(1).textContent()).toBe('Fetched');
    expect(await canary.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(new URL(page.url()).search).toBe('?step=1');
    // Filters by keyboard: every step, then the pending clusters only, then a search.
    await tabTo(page, '#rollout-step');
    await page.keyboard.press('Home');
    await page.getByText('Showing 25 of 25 clusters').waitFor();
    await page.getByLabel('State', { exact: true }).selectOption('pending');
    await page.getByText('Showing 7 of 25 clusters').waitFor();
    await page.getByRole('searchbox', { name: "Search the rollout's clusters" }).fill('ap-9');
    await page.getByText('Showing 1 of 25 clusters').waitFor();
    expect(await clusters.getByRole('row').nth(1).getByRole('cell').allTextContents()).toEqual([
      SILENT,
      'Pending',
      'not released',
      '3',
      'prod',
      '',
    ]);
  });

  it('names the cluster that holds back a halted rollout, with its state and since when', async () => {
    const page = await signedIn(`/ui/rollouts/${HALTED_ID}?state=released`);
    await page.getByText('Showing 1 of 25 clusters').waitFor();
    expect(await gate(page).textContent()).toBe((await status(HALTED_ID)).reason);
    const row = page.getByRole('table', { name: 'Clusters of the rollout' }).getByRole('row').nth(1);
    expect(await row.getByRole('cell').nth(0).textContent()).toBe(SILENT);
    expect(await row.getByRole('cell').nth(1).textContent()).toBe('Released');
    await expectAccessible(page, "a halted rollout's page");
    await screenshot(page, 'rollout-halted');
    // At a phone's width: no sideways scroll of the page itself, and the cluster id whole and in view.
    await page.setViewportSize({ width: 390, height: 844 });
    await expectFitsPhone(page, SILENT);
    await screenshot(page, 'rollout-halted-phone');
    await page.getByRole('link', { name: 'every rollout' }).click();
    await expectFitsPhone(page, HALTED_ID);
    await screenshot(page, 'rollouts-phone');
  });

  it('refreshes by itself while open: a release shows up in place, nothing re-drawn or scrolled', async () => {
    const page = await signedIn(`/ui/rollouts/${ROLLOUT_ID}`);
    await page.getByText('Showing 25 of 25 clusters').waitFor();
    // The page's first loads are over (its commits come on their own): what follows is refreshes only.
    await page.getByRole('region', { name: 'Timeline' }).locator('.loading').waitFor({ state: 'detached' });
    // Marks on the nodes shown now, a scrolled table, and a watch for any "Loading" from here on.
    await page.evaluate(`(() => {
      document.querySelector('.vtable').scrollTop = 200;
      document.querySelector('.vtable table').__kept = true;
      document.querySelector('h2#rollout-status').__kept = true;
      window.__loadingSeen = false;
      new MutationObserver(() => { if (document.querySelector('main .loading')) window.__loadingSeen = true; })
        .observe(document.querySelector('main'), { childList: true, subtree: true });
    })()`);
    const scrolled = await page.evaluate(`document.querySelector('.vtable').scrollTop`);
    expect(scrolled).toBeGreaterThan(0);
    const patched = await send(fleet.service, 'PATCH', `/rollouts/${ROLLOUT_ID}`, { released: 3, approved: ['prod'] });
    expect(patched.status, patched.text).toBe(200);
    await page.getByText('Step 3 of 4 released').waitFor({ timeout: 20_000 });
    expect(await page.evaluate(`document.querySelector('.vtable table').__kept === true`)).toBe(true);
    expect(await page.evaluate(`document.querySelector('h2#rollout-status').__kept === true`)).toBe(true);
    expect(await page.evaluate('window.__loadingSeen')).toBe(false);
    expect(await page.evaluate(`document.querySelector('.vtable').scrollTop`)).toBe(scrolled);
    // Step 3's clusters poll and fetch it, all but the silent one; the page follows, still without a reload.
    const released = await statusUntil(ROLLOUT_ID, (s) => s.released === 3 && s.reason.startsWith('1 of '));
    expect(released.reason).toBe(`1 of 4 clusters has not fetched: ${SILENT}`);
    await expect.poll(() => gate(page).textContent(), { timeout: 20_000 }).toBe(released.reason);
    expect(await page.evaluate('window.__loadingSeen')).toBe(false);
  });
});
