// Editing through the web UI in a real Chromium, against the real service in crud mode on a
// Git repository and a local OIDC issuer on loopback: a person signs in at the issuer (code
// flow with PKCE), edits records of two kinds into one change set, previews its blast radius
// and commits it as one commit authored by them; a refused change commits nothing; a record
// changed behind the UI's back is shown and the edits re-based onto it; a reader sees no edit
// control; the history lists what was committed. Every page is checked with axe-core, makes no
// console error, and talks only to the service and the issuer. With UPDATE_SCREENSHOTS=1 the
// views are saved to docs/ui/screenshots/.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, type PageRecord, seriousAxeViolations, tabTo } from '../helpers/browser.ts';
import { commitAll, git, removeDir, tempDir } from '../helpers/git-fixture.ts';
import { eventually, request } from '../helpers/http.ts';
import {
  AUDIENCE,
  AUTHORIZATION_PATH,
  DISCOVERY_PATH,
  type OidcIssuer,
  startOidcIssuer,
  TOKEN_PATH,
} from '../helpers/oidc-issuer.ts';
import { READ_TOKEN, startTestService, type TestService, WRITE_TOKEN } from '../helpers/service.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(ROOT, 'docs', 'ui', 'screenshots') : undefined;
const CLUSTERS = ['dev-eu-1', 'prod-eu-1', 'qa-eu-1', 'uat-us-1'];
const ENDPOINTS = ['platform-components', 'namespaces', 'rolebindings'];
const ALICE = { sub: 'user-alice', name: 'Alice Admin', email: 'alice@example.com', groups: ['platform-admins'] };
const BOB = { sub: 'user-bob', name: 'Bob Reader', email: 'bob@example.com', groups: ['platform-readers'] };

let browser: Browser;
let issuer: OidcIssuer;
let service: TestService;
let repo: string;
const pages: { page: Page; record: PageRecord; expected: RegExp[] }[] = [];

