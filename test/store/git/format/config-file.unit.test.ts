// A repository's Git config read as git reads it (src/store/git/format/config-file.ts): each
// file of test/fixtures/git-format/config/ beside git's own reading of it, made by
// make-fixtures.sh (`git config --list --null`, or the line git refuses).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitConfigError, parseGitConfig } from '../../../../src/store/git/format/config-file.ts';

const FIXTURE = join(import.meta.dirname, '../../../fixtures/git-format/config');
const cases = readdirSync(FIXTURE)
  .filter((name) => name.endsWith('.config'))
  .map((name) => name.slice(0, -'.config'.length));
const read = (name: string, ext: string) => readFileSync(join(FIXTURE, `${name}.${ext}`), 'utf8');

/** `git config --list --null`: "name\nvalue" or, for a key written alone, "name", each ended by NUL. */
function gitVariables(list: string): [string, (string | null)[]][] {
  const variables = new Map<string, (string | null)[]>();
  for (const item of list.split('\0').slice(0, -1)) {
    const newline = item.indexOf('\n');
    const [name, value] = newline === -1 ? [item, null] : [item.slice(0, newline), item.slice(newline + 1)];
    variables.set(name, [...(variables.get(name) ?? []), value]);
  }
  return [...variables];
}

describe('parseGitConfig', () => {
  it('has cases git reads and cases git refuses', () => {
    expect(cases.filter((name) => name.endsWith('.bad')).length).toBeGreaterThan(3);
    expect(cases.filter((name) => !name.endsWith('.bad')).length).toBeGreaterThan(2);
  });

  it.each(cases.filter((name) => !name.endsWith('.bad')))(
    '%s: the variables and values git lists, in its order',
    (name) => {
      expect([...parseGitConfig(read(name, 'config'))]).toEqual(gitVariables(read(name, 'git-list')));
    },
  );

  it.each(cases.filter((name) => name.endsWith('.bad')))('%s: refused at the line git refuses', (name) => {
    const line = /bad config line (\d+)/.exec(read(name, 'git-error'))![1];
    expect(() => parseGitConfig(read(name, 'config'))).toThrow(GitConfigError);
    expect(() => parseGitConfig(read(name, 'config'))).toThrow(`bad config line ${line}:`);
  });
});
