// A real Chromium for the UI's tests and the benchmark: the one the devDependency
// @sparticuz/chromium ships inside its npm package (brotli-compressed), so nothing is
// downloaded at run time. It is unpacked once per package version into a folder of its own
// under the system's temp folder: unpacked into a fresh folder first and renamed into place,
// so that two test processes (or two checkouts) starting at once never see a half-written
// browser, and a run killed while unpacking leaves only a stray folder behind.
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

const require = createRequire(import.meta.url);
/** The package's folder (its exports name no file but the entry, build/cjs/index.cjs). */
const PACKAGE_DIR = resolve(dirname(require.resolve('@sparticuz/chromium')), '..', '..');
const VERSION = (JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { version: string }).version;
const HOME = join(tmpdir(), `gitops-config-api-chromium-${VERSION}`);

/**
 * Of the flags @sparticuz/chromium recommends (made for AWS Lambda), those that would weaken
 * what the tests check are left out: --disable-web-security and
 * --allow-running-insecure-content would switch off the same-origin rules the UI's
 * Content-Security-Policy is tested under, and --single-process is only needed on Lambda.
 * Its own --headless value is replaced by Playwright's. Its GPU in the browser's process, drawn
 * by SwiftShader (OpenGL emulated on the CPU), is left out too: with --disable-gpu (below) pages
 * are drawn by the software rasterizer, which costs less CPU for what the tests draw (a file of
 * 19 browser tests: 47 s of CPU against 55 s, run one after the other at the same load).
 */
const LEFT_OUT = new Set([
  '--disable-web-security',
  '--allow-running-insecure-content',
  '--single-process',
  "--headless='shell'",
  '--ignore-gpu-blocklist',
  '--in-process-gpu',
  '--use-gl=angle',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
]);

/**
 * Added: this machine has no network but the package registries, so Chromium's own
 * background connections (updates, sync, field trials) would only fail, slowly and noisily.
 * --no-sandbox is in the package's list already: the tests may run as root, where
 * Chromium's sandbox refuses to start.
 */
const ADDED = [
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-features=Translate,MediaRouter',
  '--disable-gpu',
];

/** The unpacked browser's executable, unpacking it the first time. */
export async function chromiumExecutable(): Promise<string> {
  const executable = join(HOME, 'chromium');
  if (existsSync(executable)) return executable;
  const staging = mkdtempSync(`${HOME}.unpacking-`);
  const savedTmp = process.env.TMPDIR;
  try {
    // The package unpacks into os.tmpdir(), which reads TMPDIR on each call.
    process.env.TMPDIR = staging;
    const { default: sparticuz } = await import('@sparticuz/chromium');
    await sparticuz.executablePath(join(PACKAGE_DIR, 'bin'));
  } finally {
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
  }
  // Its fontconfig file names /tmp/fonts; this one names the fonts unpacked here, and the
  // system's own when there are any.
  writeFileSync(
    join(staging, 'fonts', 'fonts.conf'),
    `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  ` +
      `<dir>${join(HOME, 'fonts')}</dir>\n  <dir>/usr/share/fonts</dir>\n  ` +
      `<cachedir>${join(HOME, 'fonts-cache')}</cachedir>\n</fontconfig>\n`,
  );
  try {
    renameSync(staging, HOME);
  } catch (error) {
    // Another process put its copy in place first: use that one.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(executable)) throw error;
  }
  return executable;
}

export async function launchBrowser(): Promise<Browser> {
  const { default: sparticuz } = await import('@sparticuz/chromium');
  return chromium.launch({
    executablePath: await chromiumExecutable(),
    headless: true,
    args: [...sparticuz.args.filter((arg) => !LEFT_OUT.has(arg)), ...ADDED],
    env: { ...process.env, FONTCONFIG_PATH: join(HOME, 'fonts') },
  });
}

/** What a page did that a test checks afterwards: its console errors, its requests, CSP violations. */
export interface PageRecord {
  errors: string[];
  requests: string[];
  cspViolations: string[];
}