beforeAll(async () => {
  repo = tempDir('ui-edit-repo-');
  cpSync(join(ROOT, 'config-repo-example'), repo, { recursive: true });
  git(repo, 'init', '-q', '-b', 'main');
  commitAll(repo, 'example fleet');
  issuer = await startOidcIssuer();
  [browser, service] = await Promise.all([
    launchBrowser(),
    startTestService({
      CONFIG_REPO: repo,
      API_MODE: 'crud',
      CRUD_AUTH_TOKEN: WRITE_TOKEN,
      OIDC_ISSUER_URL: issuer.url,
      OIDC_AUDIENCE: AUDIENCE,
      OIDC_UI_CLIENT_ID: AUDIENCE,
      OIDC_WRITE_GROUPS: 'platform-admins',
      OIDC_READ_GROUPS: 'platform-readers',
    }),
  ]);
  if (SCREENSHOTS) mkdirSync(SCREENSHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
  await issuer?.close();
  removeDir(repo);
});

/**
 * Every page a test opened made no console error (but those the test expected: the browser
 * logs every 4xx it is answered), no CSP violation, and no request to any origin but the
 * service's and the issuer's.
 */
afterEach(async () => {
  for (const { page, record, expected } of pages.splice(0)) {
    await page.context().close();
    expect(
      record.errors.filter((error) => !expected.some((pattern) => pattern.test(error))),
      'console errors',
    ).toEqual([]);
    expect(record.cspViolations, 'CSP violations').toEqual([]);
    const allowed = [new URL(service.url).origin, new URL(issuer.url).origin];
    for (const url of record.requests) expect(allowed, url).toContain(new URL(url).origin);
  }
});

async function open(
  path = '/ui/',
  expected: RegExp[] = [],
  colorScheme: 'light' | 'dark' = 'light',
): Promise<{ page: Page; record: PageRecord }> {
  const opened = await openPage(browser, { colorScheme });
  pages.push({ ...opened, expected });
  const response = await opened.page.goto(service.url + path);
  expect(response?.status()).toBe(200);
  return opened;
}

/** Signs in at the issuer as `person` from the page's sign-in view, and waits for the view `heading`. */
async function signInAs(page: Page, person: Record<string, unknown>, heading: string): Promise<void> {
  issuer.logIn(person);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
}

async function expectAccessible(page: Page, view: string): Promise<void> {
  expect(await seriousAxeViolations(page), `axe-core on ${view}`).toEqual([]);
}

/**
 * The whole page; or, with `from`, `height` pixels of it from that heading on (the part of a long page that matters).
 */
async function screenshot(page: Page, name: string, from?: string, height = 900): Promise<void> {
  if (!SCREENSHOTS) return;
  const path = join(SCREENSHOTS, `${name}.png`);
  // From the top: the sticky bar of pending changes is painted where the window stands.
  await page.evaluate('window.scrollTo(0, 0)');
  if (from === undefined) return void (await page.screenshot({ path, fullPage: true }));
  const top = await page
    .getByRole('heading', { name: from, exact: true })
    .evaluate(
      (heading: { getBoundingClientRect(): { top: number } }) =>
        heading.getBoundingClientRect().top + (globalThis as unknown as { scrollY: number }).scrollY,
    );
  await page.screenshot({ path, fullPage: true, clip: { x: 0, y: Math.max(0, top - 16), width: 1280, height } });
}

/** Types into a field and leaves it with Tab: the edit goes into the change set. */
async function setField(page: Page, name: string, value: string): Promise<void> {
  const field = page.getByRole('textbox', { name, exact: true });
  await field.fill(value);
  await field.press('Tab');
}

const pendingBar = (page: Page) => page.getByRole('region', { name: 'Pending change set' });
const head = () => git(repo, 'rev-parse', 'HEAD');

/** Every cluster's three answers as served now. */
async function answers(): Promise<Map<string, string>> {
  const all = new Map<string, string>();
  for (const id of CLUSTERS) {
    const bodies = await Promise.all(
      ENDPOINTS.map(
        async (endpoint) =>
          (
            await request(service.url, `/api/v2/gitops/clusters/${id}.k8s.example.com/${endpoint}`, {
              token: READ_TOKEN,
              headers: { 'gitops-poll': 'false' },
            })
          ).text,
      ),
    );
    all.set(id, bodies.join('\n'));
  }
  return all;
}

describe('signing in at the OIDC issuer', () => {
  it(
    'goes to the issuer with the code flow and PKCE, comes ' +
      'back to the view it left, and sends the ID token as Bearer',
    async () => {
      const { page, record } = await open('/ui/clusters/dev-eu-1');
      await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
      expect(await page.getByRole('button', { name: 'Sign in with the token' }).count()).toBe(0);
      await expectAccessible(page, 'the sign-in page with OIDC');
      await screenshot(page, 'sign-in-oidc');
      await signInAs(page, ALICE, 'dev-eu-1');
      // Back where it left, with no code in the address bar.
      expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/ui/clusters/dev-eu-1');
      expect(await page.locator('.who').textContent()).toBe('Signed in as Alice Admin (read, write)');
      const authorization = issuer.authorizations.at(-1)!;
      expect(authorization).toMatchObject({
        client_id: AUDIENCE,
        redirect_uri: `${service.url}/ui/signed-in`,
        response_type: 'code',
        code_challenge_method: 'S256',
      });
      expect(authorization.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const kept = await page.evaluate<Record<string, string>>('({ ...sessionStorage })');
      expect(Object.keys(kept).sort()).toEqual(['gitops-config-api.token', 'gitops-config-api.token-from']);
      const claims = JSON.parse(
        Buffer.from(kept['gitops-config-api.token'].split('.')[1], 'base64url').toString(),
      ) as Record<string, unknown>;
      expect(claims).toMatchObject({ iss: issuer.url, aud: AUDIENCE, name: 'Alice Admin', nonce: authorization.nonce });
      expect(await page.evaluate('localStorage.length')).toBe(0);
      expect(await page.context().cookies()).toEqual([]);
      // The issuer was asked exactly what the flow needs: discovery, the login page, the token.
      const issuerPaths = record.requests
        .filter((url) => url.startsWith(new URL(issuer.url).origin))
        .map((url) => new URL(url).pathname);
      expect(issuerPaths).toEqual([DISCOVERY_PATH, AUTHORIZATION_PATH, TOKEN_PATH]);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
      expect(await page.evaluate('sessionStorage.length')).toBe(0);
    },
  );

  it('asks to sign in again when the ID token expires, keeping the pending edits', async () => {
    const { page } = await open('/ui/clusters/dev-eu-1', [/status of 401 /]);
    await signInAs(page, ALICE, 'dev-eu-1');
    await setField(page, 'Value of podinfo ui.color', '#805ad5');
    await expect.poll(() => pendingBar(page).count()).toBe(1);
    // The tab now holds a token the issuer made an hour ago, expired since.
    const expired = await issuer.sign({
      ...ALICE,
      aud: AUDIENCE,
      iat: Math.floor(Date.now() / 1000) - 3600,
      exp: Math.floor(Date.now() / 1000) - 3000,
    });
    await page.evaluate(`sessionStorage.setItem('gitops-config-api.token', ${JSON.stringify(expired)})`);
    await page.reload();
    await page
      .getByText('Your sign-in has expired (the service answered 401). Sign in again; your pending changes are kept.')
      .waitFor();
    await signInAs(page, ALICE, 'dev-eu-1');
    expect(await pendingBar(page).textContent()).toMatch(/^1 change pending in 1 record/);
    expect(await page.getByRole('textbox', { name: 'Value of podinfo ui.color' }).inputValue()).toBe('#805ad5');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
  });

  it('keeps the pasted token available beside the issuer', async () => {
    const { page } = await open();
    await page.getByText('Paste a token instead').click();
    await page.getByLabel('Token').fill(WRITE_TOKEN);
    await page.getByRole('button', { name: 'Sign in with the token' }).click();
    await page.getByRole('heading', { name: 'Fleet', level: 1 }).waitFor();
    expect(await page.locator('.who').textContent()).toBe('Signed in as write-token (read, write)');
  });

  it('a reader (in the OIDC read group only) sees no edit control anywhere', async () => {
    const { page } = await open('/ui/clusters/uat-us-1');
    await signInAs(page, BOB, 'uat-us-1');
    expect(await page.locator('.who').textContent()).toBe('Signed in as Bob Reader (read)');
    await page.getByRole('region', { name: 'Record' }).locator('pre').waitFor();
    for (const path of ['/ui/clusters/uat-us-1', '/ui/catalog', '/ui/namespaces', '/ui/rolebindings', '/ui/']) {
      await page.goto(service.url + path);
      await page.locator('main h1').waitFor();
      await page.locator('main table, main pre').first().waitFor();
      expect(
        await page
          .locator(
            'main input:not([type=search]), main textarea, main select:not(#fleet-environment):not(#fleet-state)',
          )
          .count(),
        path,
      ).toBe(0);
      expect(await page.getByRole('button', { name: /^(Remove|Add|Delete|Create|Commit|Preview)/ }).count(), path).toBe(
        0,
      );
      expect(await page.getByRole('link', { name: 'Changes' }).count(), path).toBe(0);
    }
    await page.goto(`${service.url}/ui/catalog`);
    await page.getByRole('row', { name: /^kube-prometheus-stack\b/ }).waitFor();
    await expectAccessible(page, 'the catalog for a reader');
  });
});

describe('a change set', () => {
  it(
    'edits a patch and a catalog version across two records; Preview lists exactly the clusters whose answers ' +
      'change; Commit makes one commit by the person',
    async () => {
      const before = await answers();
      const start = head();
      const { page } = await open('/ui/clusters/dev-eu-1');
      await signInAs(page, ALICE, 'dev-eu-1');
      await setField(page, 'Value of podinfo replicaCount', '2');
      await expect.poll(() => pendingBar(page).textContent()).toMatch(/^1 change pending in 1 record/);
      await expectAccessible(page, 'the cluster view, editing');
      await screenshot(page, 'cluster-edit', 'Record', 1400);

      await page.getByRole('link', { name: 'Catalog', exact: true }).click();
      await setField(page, 'Version of kube-prometheus-stack', '67.5.0');
      await setField(page, 'Tag of kube-prometheus-stack', '67.5.0');
      await expect.poll(() => pendingBar(page).textContent()).toMatch(/^3 changes pending in 2 records/);
      await expectAccessible(page, 'the catalog, editing');
      await screenshot(page, 'catalog-edit');

      await pendingBar(page).getByRole('link', { name: 'Review, preview and commit' }).click();
      await page.getByRole('heading', { name: 'Changes', level: 1 }).waitFor();
      const pending = page.getByRole('list', { name: 'Pending changes' });
      expect(await pending.getByRole('link').allTextContents()).toEqual([
        'clusters/dev-eu-1',
        'platform_components/kube-prometheus-stack',
      ]);
      const message = 'Podinfo: two replicas on dev-eu-1; kube-prometheus-stack 67.5.0';
      await page.getByLabel('Commit message').fill(message);
      await page.getByRole('button', { name: 'Preview' }).click();
      const affected = page.getByRole('list', { name: 'Clusters this change affects' });
      await affected.waitFor();
      expect(await affected.locator('.blast-cluster a').allTextContents()).toEqual([
        'dev-eu-1',
        'prod-eu-1',
        'uat-us-1',
      ]);
      expect(await affected.textContent()).toMatch(/replicaCount.*1 → 2/);
      expect(await page.getByText('The service would publish this change').count()).toBe(1);
      expect(head()).toBe(start);
      await expectAccessible(page, 'the preview');
      await screenshot(page, 'preview');

      await page.getByRole('button', { name: 'Commit' }).click();
      await page.getByText('Committed', { exact: true }).waitFor();
      const committed = head();
      expect(committed).not.toBe(start);
      expect(await page.locator('code.revision').first().textContent()).toBe(committed);
      expect(git(repo, 'rev-parse', 'HEAD~1')).toBe(start);
      expect(git(repo, 'log', '-1', '--format=%an <%ae>|%s')).toBe(`Alice Admin <alice@example.com>|${message}`);
      expect(git(repo, 'show', '--name-only', '--format=', 'HEAD').split('\n').sort()).toEqual([
        'clusters/dev-eu-1.yaml',
        'platform_components/kube-prometheus-stack.yaml',
      ]);
      expect(await pendingBar(page).count()).toBe(0);
      await expectAccessible(page, 'the changes view after a commit');
      // The preview named exactly the clusters whose served answers changed.
      const after = await answers();
      expect(CLUSTERS.filter((id) => before.get(id) !== after.get(id))).toEqual(['dev-eu-1', 'prod-eu-1', 'uat-us-1']);
    },
  );

  it('a refused change (a dangling reference) shows the problem and commits nothing', async () => {
    const start = head();
    const { page } = await open('/ui/clusters/qa-eu-1', [/status of 400 /]);
    await signInAs(page, ALICE, 'qa-eu-1');
    await page.getByLabel('Add namespace').fill('team-typo');
    await page.getByRole('button', { name: 'Add namespace' }).click();
    await expect.poll(() => pendingBar(page).textContent()).toMatch(/^1 change pending/);
    await page.getByRole('link', { name: 'Changes', exact: true }).click();
    await page.getByLabel('Commit message').fill('Checkout team gets its namespace');
    await page.getByRole('button', { name: 'Commit' }).click();
    const refusal = page
      .getByRole('status')
      .filter({ hasText: 'The service refused the change (400); nothing was committed' });
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/clusters\/qa-eu-1.*team-typo/);
    expect(head()).toBe(start);
    // The set is kept, to be mended or discarded.
    expect(await pendingBar(page).textContent()).toMatch(/^1 change pending/);
    await expectAccessible(page, 'a refused change');
    await screenshot(page, 'refused');
    await page.getByRole('button', { name: 'Discard all' }).click();
    await expect.poll(() => pendingBar(page).count()).toBe(0);
  });

  it(
    "a record changed behind the UI's back: Commit shows what " +
      'changed meanwhile, and re-basing commits both changes',
    async () => {
      const { page } = await open('/ui/clusters/qa-eu-1', [/status of 412 /]);
      await signInAs(page, ALICE, 'qa-eu-1');
      await page.getByRole('region', { name: 'Record' }).locator('pre').waitFor();
      await setField(page, 'Value of cert-manager crds.enabled', 'false');
      await expect.poll(() => pendingBar(page).textContent()).toMatch(/^1 change pending/);
      // Someone else changes the same record, through REST, after the UI read it.
      const theirs = await request(service.url, '/clusters/qa-eu-1', {
        method: 'PATCH',
        token: WRITE_TOKEN,
        headers: { 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ patches: { 'cert-manager': { replicaCount: '2' } } }),
      });
      expect(theirs.status, theirs.text).toBe(200);
      const afterTheirs = head();
      await page.getByRole('link', { name: 'Changes', exact: true }).click();
      await page.getByLabel('Commit message').fill('cert-manager: CRDs installed separately on qa');
      await page.getByRole('button', { name: 'Commit' }).click();
      const conflict = page.getByRole('status').filter({ hasText: 'Changed meanwhile: nothing was committed' });
      await conflict.waitFor();
      expect(await conflict.getByRole('list', { name: 'What changed in clusters/qa-eu-1' }).textContent()).toBe(
        'patches.cert-manager.replicaCount: (none) → 2',
      );
      expect(head()).toBe(afterTheirs);
      await expectAccessible(page, 'a conflict');
      await screenshot(page, 'conflict');
      await page.getByRole('button', { name: 'Re-base and retry' }).click();
      await page.getByText('Committed', { exact: true }).waitFor();
      expect(git(repo, 'rev-parse', 'HEAD~1')).toBe(afterTheirs);
      expect(git(repo, 'log', '-1', '--format=%an|%s')).toBe(
        'Alice Admin|cert-manager: CRDs installed separately on qa',
      );
      const stored = (await request(service.url, '/clusters/qa-eu-1', { token: READ_TOKEN })).json();
      expect(stored.patches['cert-manager']).toEqual({ 'crds.enabled': 'false', replicaCount: '2' });
    },
  );

  it('works by keyboard alone: sign in, fleet, cluster, edit, preview, commit', async () => {
    const start = head();
    const { page } = await open();
    issuer.logIn(ALICE);
    await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
    await tabTo(page, 'button.primary', { most: 200 });
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Fleet', level: 1 }).waitFor();
    await tabTo(page, 'input[type=search]', { most: 200 });
    await page.keyboard.type('uat');
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    await tabTo(page, 'a[href="/ui/clusters/uat-us-1"]', { most: 200 });
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'uat-us-1', level: 1 }).waitFor();
    await page.getByRole('textbox', { name: 'Value of podinfo replicaCount' }).waitFor();
    await tabTo(page, 'input[aria-label="Value of podinfo replicaCount"]', { most: 200 });
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('3');
    await page.keyboard.press('Tab');
    await expect.poll(() => pendingBar(page).count()).toBe(1);
    await tabTo(page, '.pending-bar a', { most: 200, back: true });
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Changes', level: 1 }).waitFor();
    await tabTo(page, 'textarea#commit-message', { most: 200 });
    await page.keyboard.type('uat-us-1: three podinfo replicas');
    await tabTo(page, '.buttons button:first-child', { most: 200 });
    await page.keyboard.press('Enter');
    await page.getByRole('list', { name: 'Clusters this change affects' }).waitFor();
    expect(
      await page
        .getByRole('list', { name: 'Clusters this change affects' })
        .locator('.blast-cluster a')
        .allTextContents(),
    ).toEqual(['uat-us-1']);
    await tabTo(page, 'button.primary', { most: 3 });
    await page.keyboard.press('Enter');
    await page.getByText('Committed', { exact: true }).waitFor();
    expect(git(repo, 'rev-parse', 'HEAD~1')).toBe(start);
    expect(git(repo, 'log', '-1', '--format=%an|%s')).toBe('Alice Admin|uat-us-1: three podinfo replicas');
  });

  it('creates a namespace and references it in the same change set', async () => {
    const { page } = await open('/ui/namespaces');
    await signInAs(page, ALICE, 'Namespaces');
    await page.getByLabel('New namespace').fill('team-search');
    await page.getByRole('button', { name: 'Create namespace' }).click();
    await setField(page, 'New label key of team-search', 'team');
    await page.getByRole('textbox', { name: 'New label value of team-search', exact: true }).fill('search');
    await page.getByRole('button', { name: 'Add label to team-search' }).click();
    await expectAccessible(page, 'the namespaces, editing');
    await screenshot(page, 'namespaces-edit');
    await page.goto(`${service.url}/ui/clusters/qa-eu-1`);
    await page.getByLabel('Add namespace').fill('team-search');
    await page.getByRole('button', { name: 'Add namespace' }).click();
    await expect.poll(() => pendingBar(page).textContent()).toMatch(/in 2 records/);
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Fleet' }).click();
    await expect.poll(() => page.getByRole('row').count()).toBe(5);
    await expectAccessible(page, 'the fleet with changes pending');
    await page.getByRole('link', { name: 'Changes', exact: true }).click();
    await page.getByLabel('Commit message').fill('Search team: namespace on qa-eu-1');
    await page.getByRole('button', { name: 'Commit' }).click();
    await page.getByText('Committed', { exact: true }).waitFor();
    expect(git(repo, 'show', '--name-only', '--format=', 'HEAD').split('\n').sort()).toEqual([
      'clusters/qa-eu-1.yaml',
      'namespaces/team-search.yaml',
    ]);
    const namespaces = (
      await request(service.url, '/api/v2/gitops/clusters/qa-eu-1.k8s.example.com/namespaces', { token: READ_TOKEN })
    ).json();
    expect(namespaces.inputs.map((input: { id: string }) => input.id)).toContain('team-search');
    // The other editing views, and the changes view with nothing pending.
    await page.getByRole('link', { name: 'Role bindings', exact: true }).click();
    await page.getByRole('textbox', { name: 'Role of platform-admins' }).waitFor();
    await setField(page, 'Name of the new subject of platform-admins', 'oncall');
    await page.getByRole('button', { name: 'Add subject to platform-admins' }).click();
    await expect.poll(() => pendingBar(page).count()).toBe(1);
    await expectAccessible(page, 'the role bindings, editing');
    await screenshot(page, 'rolebindings-edit');
    await page.getByRole('link', { name: 'Changes', exact: true }).click();
    await page.getByRole('button', { name: 'Discard all' }).click();
    await page.getByText('No changes pending.').waitFor();
    await expectAccessible(page, 'the changes view, empty');
  });
});

