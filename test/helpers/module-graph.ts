// The modules a JavaScript module loads, followed through its relative imports (static and
// dynamic with a literal specifier): which files the command line runs, and which packages
// it needs, without running it.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const IMPORT =
  /\b(?:import|export)\s+(type\s+)?(?:[\w*${}\s,]+?\s+from\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

export interface ModuleGraph {
  /** Absolute paths of the files reached. */
  files: string[];
  /** Bare specifiers imported ("isomorphic-git", "node:fs"), each once. */
  packages: string[];
}

/** What one file imports for its values (`import type` is gone when run), not followed further. */
export function valueImports(file: string): { files: string[]; packages: string[] } {
  const files: string[] = [];
  const packages: string[] = [];
  for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
    if (match[1]) continue;
    const specifier = match[2] ?? match[3];
    if (!specifier.startsWith('.')) {
      packages.push(specifier);
      continue;
    }
    const target = resolve(dirname(file), specifier);
    if (!existsSync(target)) throw new Error(`${file} imports ${specifier}, which is not there`);
    files.push(target);
  }
  return { files, packages };
}

export function moduleGraph(entry: string): ModuleGraph {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    if (!/\.[cm]?[jt]s$/.test(file)) return;
    const imports = valueImports(file);
    for (const name of imports.packages) packages.add(name);
    for (const target of imports.files) visit(target);
  };
  visit(resolve(entry));
  return { files: [...files].sort(), packages: [...packages].sort() };
}