/** A new context (its own sessionStorage) and page, recording what the page does. */
export async function openPage(
  browser: Browser,
  options: { colorScheme?: 'light' | 'dark' } = {},
): Promise<{ context: BrowserContext; page: Page; record: PageRecord }> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    colorScheme: options.colorScheme ?? 'light',
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  // Well under the test's own limit, so that a step that never happens is named in the failure.
  page.setDefaultTimeout(10_000);
  const record: PageRecord = { errors: [], requests: [], cspViolations: [] };
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    // The browser logs every answer of 4xx as an error: a test that expects one filters it out.
    const url = message.location().url;
    record.errors.push(`${message.text()}${url ? ` (${url})` : ''}`);
  });
  page.on('pageerror', (error) => record.errors.push(`uncaught: ${error.message}`));
  context.on('request', (request) => record.requests.push(request.url()));
  await page.exposeFunction('__reportCspViolation', (text: string) => record.cspViolations.push(text));
  // Page code is given as text: this project's TypeScript knows Node's globals, not the DOM's.
  await page.addInitScript(`document.addEventListener('securitypolicyviolation', (event) => {
    window.__reportCspViolation(event.violatedDirective + ' ' + event.blockedURI);
  });`);
  return { context, page, record };
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** axe-core's violations of impact serious or critical on the page as it is now. */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern: the page
  // itself is left exactly as served. Once per document: compiling axe-core's 650 KB took
  // longer than a run of its rules (300-540 ms against 100-350, a file of 17 runs).
  if (await page.evaluate<boolean>(`typeof axe === 'undefined'`)) await page.evaluate(`${AXE_SOURCE}\n;undefined`);
  const violations = await page.evaluate<AxeViolation[]>(
    `axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations.map((v) => ` +
      `({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) })))`,
  );
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * Presses Tab (Shift+Tab with `back`) until the focused element matches `selector`, as a
 * person using the keyboard alone would; fails after `most` presses.
 */
export async function tabTo(
  page: Page,
  selector: string,
  options: { back?: boolean; most?: number } = {},
): Promise<void> {
  for (let i = 0; i < (options.most ?? 30); i++) {
    await page.keyboard.press(options.back ? 'Shift+Tab' : 'Tab');
    if (await page.evaluate(`document.activeElement?.matches(${JSON.stringify(selector)}) ?? false`)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

/** A phone's viewport (an iPhone 12 to 15): the width the UI must be usable at. */
export const PHONE = { width: 390, height: 844 };

/** An id's text the page does not show whole, and why. */
export interface CutText {
  text: string;
  why: string;
}

/**
 * At the page's width now: whether the page itself scrolls sideways, and each element matching
 * `selector` that is rendered (not in a closed <details>, not a virtual table's row out of the
 * DOM) whose text is not shown whole. Its text's rendered width (a Range over it) is read
 * against every box around it that clips (an overflow other than visible: an ellipsis, a
 * table scrolling in its own box) and against the window, and it must sit on one line.
 */
export async function textsNotWhole(
  page: Page,
  selector: string,
): Promise<{ pageScrolls: boolean; checked: number; cut: CutText[] }> {
  // Page code as text: this project's TypeScript knows Node's globals, not the DOM's.
  return page.evaluate(`(() => {
    const cut = [];
    let checked = 0;
    for (const el of document.querySelectorAll(${JSON.stringify(selector)})) {
      if (el.getClientRects().length === 0) continue;
      checked++;
      const text = el.textContent.trim();
      const range = document.createRange();
      range.selectNodeContents(el);
      const box = range.getBoundingClientRect();
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.bottom)));
      if (lines.size > 1) cut.push({ text, why: 'on ' + lines.size + ' lines' });
      if (box.left < -0.5 || box.right > window.innerWidth + 0.5)
        cut.push({ text, why: 'outside the window (' + Math.round(box.left) + ' to ' + Math.round(box.right) + ')' });
      for (let box2 = el; box2 && box2 !== document.documentElement; box2 = box2.parentElement) {
        if (getComputedStyle(box2).overflowX === 'visible') continue;
        const outer = box2.getBoundingClientRect();
        const left = outer.left + box2.clientLeft;
        const right = left + box2.clientWidth;
        if (box.left < left - 0.5 || box.right > right + 0.5) {
          cut.push({ text, why: Math.round(box.width) + ' px of text in ' + Math.round(right - left) + ' px of ' +
            box2.tagName.toLowerCase() + (box2.className ? '.' + String(box2.className).split(' ')[0] : '') });
          break;
        }
      }
    }
    return { pageScrolls: document.documentElement.scrollWidth > window.innerWidth, checked, cut };
  })()`);
}

/** The rendered form fields (input, select, textarea) wider than the box they sit in, by their accessible label. */
export async function fieldsNotFitting(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const wide = [];
    for (const el of document.querySelectorAll('input:not([type=checkbox]):not([type=radio]), select, textarea')) {
      if (el.getClientRects().length === 0 || !el.parentElement) continue;
      const box = el.getBoundingClientRect();
      const outer = el.parentElement.getBoundingClientRect();
      if (box.right > outer.right + 0.5 || box.left < outer.left - 0.5)
        wide.push((el.labels?.[0]?.textContent ?? el.getAttribute('aria-label') ?? el.id) + ': ' +
          Math.round(box.width) + ' px in ' + Math.round(outer.width) + ' px');
    }
    return wide;
  })()`);
}
