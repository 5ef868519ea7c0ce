// Acting on rollouts from the web UI in a real Chromium, against the real service in crud mode
// (the service releasing ready steps itself) on a Git repository, a simulated fleet of 24
// clusters polling it and a local OIDC issuer. kube-prometheus-stack goes out in three waves:
// the service releases the canary and non-prod steps, and a person, by keyboard alone,
// approves wave prod, pauses, resumes and rolls it back to none — every action previewed, then
// committed as one commit authored by them — after which every cluster polls exactly the
// answer it had before. cert-manager's rollout is halted by a cluster that never polls: its
// page names it, Advance asks for confirmation before anything else, and once forced the
// rollout is completed. A reader sees every view and no action. Each dialog passes axe-core
// light and dark and fits a phone; with UPDATE_SCREENSHOTS=1 they are saved to docs/ui/screenshots/.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, type PageRecord, seriousAxeViolations, tabTo } from '../helpers/browser.ts';
import { send } from '../helpers/crud.ts';
import { git } from '../helpers/git-fixture.ts';
import { request } from '../helpers/http.ts';
import { AUDIENCE, type OidcIssuer, startOidcIssuer } from '../helpers/oidc-issuer.ts';
import { READ_TOKEN } from '../helpers/service.ts';
import { type Answer, OTHER, ROLLED, type SimulatedFleet, startSimulatedFleet } from '../helpers/simulated-fleet.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(ROOT, 'docs', 'ui', 'screenshots') : undefined;
const ALICE = { sub: 'user-alice', name: 'Alice Admin', email: 'alice@example.com', groups: ['platform-admins'] };
const BOB = { sub: 'user-bob', name: 'Bob Reader', email: 'bob@example.com', groups: ['platform-readers'] };
const KPS = 'kps-67-5';
const CM = 'cert-manager-1-17';
/** In the repo, not in the simulated fleet: it never polls, so cert-manager's first step never gets done. */
const SILENT = 'prod-ap-9';

let browser: Browser;
let issuer: OidcIssuer;
let fleet: SimulatedFleet;
/** Every cluster's answer before any step of kube-prometheus-stack's rollout was released. */
const before = new Map<string, Answer>();
const pages: { page: Page; record: PageRecord }[] = [];

beforeAll(async () => {
  issuer = await startOidcIssuer();
  [browser, fleet] = await Promise.all([
    launchBrowser(),
    startSimulatedFleet({
      env: {
        API_MODE: 'crud',
        ROLLOUT_AUTO_ADVANCE: 'on',
        OIDC_ISSUER_URL: issuer.url,
        OIDC_AUDIENCE: AUDIENCE,
        OIDC_UI_CLIENT_ID: AUDIENCE,
        OIDC_WRITE_GROUPS: 'platform-admins',
        OIDC_READ_GROUPS: 'platform-readers',
      },
      extraFiles: {
        [`rollouts/${KPS}.yaml`]: {
          id: KPS,
          component: ROLLED,
          set: { component_version: '67.5.0', oci_tag: '67.5.0' },
          waves: [
            { name: 'canary', clusters: ['dev-eu-1'] },
            { name: 'non-prod', environments: ['dev', 'qa', 'uat'] },
            { name: 'prod', environments: ['prod'], batch: '50%', soak: '1h', approval: true },
          ],
          paused: true,
        },
        [`rollouts/${CM}.yaml`]: {
          id: CM,
          component: OTHER,
          set: { component_version: 'v1.17.0', oci_tag: 'v1.17.0' },
          waves: [
            { name: 'first', clusters: [SILENT] },
            { name: 'rest', environments: ['dev', 'qa', 'uat', 'prod'] },
          ],
          progress_deadline: '1s',
          released: 1,
        },
        [`clusters/${SILENT}.yaml`]: {
          id: SILENT,
          cluster_name: SILENT,
          cluster_dns: `${SILENT}.k8s.example.com`,
          environment: 'prod',
          platform_components: [{ id: OTHER, enabled: true }],
        },
      },
    }),
  ]);
  if (SCREENSHOTS) mkdirSync(SCREENSHOTS, { recursive: true });
  await fleet.polledSince(Date.now(), undefined, 30_000);
  for (const c of fleet.clusters) before.set(c.id, fleet.last(c.id)!);
  // Someone resumes it: the service releases the canary, then non-prod, then waits for a person.
  const resumed = await send(fleet.service, 'PATCH', `/rollouts/${KPS}`, { paused: false });
  expect(resumed.status, resumed.text).toBe(200);
  await statusUntil(KPS, (s) => s.state === 'waiting' && s.reason === 'waits for approval of wave prod');
  await statusUntil(CM, (s) => s.state === 'halted');
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await fleet?.close();
  await issuer?.close();
});

