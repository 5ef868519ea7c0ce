// Starting a rollout from the catalog in a real Chromium, against the real service in crud
// mode on Git with a simulated fleet of 24 clusters polling it and a local OIDC issuer: a person
// signed in at the issuer builds a three-wave rollout by keyboard alone (the canary, then dev,
// qa and uat merged into one non-prod wave, then prod), previews it — the steps with their
// clusters as the service plans them, the canary alone in step 1 and alone in the blast radius —
// commits it as its author, finds it in the Rollouts list and watches its canary step become done as the
// clusters poll; then filters the fleet by the
// clusters' states in it. Every page is checked with axe-core (light and dark) and at a phone's
// width. With UPDATE_SCREENSHOTS=1 the views are saved to docs/ui/screenshots/.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  launchBrowser,
  openPage,
  type PageRecord,
  PHONE,
  seriousAxeViolations,
  tabTo,
  textsNotWhole,
} from '../helpers/browser.ts';
import { git } from '../helpers/git-fixture.ts';
import { request } from '../helpers/http.ts';
import { AUDIENCE, type OidcIssuer, startOidcIssuer } from '../helpers/oidc-issuer.ts';
import { READ_TOKEN } from '../helpers/service.ts';
import { ROLLED, type SimulatedFleet, startSimulatedFleet } from '../helpers/simulated-fleet.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(ROOT, 'docs', 'ui', 'screenshots') : undefined;
const ALICE = { sub: 'user-alice', name: 'Alice Admin', email: 'alice@example.com', groups: ['platform-admins'] };
const ID = `${ROLLED}-67.5.0`;
const CANARY = 'dev-eu-1';
const MESSAGE = 'kube-prometheus-stack 67.5.0 in three waves';

let browser: Browser;
let issuer: OidcIssuer;
let fleet: SimulatedFleet;
const pages: { page: Page; record: PageRecord }[] = [];

