// The shape of src/, checked from its imports: every file sits in one layer and imports only
// its own layer and those below it, no files import each other in a circle, the pure domain
// touches no file, network or process, and no file outgrows one concept (300 lines). The
// layers and why they are in this order are in ARCHITECTURE.md.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');
const MAX_LINES = 300;

/**
 * Lowest first. A file may import files of its own layer and of the layers before it. The
 * small helpers every layer may use (errors, durations, sizes, the logger, secrets in URLs,
 * retries) are src/shared/ and come first; config.ts, server.ts and main.ts at the top of src/
 * put everything together and come last, so nothing inside a layer may import them. `http`
 * and `tools` are two front ends side by side: neither imports the other.
 */
const LAYERS: { name: string; holds: (path: string) => boolean; mayImport: string[] }[] = [
  { name: 'shared', holds: (p) => p.startsWith('shared/'), mayImport: [] },
  { name: 'domain', holds: (p) => p.startsWith('domain/'), mayImport: ['shared'] },
  { name: 'store', holds: (p) => p.startsWith('store/'), mayImport: ['shared', 'domain'] },
  { name: 'serving', holds: (p) => p.startsWith('serving/'), mayImport: ['shared', 'domain', 'store'] },
  { name: 'peers', holds: (p) => p.startsWith('peers/'), mayImport: ['shared', 'domain', 'store', 'serving'] },
  {
    name: 'observability',
    holds: (p) => p.startsWith('observability/'),
    mayImport: ['shared', 'domain', 'store', 'serving', 'peers'],
  },
  {
    name: 'http',
    holds: (p) => p.startsWith('http/'),
    mayImport: ['shared', 'domain', 'store', 'serving', 'peers', 'observability'],
  },
  { name: 'tools', holds: (p) => p.startsWith('tools/'), mayImport: ['shared', 'domain', 'store', 'serving'] },
  {
    name: 'root',
    holds: (p) => ROOT_FILES.includes(p),
    mayImport: ['shared', 'domain', 'store', 'serving', 'peers', 'observability', 'http', 'tools'],
  },
];
/**
 * The composition root: the configuration read from the environment, the server wired together, the process
 * started; and the container's health probe, a process of its own that imports nothing of the service.
 */
const ROOT_FILES = ['config.ts', 'server.ts', 'main.ts', 'health-probe.ts'];

/**
 * What the domain may use of Node: hashing, and a deep comparison. Nothing that reads a file,
 * opens a socket or looks at the process — with one exception: the JSON Schemas the rules
 * check records with are files of the package, read once when the module loads, the way the
 * module's own source is (`domain/schema-documents.ts` and the `shared/package-root.ts` it finds them
 * from).
 */
const DOMAIN_BUILTINS = ['node:crypto', 'node:util'];
const DOMAIN_FILE_READERS: Record<string, string[]> = {
  'domain/schema-documents.ts': ['node:fs'],
  'shared/package-root.ts': ['node:fs'],
};

const IMPORT =
  /^\s*(?:import|export)\s+(type\s+)?(?:[\w*${}\s,]+?\s+from\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*(?:,|\))/gm;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [relative(SRC, path)] : [];
  });
}

interface SourceFile {
  path: string;
  lines: number;
  /** Files of src/ imported, relative to src/. */
  files: string[];
  /** Everything else imported: packages and Node's modules. */
  packages: string[];
  /** What is imported for its values, not only its types (files and packages alike). */
  valueImports: string[];
}