afterEach(async () => {
  const allowed = [new URL(fleet.service.url).origin, new URL(issuer.url).origin];
  for (const { page, record } of pages.splice(0)) {
    await page.context().close();
    expect(record.errors, 'console errors').toEqual([]);
    expect(record.cspViolations, 'CSP violations').toEqual([]);
    for (const url of record.requests) expect(allowed, url).toContain(new URL(url).origin);
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
    if (i > 600) throw new Error(`${id}: not reached: ${JSON.stringify(s).slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const repo = () => fleet.prepared.dir!;
const lastCommit = () => git(repo(), 'log', '-1', '--format=%an <%ae>|%s');
/** The last commits, newest first, as "author <email>|subject": the service may have committed a release since. */
const commits = (n = 3) => git(repo(), 'log', `-${n}`, '--format=%an <%ae>|%s').split('\n');

async function signedIn(path: string, person: Record<string, unknown>): Promise<Page> {
  const opened = await openPage(browser);
  pages.push(opened);
  const { page } = opened;
  await page.goto(fleet.service.url + path);
  issuer.logIn(person);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  return page;
}

const actions = (page: Page) => page.getByRole('group', { name: 'Actions on the rollout' });
const dialog = (page: Page, name: string) => page.getByRole('dialog', { name });

/** The preview's verdict on which clusters' answers change, once it is there. */
async function previewed(box: Locator): Promise<string> {
  // The blast radius's heading (a rollout's plan, when the preview lists one, has its own).
  const heading = box.getByRole('region', { name: 'Preview' }).getByRole('heading', { level: 3, name: /answers/ });
  await heading.waitFor();
  return (await heading.textContent())!;
}

/** axe-core on the page with its dialog open, light and dark. */
async function expectAccessible(page: Page, view: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    expect(await seriousAxeViolations(page), `axe-core on ${view}, ${colorScheme}`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * The dialog at desktop width and at a phone's (390 × 844), where it must fit: nothing wider
 * than the window, the page no sideways scroll. Saved with UPDATE_SCREENSHOTS=1.
 */
async function shoot(page: Page, box: Locator, name: string): Promise<void> {
  if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
  const fits = await box.evaluate(
    (d: any) => d.scrollWidth <= d.clientWidth && d.getBoundingClientRect().right <= (globalThis as any).innerWidth,
  );
  expect(fits, `${name} fits a phone`).toBe(true);
  if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, `${name}-phone.png`) });
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** By keyboard: Tab to the action's button, Enter; the dialog named `title` opens with its preview. */
async function openByKeyboard(page: Page, action: string, title: string): Promise<Locator> {
  await actions(page).locator(`button[data-action="${action}"]`).waitFor();
  await tabTo(page, `button[data-action="${action}"]`, { most: 200 });
  await page.keyboard.press('Enter');
  const box = dialog(page, title);
  await box.waitFor();
  return box;
}

/** By keyboard: Tab to Commit in the dialog, Enter; waits until the page says it is committed. */
async function commitByKeyboard(page: Page, box: Locator): Promise<void> {
  await tabTo(page, '.action-dialog button.primary', { most: 40 });
  expect(await page.evaluate('document.activeElement?.textContent')).toBe('Commit');
  await page.keyboard.press('Enter');
  await box.waitFor({ state: 'detached' });
  await page.getByText('Committed', { exact: true }).waitFor();
}

describe('acting on a rollout', () => {
  it(
    'by keyboard alone: approve the next wave, pause, resume, roll back to none; ' + 'each one commit by the person',
    async () => {
      const page = await signedIn(`/ui/rollouts/${KPS}`, ALICE);
      await page.getByRole('heading', { name: KPS, level: 1 }).waitFor();
      await actions(page).getByRole('button').first().waitFor();
      // Waiting for approval, step 2 of 4: no Resume (not paused), no Complete (steps left).
      expect(await actions(page).getByRole('button').allTextContents()).toEqual([
        'Approve wave prod',
        'Pause',
        'Advance (gates not passed)',
        'Roll back',
      ]);
      const start = git(repo(), 'rev-parse', 'HEAD');

      let box = await openByKeyboard(page, 'approve', `Approve wave prod of ${KPS}`);
      expect(await previewed(box)).toBe('No cluster’s answers change');
      expect(await box.getByLabel('Commit message').inputValue()).toBe(`rollout ${KPS}: approve wave prod`);
      expect(git(repo(), 'rev-parse', 'HEAD')).toBe(start);
      await expectAccessible(page, 'the approve dialog');
      await shoot(page, box, 'rollout-approve');
      await commitByKeyboard(page, box);
      expect(commits()).toContain(`Alice Admin <alice@example.com>|rollout ${KPS}: approve wave prod`);
      // Approved: the service releases step 3 (half of prod) by itself, and the page follows.
      await page.getByText('Step 3 of 4 released').waitFor({ timeout: 20_000 });

      box = await openByKeyboard(page, 'pause', `Pause ${KPS}`);
      expect(await previewed(box)).toBe('No cluster’s answers change');
      await expectAccessible(page, 'the pause dialog');
      await shoot(page, box, 'rollout-pause');
      await commitByKeyboard(page, box);
      expect(lastCommit()).toBe(`Alice Admin <alice@example.com>|rollout ${KPS}: pause at step 3 of 4`);

      box = await openByKeyboard(page, 'resume', `Resume ${KPS}`);
      expect(await actions(page).locator('button[data-action="pause"]').count()).toBe(0);
      expect(await previewed(box)).toBe('No cluster’s answers change');
      await expectAccessible(page, 'the resume dialog');
      await shoot(page, box, 'rollout-resume');
      await commitByKeyboard(page, box);
      expect(lastCommit()).toBe(`Alice Admin <alice@example.com>|rollout ${KPS}: resume at step 3 of 4`);

      const released = (await status(KPS)).steps.slice(0, 3).flatMap((s) => s.clusters.map((c) => c.id));
      expect(released).toHaveLength(21);
      box = await openByKeyboard(page, 'rollback', `Roll back ${KPS}`);
      const to = box.getByRole('combobox', { name: 'Roll back to' });
      expect(await to.inputValue()).toBe('0');
      expect(await to.locator('option:checked').textContent()).toBe("None: the catalog's answer everywhere");
      expect(await previewed(box)).toBe('21 clusters get different answers');
      const affected = box.getByRole('list', { name: 'Clusters this change affects' });
      expect((await affected.locator('.blast-cluster a').allTextContents()).sort()).toEqual([...released].sort());
      expect(await affected.textContent()).toMatch(/oci_tag.*67\.5\.0.*→.*67\.4\.0/);
      await expectAccessible(page, 'the roll back dialog');
      await shoot(page, box, 'rollout-rollback');
      await commitByKeyboard(page, box);
      expect(lastCommit()).toBe(
        `Alice Admin <alice@example.com>|rollout ${KPS}: roll back to 0 (the catalog entry as it is, everywhere) ` +
          'from step 3, and pause',
      );
      expect(git(repo(), 'rev-list', '--count', `${start}..HEAD`)).toBe('5');

      // Every cluster, polling as it does, gets exactly the answer it had before the rollout began.
      await fleet.polledSince(Date.now(), undefined, 20_000);
      for (const c of fleet.clusters) {
        const [was, is] = [before.get(c.id)!, fleet.last(c.id)!];
        expect({ id: c.id, etag: is.etag, body: is.body }).toEqual({ id: c.id, etag: was.etag, body: was.body });
      }
      await page.getByText('No step of 4 released').waitFor({ timeout: 20_000 });
      // Paused, nothing released: Resume and a forced Advance are all that is left.
      expect(await actions(page).getByRole('button').allTextContents()).toEqual([
        'Resume',
        'Advance (gates not passed)',
      ]);
      // And as a person sees it on a cluster's page: a cluster of step 3 serves the ETag it served before.
      const plain = (etag: string) => etag.replace(/-gzip"$/, '"');
      const cluster = released[released.length - 1];
      await page.goto(`${fleet.service.url}/ui/clusters/${cluster}`);
      const answer = page.getByRole('region', { name: 'platform-components' });
      await expect
        .poll(async () => plain((await answer.locator('dt:text-is("ETag") + dd > code').textContent()) ?? ''), {
          timeout: 10_000,
        })
        .toBe(plain(before.get(cluster)!.etag));
    },
    120_000,
  );

  it('the timeline lists the commits that moved it, the service’s releases and the person’s actions', async () => {
    const page = await signedIn(`/ui/rollouts/${KPS}`, ALICE);
    const timeline = page
      .getByRole('region', { name: 'Timeline' })
      .getByRole('list', { name: 'Commits of the rollout' });
    await timeline.waitFor();
    const items = timeline.getByRole('listitem');
    const subjects = await items.locator('.timeline-subject').allTextContents();
    expect(subjects).toEqual([
      `rollout ${KPS}: roll back to 0 (the catalog entry as it is, everywhere) from step 3, and pause`,
      `rollout ${KPS}: resume at step 3 of 4`,
      `rollout ${KPS}: pause at step 3 of 4`,
      expect.stringMatching(
        new RegExp(`^rollout ${KPS}: release step 3 \\(wave prod, 3 clusters\\) — step 2 done at `),
      ),
      `rollout ${KPS}: approve wave prod`,
      expect.stringMatching(new RegExp(`^rollout ${KPS}: release step 2 \\(wave non-prod, 17 clusters\\) — `)),
      expect.stringMatching(new RegExp(`^rollout ${KPS}: release step 1 \\(wave canary, 1 cluster\\)`)),
      expect.stringMatching(/^rollouts: update kps-67-5/),
    ]);
    // The service's releases are its own commits; so is the resumption made with the write token.
    const authors = await items.locator('.timeline-author').allTextContents();
    expect(authors).toEqual([
      'Alice Admin',
      'Alice Admin',
      'Alice Admin',
      'gitops-config-api',
      'Alice Admin',
      'gitops-config-api',
      'gitops-config-api',
      'gitops-config-api',
    ]);
    expect(await items.first().locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
    await expectAccessible(page, 'a rollout page with its timeline');
    if (SCREENSHOTS) {
      const top = await page.getByRole('heading', { name: 'Timeline' }).evaluate((h: any) => h.offsetTop);
      await page.screenshot({
        path: join(SCREENSHOTS, 'rollout-timeline.png'),
        fullPage: true,
        clip: { x: 0, y: Math.max(0, top - 16), width: 1280, height: 700 },
      });
    }
  });

  it(
    'a halted rollout names what holds it back; Advance asks first; ' + 'forced, then completed in one commit',
    async () => {
      const page = await signedIn(`/ui/rollouts/${CM}`, ALICE);
      const held = page
        .getByRole('region', { name: 'Where it stands' })
        .getByRole('list', { name: 'Clusters holding the rollout back' });
      expect(await held.textContent()).toBe(`${SILENT} has not fetched its step`);
      await actions(page).getByRole('button').first().waitFor();
      expect(await actions(page).getByRole('button').allTextContents()).toEqual([
        'Pause',
        'Advance (gates not passed)',
        'Roll back',
      ]);
      // The browser logs the 412 of the commit refused below, and the 404s once the rollout is completed.
      const { record } = pages.at(-1)!;
      const expected = (e: string) => /status of (404|412) /.test(e);

      await actions(page).getByRole('button', { name: 'Advance (gates not passed)' }).click();
      let box = dialog(page, `Advance ${CM}`);
      await box.getByText('The gates have not passed').waitFor();
      expect(await box.textContent()).toMatch(/The rollout is halted: .*not done within the progress deadline of 1s/);
      expect(await box.getByRole('list', { name: 'Clusters holding the rollout back' }).textContent()).toContain(
        SILENT,
      );
      // Nothing to preview or commit until the person says to release it anyway.
      expect(await box.getByRole('button', { name: 'Commit' }).count()).toBe(0);
      expect(await box.getByRole('button', { name: 'Preview' }).count()).toBe(0);
      await expectAccessible(page, 'the confirmation of a forced advance');
      await shoot(page, box, 'rollout-advance-confirm');
      // Escape closes it with nothing sent, and gives the focus back to the button.
      await page.keyboard.press('Escape');
      expect(await box.count()).toBe(0);
      await expect.poll(() => page.evaluate('document.activeElement?.dataset.action')).toBe('advance');

      // Someone changes the record while the person looks at a preview: Commit stores nothing and says what changed.
      await actions(page).getByRole('button', { name: 'Pause' }).click();
      box = dialog(page, `Pause ${CM}`);
      expect(await previewed(box)).toBe('No cluster’s answers change');
      const theirs = await send(fleet.service, 'PATCH', `/rollouts/${CM}`, { progress_deadline: '2s' });
      expect(theirs.status, theirs.text).toBe(200);
      await box.getByRole('button', { name: 'Commit' }).click();
      await box.getByText('Changed meanwhile: nothing was committed').waitFor();
      expect(await box.getByRole('list', { name: `What changed in rollouts/${CM}` }).textContent()).toBe(
        'progress_deadline: 1s → 2s',
      );
      expect(await box.getByRole('button', { name: 'Re-base and retry' }).count()).toBe(0);
      await expectAccessible(page, 'a rollout changed meanwhile');
      await shoot(page, box, 'rollout-conflict');
      // Nothing of the person's was stored: the last commit is theirs.
      expect(git(repo(), 'log', '-1', '--format=%s')).toBe(`rollouts: update ${CM}`);
      await box.getByRole('button', { name: 'Cancel' }).click();
      await actions(page).locator('button[data-action="advance"]').focus();

      const start = git(repo(), 'rev-parse', 'HEAD');
      await page.keyboard.press('Enter');
      box = dialog(page, `Advance ${CM}`);
      await box.getByRole('button', { name: 'Advance anyway' }).click();
      expect(await previewed(box)).toBe('24 clusters get different answers');
      const message = await box.getByLabel('Commit message').inputValue();
      expect(message).toMatch(
        new RegExp(`^rollout ${CM}: release step 2 \\(wave rest, 24 clusters\\) — forced while halted: `),
      );
      await expectAccessible(page, 'the preview of a forced advance');
      await shoot(page, box, 'rollout-advance');
      await box.getByRole('button', { name: 'Commit' }).click();
      await page.getByText('Committed', { exact: true }).waitFor();
      expect(lastCommit()).toBe(`Alice Admin <alice@example.com>|${message}`);

      // Every step released: Complete is offered, and folds the set into the catalog in one commit.
      await actions(page).locator('button[data-action="complete"]').click();
      box = dialog(page, `Complete ${CM}`);
      expect(await previewed(box)).toBe('No cluster’s answers change');
      expect(await box.getByLabel('Commit message').inputValue()).toBe(
        `rollout ${CM}: complete: fold component_version v1.17.0, oci_tag v1.17.0 into platform_components/${OTHER}, ` +
          'remove the rollout',
      );
      await expectAccessible(page, 'the complete dialog');
      await shoot(page, box, 'rollout-complete');
      await box.getByRole('button', { name: 'Commit' }).click();
      await page.getByText('The rollout is no more').waitFor({ timeout: 20_000 });
      expect(lastCommit()).toMatch(/^Alice Admin <alice@example.com>\|rollout cert-manager-1-17: complete: /);
      expect(git(repo(), 'show', '--name-status', '--format=', 'HEAD').split('\n').sort()).toEqual([
        `D\trollouts/${CM}.yaml`,
        `M\tplatform_components/${OTHER}.yaml`,
      ]);
      expect(git(repo(), 'rev-list', '--count', `${start}..HEAD`)).toBe('2');
      const entry = await request(fleet.service.url, `/platform_components/${OTHER}`, { token: READ_TOKEN });
      expect(entry.json()).toMatchObject({ component_version: 'v1.17.0', oci_tag: 'v1.17.0' });
      record.errors.splice(0, record.errors.length, ...record.errors.filter((e) => !expected(e)));
    },
    120_000,
  );

  it('a reader sees every rollout view, the timeline, and no action', async () => {
    const page = await signedIn(`/ui/rollouts/${KPS}`, BOB);
    await page.getByRole('heading', { name: KPS, level: 1 }).waitFor();
    await page.getByRole('list', { name: 'Commits of the rollout' }).waitFor();
    await page.getByRole('table', { name: 'Clusters of the rollout' }).waitFor();
    expect(await page.getByRole('region', { name: 'Actions' }).count()).toBe(0);
    expect(await page.locator('button[data-action]').count()).toBe(0);
    await page.getByRole('link', { name: 'every rollout' }).click();
    await page.getByRole('table', { name: 'Rollouts' }).waitFor();
    expect(await page.locator('button[data-action]').count()).toBe(0);
  });
});