describe('the dark colour scheme', () => {
  it(
    'keeps the editing views and the preview readable ' + '(axe-core checks the contrast of each colour pair)',
    async () => {
      const { page } = await open('/ui/clusters/prod-eu-1', [], 'dark');
      await signInAs(page, ALICE, 'prod-eu-1');
      await setField(page, 'Tag pin of kube-prometheus-stack', '67.4.1');
      await expect.poll(() => pendingBar(page).count()).toBe(1);
      await expectAccessible(page, 'the cluster view, editing, dark');
      await page.getByRole('link', { name: 'Catalog', exact: true }).click();
      await page.getByRole('textbox', { name: 'Version of podinfo' }).waitFor();
      await expectAccessible(page, 'the catalog, editing, dark');
      await page.getByRole('link', { name: 'Changes', exact: true }).click();
      await page.getByRole('button', { name: 'Preview' }).click();
      await page.getByRole('list', { name: 'Clusters this change affects' }).waitFor();
      await expectAccessible(page, 'the preview, dark');
      await page.getByRole('button', { name: 'Discard all' }).click();
      await page.getByRole('link', { name: 'Revisions', exact: true }).click();
      await page.getByRole('table', { name: 'Revisions' }).waitFor();
      await expectAccessible(page, 'the revisions, dark');
    },
  );
});