function read(path: string): SourceFile {
  const text = readFileSync(join(SRC, path), 'utf8');
  const files: string[] = [];
  const packages: string[] = [];
  const valueImports: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[2] ?? match[3];
    const onlyTypes =
      match[1] !== undefined ||
      (/^\s*(?:import|export)\s+\{[^}]*\}/.test(match[0]) &&
        [...match[0].matchAll(/[{,]\s*([^,}]+)/g)].every((m) => /^type\s/.test(m[1].trim())));
    let name = specifier;
    if (!specifier.startsWith('.')) packages.push(specifier);
    else {
      name = relative(SRC, resolve(SRC, dirname(path), specifier));
      // A JSON document of the package (a schema's type) is not a module of src/.
      if (!name.endsWith('.ts')) continue;
      files.push(name);
    }
    if (!onlyTypes) valueImports.push(name);
  }
  return { path, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0), files, packages, valueImports };
}

const files = sourceFiles(SRC).sort().map(read);
const layerOf = (path: string) => {
  const layer = LAYERS.find((l) => l.holds(path));
  if (!layer) throw new Error(`${path} is in no layer`);
  return layer;
};

describe('the layers of src/', () => {
  it('every import points to the same layer or one below it', () => {
    const upward: string[] = [];
    for (const file of files) {
      const from = layerOf(file.path);
      for (const target of file.files) {
        const to = layerOf(target);
        if (to !== from && !from.mayImport.includes(to.name))
          upward.push(`${file.path} (${from.name}) imports ${target} (${to.name})`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('the domain (and what it uses of the shared files) reads no file, opens no socket, starts no process', () => {
    const used = new Set(files.filter((f) => f.path.startsWith('domain/')).flatMap((f) => [f.path, ...f.files]));
    const impure: string[] = [];
    for (const file of files.filter((f) => used.has(f.path))) {
      for (const name of file.packages) {
        const builtin = name.startsWith('node:') || ['fs', 'path', 'http', 'net', 'child_process', 'os'].includes(name);
        if (builtin && !DOMAIN_BUILTINS.includes(name) && !DOMAIN_FILE_READERS[file.path]?.includes(name))
          impure.push(`${file.path} imports ${name}`);
      }
    }
    expect(impure).toEqual([]);
  });

  it('store/git/format/ only encodes and decodes: no file, no lock, nothing outside the folder', () => {
    // Reading, locking and writing git's files is store/git/files/'s; format/ turns bytes into
    // values and back, so that its code can be tested and reasoned about without a disk.
    const FORMAT = 'store/git/format/';
    const outside = files
      .filter((f) => f.path.startsWith(FORMAT))
      .flatMap((f) =>
        f.valueImports
          .filter((name) => !name.startsWith(FORMAT) && !['node:crypto', 'node:zlib'].includes(name))
          .map((name) => `${f.path} imports ${name}`),
      );
    expect(outside).toEqual([]);
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

  it(`no file of src/ is longer than ${MAX_LINES} lines`, () => {
    const long = files.filter((f) => f.lines > MAX_LINES).map((f) => `${f.path}: ${f.lines} lines`);
    expect(long).toEqual([]);
  });

  it('every import names a file that is there', () => {
    const paths = new Set(files.map((f) => f.path));
    const missing = files.flatMap((f) => f.files.filter((t) => !paths.has(t)).map((t) => `${f.path} imports ${t}`));
    expect(missing).toEqual([]);
  });

  it('the read path (http/read/) loads no Express, directly or through what it imports', () => {
    // A poll is answered by plain Node, before Express sees the request (ARCHITECTURE.md, "A
    // poll"); type imports cost nothing at run time and are left out.
    const byPath = new Map(files.map((f) => [f.path, f]));
    const loaded = new Set<string>();
    const visit = (path: string): void => {
      if (loaded.has(path)) return;
      loaded.add(path);
      for (const target of byPath.get(path)?.valueImports ?? []) if (byPath.has(target)) visit(target);
    };
    for (const file of files.filter((f) => f.path.startsWith('http/read/'))) visit(file.path);
    expect(loaded.size).toBeGreaterThan(3);
    const loadsExpress = (path: string) => byPath.get(path)!.valueImports.some((name) => /^express(\/|$)/.test(name));
    const express = [...loaded].filter(loadsExpress);
    expect(express).toEqual([]);
  });
});