beforeAll(async () => {
  issuer = await startOidcIssuer();
  [browser, fleet] = await Promise.all([
    launchBrowser(),
    startSimulatedFleet({
      env: {
        API_MODE: 'crud',
        OIDC_ISSUER_URL: issuer.url,
        OIDC_AUDIENCE: AUDIENCE,
        OIDC_UI_CLIENT_ID: AUDIENCE,
        OIDC_WRITE_GROUPS: 'platform-admins',
      },
    }),
  ]);
  if (SCREENSHOTS) mkdirSync(SCREENSHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await fleet?.close();
  await issuer?.close();
});

/** Every page made no console error, no CSP violation, and asked only the service and the issuer. */
afterEach(async () => {
  const allowed = [new URL(fleet.service.url).origin, new URL(issuer.url).origin];
  for (const { page, record } of pages.splice(0)) {
    await page.context().close();
    expect(record.errors, 'console errors').toEqual([]);
    expect(record.cspViolations, 'CSP violations').toEqual([]);
    for (const url of record.requests) expect(allowed, url).toContain(new URL(url).origin);
  }
});

/** A page signed in as Alice at the issuer, by keyboard: Tab to "Sign in", Enter. */
async function signedIn(path: string, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const opened = await openPage(browser, { colorScheme });
  pages.push(opened);
  const { page } = opened;
  await page.goto(fleet.service.url + path);
  issuer.logIn(ALICE);
  await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
  await tabTo(page, 'button.primary', { most: 50 });
  await page.keyboard.press('Enter');
  await page.locator('.who').waitFor();
  return page;
}

async function expectAccessible(page: Page, view: string): Promise<void> {
  expect(await seriousAxeViolations(page), `axe-core on ${view}`).toEqual([]);
}

/** The page at desktop width, then at a phone's, where no id is cut and nothing scrolls the page sideways. */
async function screenshots(page: Page, name: string, ids: string): Promise<void> {
  if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  await page.setViewportSize(PHONE);
  if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, `${name}-phone.png`), fullPage: true });
  const seen = await textsNotWhole(page, ids);
  expect(seen.pageScrolls, `${name}: the page scrolls sideways at 390 px`).toBe(false);
  expect(seen.cut, `${name}: ids not shown whole at 390 px`).toEqual([]);
  expect(seen.checked).toBeGreaterThan(0);
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** Clears the focused field and types `text`, as a person at a keyboard does. */
async function retype(page: Page, text: string): Promise<void> {
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

const builder = (page: Page) => page.getByRole('form', { name: 'Wave builder' });
const legends = (page: Page) => builder(page).locator('.wave-list legend').allTextContents();

describe('starting a rollout from the catalog', () => {
  it('by keyboard alone: three waves built, previewed step by step, committed by the person, listed', async () => {
    const page = await signedIn('/ui/catalog');
    await page.getByRole('heading', { name: 'Catalog', level: 1 }).waitFor();
    await tabTo(page, `a[href="/ui/catalog/${ROLLED}/rollout"]`, { most: 100 });
    expect(await page.evaluate('document.activeElement.textContent')).toBe(`Roll out ${ROLLED} in waves`);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: `Roll out ${ROLLED} in waves`, level: 1 }).waitFor();
    await builder(page).waitFor();

    // The proposal: the canary, then every environment of the fleet in order; prod a quarter at a time.
    expect(await legends(page)).toEqual([
      'Wave 1: canary · 1 cluster (its one cluster)',
      'Wave 2: dev · 5 clusters (dev)',
      'Wave 3: qa · 6 clusters (qa)',
      'Wave 4: uat · 6 clusters (uat)',
      'Wave 5: prod · 6 clusters (prod)',
    ]);
    expect(await page.getByLabel('Canary cluster').inputValue()).toBe(CANARY);
    expect(await page.getByLabel('Wave 5 batch').inputValue()).toBe('25%');
    await expectAccessible(page, 'the wave builder');

    // The new version; the tag and the rollout's id follow it.
    await tabTo(page, '#rollout-new-version');
    await retype(page, '67.5.0');
    expect(await page.getByLabel('New tag').inputValue()).toBe('67.5.0');
    expect(await page.getByLabel('Rollout id').inputValue()).toBe(ID);
    // qa and uat join dev in one wave, renamed non-prod, which waits for a person's approval.
    for (let i = 0; i < 2; i++) {
      await tabTo(page, '.wave-list > li:nth-child(3) button:not(.danger)', { most: 60 });
      expect(await page.evaluate('document.activeElement.textContent')).toBe('Merge wave 3 into wave 2');
      await page.keyboard.press('Enter');
    }
    await tabTo(page, '#rollout-wave-2-name', { back: true, most: 60 });
    await retype(page, 'non-prod');
    await tabTo(page, 'input[type=checkbox]', { most: 10 });
    await page.keyboard.press('Space');
    expect(await legends(page)).toEqual([
      'Wave 1: canary · 1 cluster (its one cluster)',
      'Wave 2: non-prod · 17 clusters (dev, qa, uat)',
      'Wave 3: prod · 6 clusters (prod)',
    ]);
    await screenshots(page, 'rollout-start', 'h1 .record-id');

    // A field that is not right is named, and focused, before anything goes into the change set.
    await tabTo(page, '#rollout-wave-3-soak', { most: 60 });
    await retype(page, '2 hours');
    await tabTo(page, '.wave-builder button[type=submit]', { most: 60 });
    await page.keyboard.press('Enter');
    await page.getByText('Not added yet: some fields need a change').waitFor();
    expect(await page.evaluate('document.activeElement.id')).toBe('rollout-wave-3-soak');
    await retype(page, '30m');
    await tabTo(page, '.wave-builder button[type=submit]', { most: 60 });
    await page.keyboard.press('Enter');

    // The Changes page: the rollout to create, previewed with the steps the service plans.
    await page.getByRole('heading', { name: 'Changes', level: 1 }).waitFor();
    expect(await page.getByRole('list', { name: 'Pending changes' }).textContent()).toContain(
      `rollouts/${ID} (create)`,
    );
    await tabTo(page, 'textarea#commit-message', { most: 60 });
    await page.keyboard.type(MESSAGE);
    await tabTo(page, '.commit-form .buttons button:first-child');
    await page.keyboard.press('Enter');
    const steps = page.getByRole('list', { name: `Steps of ${ID}` });
    await steps.waitFor();
    const stepClusters = async (n: number) =>
      steps
        .getByRole('list', { name: `Clusters of step ${n}` })
        .getByRole('link')
        .allTextContents();
    expect(await steps.locator('.plan-step').allTextContents()).toEqual([
      'Step 1 · wave canary · 1 clusterreleased by this change',
      'Step 2 · wave non-prod · 17 clusters',
      'Step 3 · wave prod · 2 clusters',
      'Step 4 · wave prod · 2 clusters',
      'Step 5 · wave prod · 2 clusters',
    ]);
    expect(await stepClusters(1)).toEqual([CANARY]);
    const later = [...(await stepClusters(2)), ...(await stepClusters(3)), ...(await stepClusters(4))];
    expect(later).not.toContain(CANARY);
    expect(await stepClusters(2)).toHaveLength(17);
    expect(await stepClusters(5)).toEqual(['prod-us-2', 'prod-us-3']);
    // Committing releases step 1: the canary's answer is the only one that changes.
    const radius = page.getByRole('list', { name: 'Clusters this change affects' });
    expect(await radius.locator('.blast-cluster a').allTextContents()).toEqual([CANARY]);
    await expectAccessible(page, 'the preview of a new rollout');
    await screenshots(page, 'rollout-preview', '.plan-clusters a, .blast-cluster a');

    await tabTo(page, '.commit-form button.primary', { most: 3 });
    await page.keyboard.press('Enter');
    await page.getByText('Committed', { exact: true }).waitFor();
    const dir = fleet.prepared.dir!;
    expect(git(dir, 'log', '-1', '--format=%an <%ae>|%s')).toBe(`Alice Admin <alice@example.com>|${MESSAGE}`);
    expect(git(dir, 'show', '--name-only', '--format=', 'HEAD')).toBe(`rollouts/${ID}.yaml`);
    const stored = (await request(fleet.service.url, `/rollouts/${ID}`, { token: READ_TOKEN })).json();
    expect(stored).toMatchObject({
      component: ROLLED,
      set: { component_version: '67.5.0', oci_tag: '67.5.0' },
      waves: [
        { name: 'canary', clusters: [CANARY], environments: [], soak: '30m', approval: false },
        { name: 'non-prod', environments: ['dev', 'qa', 'uat'], approval: true },
        { name: 'prod', environments: ['prod'], batch: '25%', soak: '30m', approval: true },
      ],
      released: 1,
      paused: false,
    });

    // In the Rollouts list, reached by keyboard from the navigation.
    await tabTo(page, 'nav a[href="/ui/rollouts"]', { back: true, most: 200 });
    await page.keyboard.press('Enter');
    const table = page.getByRole('table', { name: 'Rollouts' });
    await table.getByRole('link', { name: ID, exact: true }).waitFor();
    expect(await table.getByRole('row').count()).toBe(2);

    // Its page, by keyboard: the canary's step becomes done, soaking, as the simulated clusters poll (every 250 ms)
    // and the page asks again by itself; its cluster has fetched the new answer.
    await tabTo(page, `a[href="/ui/rollouts/${ID}"]`, { most: 40 });
    await page.keyboard.press('Enter');
    const canaryStep = page.getByRole('table', { name: 'Steps of wave canary' }).getByRole('row', { name: /Step 1/ });
    await canaryStep.getByText('Done, soaking').waitFor({ timeout: 20_000 });
    await expect.poll(async () => (await canaryStep.textContent()) ?? '').toContain('1 fetched');
  });

  it('is read in the dark scheme too, and offers no second rollout of a component being rolled out', async () => {
    const page = await signedIn(`/ui/catalog/${ROLLED}/rollout`, 'dark');
    await page.getByText('A rollout of this component is under way').waitFor();
    expect(await page.getByRole('form', { name: 'Wave builder' }).count()).toBe(0);
    await expectAccessible(page, 'the wave builder, dark');
    await page.goto(`${fleet.service.url}/ui/catalog/cert-manager/rollout`);
    await builder(page).waitFor();
    await expectAccessible(page, 'the wave builder, dark');
    await page.goto(`${fleet.service.url}/ui/catalog`);
    await page.getByRole('row', { name: new RegExp(`^${ROLLED}\\b`) }).waitFor();
    expect(await page.getByRole('link', { name: `Roll out ${ROLLED} in waves` }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Roll out cert-manager in waves' }).count()).toBe(1);
    await expectAccessible(page, 'the catalog with its edit fields, dark');
  });
});

describe('the fleet filtered by rollout', () => {
  it("keeps a rollout's clusters, in the state chosen, and shows each one's state in it", async () => {
    // The canary fetched its release: one cluster fetched, the others pending.
    await expect
      .poll(async () =>
        (await request(fleet.service.url, `/api/v2/gitops/rollouts/${ID}`, { token: READ_TOKEN })).json(),
      )
      .toMatchObject({ clusters: { fetched: 1, pending: 23 } });
    const page = await signedIn('/ui/');
    await page.getByText('Showing 24 of 24 clusters').waitFor();
    await page.getByLabel('Rollout', { exact: true }).selectOption(ID);
    await page.getByLabel('State in the rollout').selectOption('fetched');
    await page.getByText('Showing 1 of 24 clusters').waitFor();
    const row = page.getByRole('table', { name: 'Clusters' }).getByRole('row').nth(1);
    expect(await row.getByRole('cell').first().textContent()).toBe(CANARY);
    expect(await row.getByRole('cell').nth(3).textContent()).toBe('Fetched');
    // The address follows the filters once the table shows them.
    await expect.poll(() => new URL(page.url()).search).toBe(`?rollout=${ID}&rollout_state=fetched`);
    const options = await page.getByLabel('State in the rollout').locator('option').allTextContents();
    expect(options).toEqual([
      'All',
      'Pending (23)',
      'Released (0)',
      'Fetched (1)',
      'Succeeded (0)',
      'Failed (0)',
      'Offline (0)',
      'Pinned (0)',
    ]);
    await page.getByLabel('State in the rollout').selectOption('pending');
    await page.getByText('Showing 23 of 24 clusters').waitFor();
    await expectAccessible(page, 'the fleet filtered by rollout');
    await screenshots(page, 'fleet-rollout-filter', '.c-id a');
  });
});
