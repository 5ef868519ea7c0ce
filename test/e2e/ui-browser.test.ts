// The web UI in a real Chromium against the real service on loopback: sign in, find a cluster,
// read its answers, move by keyboard alone, each view checked by axe-core, and the page kept to
// its own origin under its Content-Security-Policy. One browser for the file; each test gets a
// fresh context (its own sessionStorage). With UPDATE_SCREENSHOTS=1 the views are saved to
// docs/ui/screenshots/.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  fieldsNotFitting,
  launchBrowser,
  openPage,
  type PageRecord,
  PHONE,
  seriousAxeViolations,
  tabTo,
  textsNotWhole,
} from '../helpers/browser.ts';
import { commitAll, git, removeDir, tempDir } from '../helpers/git-fixture.ts';
import { eventually, request } from '../helpers/http.ts';
import { READ_TOKEN, startTestService, type TestService, WRITE_TOKEN } from '../helpers/service.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(ROOT, 'docs', 'ui', 'screenshots') : undefined;
const ENDPOINTS = ['platform-components', 'namespaces', 'rolebindings'];
/** The test's own reads of a cluster's answers must not count as the cluster's polls either. */
const NOT_A_POLL = { 'gitops-poll': 'false' };

let browser: Browser;
let crud: TestService;
let readOnly: TestService;
let repo: string;
const pages: { page: Page; record: PageRecord; origin: string }[] = [];

