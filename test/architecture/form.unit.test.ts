// The form every file keeps, which prettier (.prettierrc.json) and eslint (eslint.config.js)
// hold it to and `npm run lint` checks: no line wider than 120 characters anywhere in the
// code, and no file of the web UI or the scripts longer than one concept (300 lines; src/ is
// held to it by test/architecture/imports.unit.test.ts, which says why).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const MAX_WIDTH = 120;
const MAX_LINES = 300;
/**
 * Written by a program (`npm run generate:api`, formatted by prettier but for the OpenAPI
 * document's descriptions, which its comments carry as they are), or golden answers kept as data.
 */
const NOT_WRITTEN_BY_HAND = ['ui/src/api/openapi.gen.ts', 'test/golden/'];

function codeFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((path) => /\.(ts|tsx)$/.test(path))
    .map((path) => relative(ROOT, join(ROOT, folder, path)))
    .filter((path) => !NOT_WRITTEN_BY_HAND.some((skip) => path.startsWith(skip)))
    .sort();
}

/**
 * A line prettier cannot break and a person should not: a regular expression literal alone on
 * its line (split, it would be a `new RegExp` of strings that says less).
 */
function unbreakable(line: string): boolean {
  return /^\s*\/\^?.*\/[dgimsuvy]*[,;)]*$/.test(line) && !/^\/[/*]/.test(line.trimStart());
}

describe('the form of the code', () => {
  it.each(['src', 'ui/src', 'scripts', 'test'])('%s: no line is wider than 120 characters', (folder) => {
    const wide: string[] = [];
    for (const path of codeFiles(folder)) {
      readFileSync(join(ROOT, path), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (line.length > MAX_WIDTH && !unbreakable(line)) wide.push(`${path}:${i + 1} (${line.length})`);
        });
    }
    expect(wide).toEqual([]);
  });

  it.each(['ui/src', 'scripts'])('%s: no file is longer than 300 lines', (folder) => {
    const long = codeFiles(folder)
      .map((path) => ({ path, lines: readFileSync(join(ROOT, path), 'utf8').trimEnd().split('\n').length }))
      .filter((file) => file.lines > MAX_LINES)
      .map((file) => `${file.path}: ${file.lines} lines`);
    expect(long).toEqual([]);
  });
});