describe('the history', () => {
  it(
    'lists the revisions newest first with their authors and ' + "messages, and a cluster's page those that changed it",
    async () => {
      const { page } = await open('/ui/revisions');
      await signInAs(page, ALICE, 'Revisions');
      const rows = page.getByRole('table', { name: 'Revisions' }).locator('tbody tr');
      await rows.first().waitFor();
      expect(await rows.first().textContent()).toMatch(/Published.*Search team: namespace on qa-eu-1.*Alice Admin/);
      await expectAccessible(page, 'the revisions view');
      await page.getByRole('link', { name: 'Fleet', exact: true }).click();
      await page.getByRole('link', { name: 'dev-eu-1', exact: true }).click();
      const history = page.getByRole('region', { name: 'Revisions that changed it' });
      await history.getByRole('table').waitFor();
      const messages = await history.locator('.commit-message').allTextContents();
      expect(messages).toContain('Podinfo: two replicas on dev-eu-1; kube-prometheus-stack 67.5.0');
      expect(messages).not.toContain('uat-us-1: three podinfo replicas');
    },
  );

  it(
    'shows a refused revision with its problems where they ' +
      'are (the file, and its line where the service names it)',
    async () => {
      writeFileSync(join(repo, 'clusters', 'qa-eu-1.yaml'), 'id: qa-eu-1\nenviroment: qa\n');
      const refused = commitAll(repo, 'a broken cluster');
      await eventually(async () => (await request(service.url, '/ready')).json().stale === true, 15_000);
      const { page } = await open('/ui/revisions');
      await signInAs(page, ALICE, 'Revisions');
      const row = page.getByRole('table', { name: 'Revisions' }).locator('tbody tr').first();
      await row.waitFor();
      expect(await row.textContent()).toMatch(/Refused/);
      // The history names the file and the field of each problem (the line too, when it gives one).
      expect(await row.getByRole('list', { name: `Problems of ${refused.slice(0, 12)}` }).textContent()).toMatch(
        /clusters\/qa-eu-1\.yaml(:2:\d+| \/enviroment) unknown field "enviroment"/,
      );
      await expectAccessible(page, 'a refused revision');
      await screenshot(page, 'revisions');
    },
  );
});