beforeAll(async () => {
  repo = tempDir('ui-repo-');
  cpSync(join(ROOT, 'config-repo-example'), repo, { recursive: true });
  git(repo, 'init', '-q', '-b', 'main');
  commitAll(repo, 'example fleet');
  [browser, crud, readOnly] = await Promise.all([
    launchBrowser(),
    startTestService({ CONFIG_REPO: repo, API_MODE: 'crud', CRUD_AUTH_TOKEN: WRITE_TOKEN }),
    // Read-only and without the fleet view: the views say what they cannot show, and why.
    startTestService({ CONFIG_REPO: join(ROOT, 'config-repo-example'), METRICS: 'off' }),
  ]);
  if (SCREENSHOTS) mkdirSync(SCREENSHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([crud?.close(), readOnly?.close()]);
  removeDir(repo);
});

/** Every page a test opened made no console error, no CSP violation, and no request to another origin. */
afterEach(async () => {
  for (const { page, record, origin } of pages.splice(0)) {
    await page.context().close();
    expect(record.errors, 'console errors').toEqual([]);
    expect(record.cspViolations, 'CSP violations').toEqual([]);
    expect(record.requests.length).toBeGreaterThan(0);
    for (const url of record.requests) expect(new URL(url).origin, url).toBe(origin);
  }
});

async function open(
  service: TestService,
  path = '/ui/',
  colorScheme: 'light' | 'dark' = 'light',
): Promise<{ page: Page; record: PageRecord }> {
  const opened = await openPage(browser, { colorScheme });
  pages.push({ ...opened, origin: new URL(service.url).origin });
  const response = await opened.page.goto(service.url + path);
  expect(response?.status()).toBe(200);
  return opened;
}

async function signIn(page: Page, token = READ_TOKEN): Promise<void> {
  await page.getByLabel('Token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function expectAccessible(page: Page, view: string): Promise<void> {
  expect(await seriousAxeViolations(page), `axe-core on ${view}`).toEqual([]);
}

/** At the page's width now: no sideways scroll of the page, and every element of `ids` shown whole. */
async function expectWholeOnPhone(page: Page, ids: string): Promise<void> {
  const seen = await textsNotWhole(page, ids);
  expect(seen.pageScrolls, 'the page scrolls sideways').toBe(false);
  expect(seen.cut, 'ids not shown whole').toEqual([]);
  expect(seen.checked).toBeGreaterThan(0);
}

async function screenshot(page: Page, name: string): Promise<void> {
  if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

describe('signing in', () => {
  it('takes a pasted token, keeps it in sessionStorage only, and signs out', async () => {
    const { page } = await open(crud);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in');
    await expectAccessible(page, 'the sign-in page');
    await screenshot(page, 'sign-in');
    await signIn(page);
    await page.getByRole('heading', { name: 'Fleet', level: 1 }).waitFor();
    expect(await page.evaluate('({ ...sessionStorage })')).toEqual({
      'gitops-config-api.token': READ_TOKEN,
      'gitops-config-api.token-from': 'pasted',
    });
    expect(await page.evaluate('localStorage.length')).toBe(0);
    expect(await page.context().cookies()).toEqual([]);
    expect(page.url()).not.toContain(READ_TOKEN);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
  });

  it('asks to sign in again when the service stops accepting the token kept in the tab', async () => {
    const { page, record } = await open(crud);
    await signIn(page);
    await page.getByRole('heading', { name: 'Fleet', level: 1 }).waitFor();
    // As after a rotation of the service's token: the tab still holds the old one.
    await page.evaluate(`sessionStorage.setItem('gitops-config-api.token', 'a-rotated-token')`);
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
    await expect.poll(() => page.getByText('The service refused the token (401)').count()).toBe(1);
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    record.errors.splice(0, record.errors.length, ...record.errors.filter((e) => !/status of 401 /.test(e)));
  });

  it('says so when the service refuses the token, and when it is a cluster token', async () => {
    const { page, record } = await open(crud);
    await signIn(page, 'not-the-token');
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/^the service refused the token \(401\)/);
    // The browser logs the refused request itself; that is the answer this test asked for.
    record.errors.splice(0, record.errors.length, ...record.errors.filter((e) => !/status of 401 /.test(e)));
    await signIn(page, `gcc1.qa-eu-1.${'A'.repeat(43)}`);
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe("a cluster token reads one cluster only; sign in with a person's or service token");
    await expectAccessible(page, 'the sign-in page with an error');
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
  });
});

describe('the fleet and a cluster', () => {
  it('finds a cluster by search, opens it by its link, and shows its three answers byte for byte', async () => {
    const { page } = await open(crud);
    await signIn(page);
    const search = page.getByRole('searchbox', { name: 'Search clusters' });
    await search.fill('qa-eu');
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    await expectAccessible(page, 'the fleet view');
    await search.fill('');
    await expect.poll(() => page.getByRole('row').count()).toBe(5);
    await screenshot(page, 'fleet');
    await search.fill('QA-EU-1.K8S');
    await page.getByRole('link', { name: 'qa-eu-1', exact: true }).click();
    await page.getByRole('heading', { name: 'qa-eu-1', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/ui/clusters/qa-eu-1');
    for (const endpoint of ENDPOINTS) {
      const served = await request(crud.url, `/api/v2/gitops/clusters/qa-eu-1.k8s.example.com/${endpoint}`, {
        token: READ_TOKEN,
        headers: NOT_A_POLL,
      });
      const section = page.getByRole('region', { name: endpoint });
      await section.getByRole('button', { name: 'Raw' }).click();
      await expect.poll(() => section.locator('pre').getAttribute('data-view')).toBe('raw');
      expect(await section.locator('pre').textContent()).toBe(served.text);
      // The browser takes the gzip copy, whose tag is the plain body's with -gzip; both are shown.
      const facts = await section.locator('dl').textContent();
      expect(facts).toContain(served.headers.etag);
      expect(facts).toContain(`${served.headers.etag!.slice(0, -1)}-gzip"`);
      expect(facts).toContain(served.headers['x-config-revision']);
    }
    // The record, from REST in crud mode.
    const record = await request(crud.url, '/clusters/qa-eu-1', { token: READ_TOKEN });
    await page.getByRole('region', { name: 'Record' }).getByRole('button', { name: 'Raw' }).click();
    expect(await page.getByRole('region', { name: 'Record' }).locator('pre').textContent()).toBe(record.text);
    await expect
      .poll(() => page.getByRole('region', { name: 'Revisions that changed it' }).textContent())
      .toMatch(/No revision the service judged changed this cluster's answers/);
    await expectAccessible(page, 'the cluster view');
    await page.getByRole('region', { name: 'platform-components' }).getByRole('button', { name: 'Raw' }).click();
    await screenshot(page, 'cluster');
    // Looking at the answers is not the cluster's poll.
    const fleet = (await request(crud.url, '/api/v2/gitops/fleet', { token: READ_TOKEN })).json();
    expect(fleet.clusters.find((c: { id: string }) => c.id === 'qa-eu-1').state).toBe('never_seen');
    // Back to the fleet with the browser's back button, the search still in the URL.
    await page.goBack();
    await page.getByRole('heading', { name: 'Fleet', level: 1 }).waitFor();
    expect(await search.inputValue()).toBe('QA-EU-1.K8S');
  });

  it('shows each cluster state after polls, with counts, and filters by state and environment', async () => {
    await request(crud.url, '/api/v2/gitops/clusters/prod-eu-1.k8s.example.com/namespaces', { token: READ_TOKEN });
    const { page } = await open(crud, '/ui/?state=up_to_date');
    await signIn(page);
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    expect(await page.getByRole('row').nth(1).textContent()).toMatch(/^prod-eu-1.*Up to date/);
    await page.getByLabel('State', { exact: true }).selectOption({ value: '' });
    await page.getByLabel('Environment', { exact: true }).selectOption({ value: 'dev' });
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    expect(await page.getByRole('row').nth(1).textContent()).toMatch(/^dev-eu-1.*Never seen/);
    expect(await page.getByRole('list', { name: 'Clusters per state' }).textContent()).toMatch(
      /4 clusters.*1 up to date.*0 behind.*3 never seen/,
    );
  });

  it('works by keyboard alone: sign in, search, open a cluster (Tab and Enter only)', async () => {
    const { page } = await open(crud);
    await tabTo(page, 'input#token');
    await page.keyboard.type(READ_TOKEN);
    await tabTo(page, 'button[type=submit]', { most: 1 });
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Fleet', level: 1 }).waitFor();
    await tabTo(page, 'input[type=search]');
    await page.keyboard.type('uat');
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    await tabTo(page, 'a[href="/ui/clusters/uat-us-1"]');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'uat-us-1', level: 1 }).waitFor();
    expect(await page.evaluate('document.activeElement?.tagName')).toBe('H1');
    // On a page just loaded, the skip link is the first stop and leads to the view.
    await page.reload();
    await page.getByRole('heading', { name: 'uat-us-1', level: 1 }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate('document.activeElement?.id')).toBe('main');
  });
});

describe('the dark colour scheme', () => {
  it('keeps every view readable (axe-core checks the contrast of each colour pair)', async () => {
    const { page } = await open(crud, '/ui/', 'dark');
    await signIn(page);
    await expect.poll(() => page.getByRole('row').count()).toBe(5);
    await expectAccessible(page, 'the fleet view, dark');
    await screenshot(page, 'fleet-dark');
    await page.getByRole('link', { name: 'prod-eu-1', exact: true }).click();
    await page.getByRole('region', { name: 'rolebindings' }).locator('pre').waitFor();
    await expectAccessible(page, 'the cluster view, dark');
    await page.getByRole('link', { name: 'Catalog' }).click();
    await page.getByRole('row', { name: /^traefik\b/ }).waitFor();
    await expectAccessible(page, 'the catalog, dark');
  });
});

describe('the definitions', () => {
  it.each([
    ['catalog', 'Catalog', 'cert-manager', 'catalog'],
    ['namespaces', 'Namespaces', 'team-payments', 'namespaces'],
    ['rolebindings', 'Role bindings', 'platform-admins', 'rolebindings'],
  ])('/ui/%s lists the records and the clusters using each (crud mode)', async (path, title, entry, shot) => {
    const { page } = await open(crud, `/ui/${path}`);
    await signIn(page);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    const row = page.getByRole('row', { name: new RegExp(`^${entry}\\b`) });
    await row.waitFor();
    await row.getByText(/\d+ clusters?$/).click();
    await expect.poll(() => row.getByRole('link').count()).toBeGreaterThan(0);
    await expectAccessible(page, `the ${title} view`);
    await screenshot(page, shot);
  });

  it(
    'in read-only mode says that records need crud mode, ' + 'and shows the fleet without states (METRICS=off)',
    async () => {
      const { page } = await open(readOnly, '/ui/catalog');
      await signIn(page);
      await expect.poll(() => page.getByText('Shown in crud mode').count()).toBe(1);
      await expectAccessible(page, 'the catalog in read-only mode');
      await page.getByRole('link', { name: 'Fleet', exact: true }).click();
      await page.getByText('Convergence states are not available').waitFor();
      expect(await page.getByText('METRICS=off').count()).toBe(1);
      await expect.poll(() => page.getByRole('row').count()).toBe(5);
      await expectAccessible(page, 'the fleet without states');
      await screenshot(page, 'fleet-read-only');
      await page.getByRole('link', { name: 'prod-eu-1', exact: true }).click();
      await page.getByText('Records are shown in crud mode (API_MODE=crud)').waitFor();
      await expectAccessible(page, 'a cluster in read-only mode');
      // Read-only mode: no edit control, whatever the token may do.
      expect(await page.locator('main input, main textarea').count()).toBe(0);
      expect(await page.getByRole('link', { name: 'Changes' }).count()).toBe(0);
    },
  );

  it('answers an unknown view path with a page that says so', async () => {
    const { page } = await open(crud, '/ui/no/such/view');
    await signIn(page);
    await page.getByRole('heading', { name: 'Not found', level: 1 }).waitFor();
    await expectAccessible(page, 'the not-found view');
  });
});

describe("at a phone's width (390 × 844)", () => {
  // Each view with the elements that show an id: none may be cut, wrapped or pushed out of view,
  // and the page itself never scrolls sideways. A wide table scrolls in its own box instead.
  it.each([
    ['/ui/', 'Fleet', '.c-id a', 'fleet'],
    ['/ui/clusters/prod-eu-1', 'prod-eu-1', 'h1', 'cluster'],
    ['/ui/catalog', 'Catalog', '.record-id', 'catalog'],
    ['/ui/namespaces', 'Namespaces', '.record-id', 'namespaces'],
    ['/ui/rolebindings', 'Role bindings', '.record-id', 'rolebindings'],
  ])('%s shows every id whole, with no sideways scroll of the page', async (path, heading, ids, shot) => {
    const { page } = await open(crud, path);
    await page.setViewportSize(PHONE);
    await signIn(page);
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    await page.locator(ids).first().waitFor();
    await expectWholeOnPhone(page, ids);
    await screenshot(page, `${shot}-phone`);
  });

  it('the catalog: its artifact column is reached by scrolling the table, the component ids kept in view', async () => {
    const { page } = await open(crud, '/ui/catalog');
    await page.setViewportSize(PHONE);
    await signIn(page, WRITE_TOKEN);
    const table = page.getByRole('table', { name: 'Platform components' });
    await table.getByRole('textbox', { name: 'Tag of traefik' }).waitFor();
    expect(await fieldsNotFitting(page), 'edit fields wider than their box').toEqual([]);
    // The table's box scrolled (as a finger would) until the Artifact column meets the ids kept in view at its left:
    // the column's tag field is then wholly in view, beside the id it belongs to.
    const seen = await table.evaluate((t: any) => {
      const scroller = t.parentElement;
      const id = t.querySelector('tbody th[scope=row]').getBoundingClientRect();
      const artifact = [...t.querySelectorAll('thead th')].find((th: any) => th.textContent === 'Artifact');
      scroller.scrollLeft += artifact.getBoundingClientRect().left - id.right;
      const field = t.querySelector('input[aria-label="Tag of traefik"]').getBoundingClientRect();
      return { idRight: id.right, left: field.left, right: field.right, width: (globalThis as any).innerWidth };
    });
    expect(seen.left, 'the tag field starts right of the ids').toBeGreaterThanOrEqual(seen.idRight - 0.5);
    expect(seen.right, 'the tag field ends inside the window').toBeLessThanOrEqual(seen.width + 0.5);
    await expectWholeOnPhone(page, '.record-id');
    await expectAccessible(page, 'the catalog at 390 px, editing');
    await page.evaluate('window.scrollTo(0, 0)');
    await screenshot(page, 'catalog-edit-phone');
  });
});

describe('a refused revision', () => {
  it('shows the stale banner on every view, naming the refused revision', async () => {
    writeFileSync(join(repo, 'clusters', 'qa-eu-1.yaml'), 'id: qa-eu-1\nenviroment: qa\n');
    const refused = commitAll(repo, 'a broken cluster');
    await eventually(async () => (await request(crud.url, '/ready')).json().stale === true, 15_000);
    const { page } = await open(crud);
    await signIn(page);
    for (const [path, heading] of [
      ['/ui/', 'Fleet'],
      ['/ui/clusters/dev-eu-1', 'dev-eu-1'],
      ['/ui/catalog', 'Catalog'],
      ['/ui/namespaces', 'Namespaces'],
      ['/ui/rolebindings', 'Role bindings'],
    ] as const) {
      await page.goto(crud.url + path);
      // A full page load each time: on a loaded machine one took more than the default 10 s.
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor({ timeout: 30_000 });
      const banner = page.getByRole('status').filter({ hasText: 'Stale: the newest revision was refused' });
      await banner.waitFor();
      expect(await banner.textContent()).toContain(refused);
    }
    await page.goto(crud.url + '/ui/');
    await page.getByText('Problems of the refused revision').click();
    await expectAccessible(page, 'the stale banner');
    await screenshot(page, 'stale');
    // Five full page loads, each step within its own limit (which names a step that never
    // happens): at a load of 8 on two cores they took more than 30 s together, each well within.
  }, 90_000);
});
