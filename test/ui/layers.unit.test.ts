// The shape of the web UI (ui/src/), checked from its imports as test/architecture-imports.test.ts
// checks src/: every file sits in one layer and imports only its own layer and those below it,
// no files import each other in a circle, nothing is imported from outside ui/src/ but Preact,
// and no file outgrows one concept (300 lines). The layers and why they are in this order are
// in ARCHITECTURE.md ("The web UI").
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const UI_SRC = resolve(import.meta.dirname, '../../ui/src');
const MAX_LINES = 300;
/** Made from openapi/openapi.yaml (`npm run generate:api`): as long as the contract is. */
const GENERATED = ['api/openapi.gen.ts'];

/**
 * Lowest first; a layer may import its own files and those of the layers it names. The API's
 * client and types know nothing of the page; the router and the hooks only the browser and
 * Preact. `data` (what views share) and `edits` (the change set) are pure or nearly so, on top
 * of the API. Components are the pieces views are made of; `auth` (signing in, with its two
 * pages) and `views` stand side by side on them; `app` puts the page together.
 */
const LAYERS: { name: string; folder: string; mayImport: string[] }[] = [
  { name: 'api', folder: 'api/', mayImport: [] },
  { name: 'router', folder: 'router/', mayImport: [] },
  { name: 'hooks', folder: 'hooks/', mayImport: [] },
  { name: 'data', folder: 'data/', mayImport: ['api'] },
  { name: 'edits', folder: 'edits/', mayImport: ['api', 'data'] },
  { name: 'components', folder: 'components/', mayImport: ['api', 'router', 'hooks', 'data', 'edits'] },
  { name: 'auth', folder: 'auth/', mayImport: ['api', 'router', 'hooks', 'data', 'components'] },
  { name: 'views', folder: 'views/', mayImport: ['api', 'router', 'hooks', 'data', 'edits', 'components'] },
  {
    name: 'app',
    folder: 'app/',
    mayImport: ['api', 'router', 'hooks', 'data', 'edits', 'components', 'auth', 'views'],
  },
];
/** The entry point (main.tsx) belongs to the page's top, with app/. */
const ENTRY = 'main.tsx';

/** What the page may load besides its own files: Preact (decision 0030), nothing else. */
const PACKAGES = ['preact', 'preact/hooks'];

const STATIC_IMPORT = /^\s*(?:import|export)\s+(?:type\s+)?(?:[\w*${}\s,]+?\s+from\s+)?['"]([^'"]+)['"]/.source;
const DYNAMIC_IMPORT = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/.source;
const IMPORT = new RegExp(`${STATIC_IMPORT}|${DYNAMIC_IMPORT}`, 'gm');

interface SourceFile {
  path: string;
  lines: number;
  /** Files imported, relative to ui/src/ (`../` when outside it). */
  files: string[];
  packages: string[];
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [relative(UI_SRC, path)] : [];
  });
}

function read(path: string): SourceFile {
  const text = readFileSync(join(UI_SRC, path), 'utf8');
  const files: string[] = [];
  const packages: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2];
    if (!specifier.startsWith('.')) packages.push(specifier);
    // A style sheet or an image is not a module of a layer.
    else if (/\.tsx?$/.test(specifier)) files.push(relative(UI_SRC, resolve(UI_SRC, dirname(path), specifier)));
  }
  return { path, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0), files, packages };
}

const files = sourceFiles(UI_SRC).sort().map(read);
const layerOf = (path: string) => {
  const layer = path === ENTRY ? LAYERS.at(-1) : LAYERS.find((l) => path.startsWith(l.folder));
  if (!layer) throw new Error(`ui/src/${path} is in no layer`);
  return layer;
};

/** The upward imports of a set of files: each as "from (layer) imports to (layer)". */
function upwardImports(sources: readonly SourceFile[]): string[] {
  const upward: string[] = [];
  for (const file of sources) {
    const from = layerOf(file.path);
    for (const target of file.files.filter((t) => !t.startsWith('..'))) {
      const to = layerOf(target);
      if (to === from || from.mayImport.includes(to.name)) continue;
      upward.push(`${file.path} (${from.name}) imports ${target} (${to.name})`);
    }
  }
  return upward;
}

describe('the layers of ui/src/', () => {
  it('every file is in a layer, and every import points to the same layer or one below it', () => {
    expect(upwardImports(files)).toEqual([]);
  });

  it('finds an upward import (the check can fail)', () => {
    // The imports are read: the page's top imports the router, the API types the generated ones.
    expect(files.find((f) => f.path === 'app/App.tsx')?.files).toContain('router/router.ts');
    expect(files.find((f) => f.path === 'api/types.ts')?.files).toEqual(['api/openapi.gen.ts']);
    const hook: SourceFile = { path: 'hooks/use-title.ts', lines: 1, files: ['app/App.tsx'], packages: [] };
    const imported = ['edits/change-set.ts', 'api/client.ts'];
    const api: SourceFile = { path: 'api/changes.ts', lines: 1, files: imported, packages: [] };
    expect(upwardImports([hook, api])).toEqual([
      'hooks/use-title.ts (hooks) imports app/App.tsx (app)',
      'api/changes.ts (api) imports edits/change-set.ts (edits)',
    ]);
  });

  it('no files import each other in a circle (type imports included)', () => {
    const byPath = new Map(files.map((f) => [f.path, f]));
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (path: string) => {
      state.set(path, 'open');
      stack.push(path);
      for (const target of byPath.get(path)?.files ?? []) {
        if (state.get(target) === 'open') cycles.push([...stack.slice(stack.indexOf(target)), target].join(' -> '));
        else if (!state.has(target)) visit(target);
      }
      stack.pop();
      state.set(path, 'done');
    };
    for (const file of files) if (!state.has(file.path)) visit(file.path);
    expect(cycles).toEqual([]);
  });

  it('imports nothing from outside ui/src/ but Preact: no file of the service, no other package', () => {
    const outside = files.flatMap((f) => [
      ...f.files.filter((t) => t.startsWith('..')).map((t) => `${f.path} imports ${t}`),
      ...f.packages.filter((p) => !PACKAGES.includes(p)).map((p) => `${f.path} imports ${p}`),
    ]);
    expect(outside).toEqual([]);
  });

  it('every import names a file that is there', () => {
    const paths = new Set(files.map((f) => f.path));
    const missing = files.flatMap((f) =>
      f.files.filter((t) => !t.startsWith('..') && !paths.has(t)).map((t) => `${f.path} imports ${t}`),
    );
    expect(missing).toEqual([]);
  });

  it(`no file of ui/src/ is longer than ${MAX_LINES} lines (the types generated from the contract aside)`, () => {
    const long = files
      .filter((f) => f.lines > MAX_LINES && !GENERATED.includes(f.path))
      .map((f) => `${f.path}: ${f.lines} lines`);
    expect(long).toEqual([]);
  });
});
