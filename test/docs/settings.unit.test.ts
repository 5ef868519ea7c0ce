// Every environment variable the service and its command line read is a row of the one table
// of settings in docs/configuration.md, with its default, and every row names a variable the
// code still reads. The variables are found in the sources themselves (`env.NAME`,
// `env['NAME']`, `(env, 'NAME'` of the helpers that read a setting), so a new setting without
// its row, or a row left behind by a removed one, fails here.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/markdown.ts';

/** Set by npm for its scripts, not by a person: where `npm run validate` was typed. */
const NOT_SETTINGS = new Set(['INIT_CWD']);

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function variablesRead(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of sources(join(REPO_ROOT, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(
      /\benv\.([A-Z][A-Z0-9_]+)\b|\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]|\(env, ['"]([A-Z][A-Z0-9_]+)['"]/g,
    )) {
      const name = match[1] ?? match[2] ?? match[3];
      if (NOT_SETTINGS.has(name)) continue;
      found.set(name, [...(found.get(name) ?? []), file.slice(REPO_ROOT.length)]);
    }
  }
  return found;
}

/** Tables of docs/configuration.md whose first header cell is "Variable": name(s) → default. */
function documentedSettings(): Map<string, string> {
  const rows = new Map<string, string>();
  let inTable = false;
  for (const line of readFileSync(join(REPO_ROOT, 'docs/configuration.md'), 'utf8').split('\n')) {
    if (/^\| Variable \| Default \|/.test(line)) {
      inTable = true;
      continue;
    }
    if (!line.startsWith('|')) {
      inTable = false;
      continue;
    }
    if (!inTable || /^\|[-| :]+\|$/.test(line)) continue;
    const [names = '', fallback = ''] = line
      .split('|')
      .slice(1)
      .map((cell) => cell.trim());
    for (const name of names.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) rows.set(name[1], fallback);
  }
  return rows;
}

describe('docs/configuration.md: the settings', () => {
  const read = variablesRead();
  const documented = documentedSettings();

  it('finds the settings in the sources', () => {
    for (const name of ['AUTH_TOKEN', 'API_MODE', 'CONFIG_REPO', 'OIDC_AUDIENCE', 'PEERS', 'UI', 'NO_COLOR'])
      expect([...read.keys()]).toContain(name);
  });

  it('documents every variable the code reads, each with its default', () => {
    const missing = [...read.keys()]
      .filter((name) => !documented.has(name))
      .map((name) => `${name} (read in ${read.get(name)!.join(', ')})`);
    expect(missing).toEqual([]);
    const withoutDefault = [...documented].filter(([, fallback]) => fallback === '').map(([name]) => name);
    expect(withoutDefault).toEqual([]);
  });

  it('documents no variable the code does not read', () => {
    expect([...documented.keys()].filter((name) => !read.has(name))).toEqual([]);
  });

  it('names the file form of every secret', () => {
    const text = readFileSync(join(REPO_ROOT, 'docs/configuration.md'), 'utf8');
    const secrets = new Set<string>();
    for (const file of sources(join(REPO_ROOT, 'src'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(
        /\b(?:secretFrom|tokenFrom)\(env, ['"]([A-Z][A-Z0-9_]+)['"]/g,
      ))
        secrets.add(match[1]);
    }
    expect([...secrets].sort()).toEqual(
      expect.arrayContaining(['AUTH_TOKEN', 'CRUD_AUTH_TOKEN', 'GIT_TOKEN', 'WEBHOOK_SECRET']),
    );
    expect([...secrets].filter((name) => !text.includes(`\`${name}_FILE\``))).toEqual([]);
  });
});
