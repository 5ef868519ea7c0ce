// The runner starts a backend's watch once the first load has ended (a file watcher's first scan
// would otherwise share the start's thread). The local Git backend then looks once, when its
// watcher is ready, for what changed before: a file edited or added, or HEAD moved, between the
// first load and the watch is reported like any change; nothing changed, nothing is reported.
import { readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { Between, LoadResult } from '../../../../src/store/backend.ts';
import { LocalGitBackend } from '../../../../src/store/backends/git-local/local-git-backend.ts';
import { asRepoFiles } from '../../../helpers/fixture-data.ts';
import { git, makeConfigRepo, writeFiles } from '../../../helpers/git-fixture.ts';

let backend: LocalGitBackend | undefined;
afterEach(async () => {
  await backend?.close();
  backend = undefined;
});

/**
 * A repo whose files were written a minute ago: a file read within moments of its last change
 * is read again at every look (its stat cannot tell a later change in the same instant apart).
 */
function settledRepo(): string {
  const dir = makeConfigRepo(asRepoFiles());
  const past = new Date(Date.now() - 60_000);
  for (const folder of ['clusters', 'platform_components', 'namespaces', 'rolebindings'])
    for (const name of readdirSync(join(dir, folder))) utimesSync(join(dir, folder, name), past, past);
  return dir;
}

async function loaded(dir: string): Promise<LocalGitBackend> {
  const opened = new LocalGitBackend({
    dir,
    log: pino({ level: 'silent' }),
    writable: false,
    author: { name: 'test', email: 'test@example.com' },
    maxRecordBytes: 1024 * 1024,
  });
  await opened.open();
  expect(await opened.load({})).toHaveProperty('loaded');
  return opened;
}

/** Starts the watch; resolves with the first reason it gives, or with 'looked' once its first look found nothing. */
function watchUntilFirstLook(watched: LocalGitBackend): Promise<string> {
  return new Promise((resolve) => {
    let looks = 0;
    // The first look is the first `between` with no file event before it; an event's check comes with a path
    // and never runs here before the watcher is ready.
    const between: Between = async (look) => {
      const result = await look();
      if (++looks === 1) setImmediate(() => resolve('looked'));
      return result;
    };
    watched.watch(resolve, between);
  });
}

function servedLabels(result: LoadResult): unknown {
  if (!('loaded' in result)) throw new Error(`expected a new revision, got ${JSON.stringify(result)}`);
  return result.loaded.records.namespaces.find((n) => n.id === 'team-b')?.labels;
}

describe('a watch started after the first load', () => {
  it('reports a file edited between the load and the watch, and the next load serves it', async () => {
    const dir = settledRepo();
    backend = await loaded(dir);
    writeFiles(dir, { 'namespaces/team-b.yaml': { labels: { edited: 'before-the-watch' } } });
    expect(await watchUntilFirstLook(backend)).toBe('changed while the watcher started');
    expect(servedLabels(await backend.load({}))).toEqual({ edited: 'before-the-watch' });
  });

  it('reports a file added between the load and the watch', async () => {
    const dir = settledRepo();
    backend = await loaded(dir);
    writeFileSync(join(dir, 'namespaces/team-new.yaml'), 'labels: {}\n');
    expect(await watchUntilFirstLook(backend)).toBe('changed while the watcher started');
    const next = await backend.load({});
    expect('loaded' in next && next.loaded.records.namespaces.map((n) => n.id)).toContain('team-new');
  });

  it('reports a HEAD moved between the load and the watch with no file changed', async () => {
    const dir = settledRepo();
    backend = await loaded(dir);
    git(dir, 'commit', '--allow-empty', '-q', '-m', 'nothing but a new HEAD');
    expect(await watchUntilFirstLook(backend)).toBe('changed while the watcher started');
  });

  it('reports nothing when nothing changed', async () => {
    const dir = settledRepo();
    backend = await loaded(dir);
    expect(await watchUntilFirstLook(backend)).toBe('looked');
  });
});
