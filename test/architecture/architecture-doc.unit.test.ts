// ARCHITECTURE.md is true to the tree: every file and folder it names in backticks is there.
// Paths are cited from the repository's root (`src/...`, `test/...`), from src/ (`store/...`,
// `http/...`), or by a bare file name next to a path of its folder (`webhook-body.ts`): a bare
// name must be some file of src/, test/ or ui/. A `<name>` part stands for any entry, a `*`
// for any characters.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const FROM_ROOT = ['src/', 'test/', 'ui/', 'docs/', 'deploy/', 'schemas/', 'openapi/', 'bin/', 'scripts/', 'dist/'];
/** Names in backticks that are not files of the repository: the UI's config.json is made by the service at start. */
const NOT_FILES = new Set(['config.json']);
const FROM_SRC = ['shared/', 'domain/', 'store/', 'serving/', 'peers/', 'observability/', 'http/', 'tools/'];

function allFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) return [];
    const path = join(folder, entry.name);
    return entry.isDirectory() ? allFiles(path) : [path];
  });
}

/** Whether `path` (relative to ROOT, possibly with `<name>` and `*` parts) names something there. */
function exists(path: string): boolean {
  const parts = path.replace(/\/$/, '').split('/');
  let candidates = [ROOT];
  for (const part of parts) {
    const pattern = new RegExp(
      `^${part
        .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
        .replace(/<[^>]+>/g, '[^/]+')
        .replace(/\*/g, '[^/]*')}$`,
    );
    candidates = candidates.flatMap((folder) => {
      if (!/[<*]/.test(part)) return existsSync(join(folder, part)) ? [join(folder, part)] : [];
      try {
        return readdirSync(folder)
          .filter((name) => pattern.test(name))
          .map((name) => join(folder, name));
      } catch {
        return [];
      }
    });
  }
  return candidates.length > 0;
}

describe('ARCHITECTURE.md', () => {
  it('names only files and folders that are there', () => {
    const text = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');
    const bareNames = new Set(
      ['src', 'test', 'ui', 'scripts']
        .flatMap((folder) => allFiles(join(ROOT, folder)))
        .map((path) => path.split('/').pop()!),
    );
    const missing: string[] = [];
    let cited = 0;
    for (const [, token] of text.matchAll(/`([^`\s]+)`/g)) {
      const path = token.replace(/[,;:]$/, '');
      if (/^https?:|^\/|^--/.test(path) || path.includes('=') || NOT_FILES.has(path)) continue;
      if (FROM_ROOT.some((prefix) => path.startsWith(prefix))) {
        cited++;
        if (!exists(path)) missing.push(path);
      } else if (FROM_SRC.some((prefix) => path.startsWith(prefix))) {
        cited++;
        if (!exists(`src/${path}`)) missing.push(path);
      } else if (/^[\w.-]+\.(ts|md|json|yaml)$/.test(path) && !/^[A-Z_]+$/.test(path)) {
        cited++;
        if (!bareNames.has(path) && !exists(path)) missing.push(path);
      }
    }
    expect(cited).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });

  it('"A write" lists the hops of a write as `file.ts` `function` pairs, each function declared in its file', () => {
    const text = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');
    const section = text.slice(
      text.indexOf('\n## A write\n'),
      text.indexOf('\n## ', text.indexOf('\n## A write\n') + 1),
    );
    const hops = [...section.matchAll(/^\d+\. `([\w/.-]+\.ts)` `(\w+)`/gm)].map(([, file, name]) => ({
      file: file,
      name: name,
    }));
    expect(hops.length).toBeGreaterThan(10);
    const missing = hops.filter(({ file, name }) => {
      const path = join(ROOT, 'src', file);
      if (!existsSync(path)) return true;
      // A function, a generator, a method (possibly async or private), or a const holding one.
      const declared = new RegExp(
        `(?:function\\*?\\s+${name}\\b|^\\s+(?:async\\s+)?(?:\\*\\s*)?#?${name}\\s*[<(]|const\\s+${name}\\s*=)`,
        'm',
      );
      return !declared.test(readFileSync(path, 'utf8'));
    });
    expect(missing).toEqual([]);
  });
});
