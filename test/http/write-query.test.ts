// The query of a write, on the real server in crud mode (a local Git repository): a write
// takes `dryRun=All` and nothing else. A misspelt dry run — `dryrun`, `DryRun`, `dry_run`,
// `dryRun[]` — or dryRun given twice is `400 bad_request` naming the parameter on every REST
// write (POST, PUT, PATCH, DELETE of every collection), on POST /api/v2/gitops/changes and on
// its preview, and nothing is committed: the branch, the served revision and the audit trail
// stay. A little fuzzing (fast-check) tries names a client might send by mistake.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knownQuery } from '../../src/http/rest/write-query.ts';
import { ApiError } from '../../src/http/errors.ts';
import { COLLECTIONS } from '../../src/domain/records.ts';
import { fuzzRuns, fuzzTimeout } from '../fuzz/arbitraries.ts';
import { auditLines, commitCount, type CrudService, SAMPLES, send, startCrud } from '../helpers/crud.ts';

const CHANGES = '/api/v2/gitops/changes';
const PREVIEW = '/api/v2/gitops/changes/preview';
const EXISTING = {
  clusters: 'c1',
  platform_components: 'traefik',
  namespaces: 'team-a',
  rolebindings: 'admins',
  rollouts: 'podinfo-7',
} as const;

/** Every write route, each with a body it would take. */
const WRITES: { method: string; path: string; body?: unknown }[] = [
  ...COLLECTIONS.flatMap((c) => [
    { method: 'POST', path: `/${c}`, body: SAMPLES[c].create },
    { method: 'PUT', path: `/${c}/${EXISTING[c]}`, body: SAMPLES[c].replace },
    { method: 'PATCH', path: `/${c}/${EXISTING[c]}`, body: SAMPLES[c].patch },
    { method: 'DELETE', path: `/${c}/${EXISTING[c]}` },
  ]),
  { method: 'POST', path: CHANGES, body: { writes: [{ op: 'delete', collection: 'namespaces', id: 'team-b' }] } },
  { method: 'POST', path: PREVIEW, body: { writes: [{ op: 'delete', collection: 'namespaces', id: 'team-b' }] } },
];

/** Misspelt dry runs, and the name each answer must name. */
const MISSPELT: [query: string, named: string][] = [
  ['dryrun=All', 'dryrun'],
  ['DryRun=All', 'DryRun'],
  ['dry_run=All', 'dry_run'],
  ['dryRun[]=All', 'dryRun[]'],
  ['dryRun%5B%5D=All', 'dryRun[]'],
  ['dryRun=All&dryRun=All', 'dryRun'],
  ['dryRun=All&force=true', 'force'],
  ['=All', ''],
];

let service: CrudService;
beforeAll(async () => {
  service = await startCrud('git');
});
afterAll(() => service?.close());

/** What must not move when a write is refused: the branch, the served revision, the audit trail. */
function stored(): { commits: number; served: string; audit: number } {
  return {
    commits: commitCount(service.dir!),
    served: service.store.published()!.snapshot.revision,
    audit: auditLines(service).length,
  };
}

describe('a write with a query parameter it does not know', () => {
  it.each(MISSPELT)(
    '?%s is 400 bad_request naming it on every write route, and nothing is committed',
    async (query, named) => {
      const before = stored();
      for (const { method, path, body } of WRITES) {
        const res = await send(service, method, `${path}?${query}`, body);
        expect(res.status, `${method} ${path}?${query}: ${res.text}`).toBe(400);
        expect(res.json().error).toBe('bad_request');
        expect(res.json().details.map((d: { path: string }) => d.path)).toContain(named);
        expect(res.json().message).toContain('nothing was stored');
        expect(res.headers['gitops-dry-run']).toBeUndefined();
      }
      expect(stored()).toEqual(before);
    },
  );

  it('is answered before the body is read: even a body that is not JSON gets the query refused', async () => {
    const res = await send(service, 'PATCH', '/namespaces/team-a?dryrun=All', '{not json');
    expect(res.status).toBe(400);
    expect(res.json().details).toEqual([
      { path: 'dryrun', message: expect.stringContaining('a write takes only dryRun') },
    ]);
  });

  it('?dryRun=All still dry-runs every write route; a preview takes no parameter at all', async () => {
    const before = stored();
    for (const { method, path, body } of WRITES.filter((w) => w.path !== PREVIEW)) {
      const res = await send(service, method, `${path}?dryRun=All`, body);
      // As the real call would answer: most succeed, a delete of a record in use is a 409.
      expect(res.headers['gitops-dry-run'], `${method} ${path}: ${res.text}`).toBe('true');
      expect([200, 201, 204, 409]).toContain(res.status);
    }
    const preview = await send(service, 'POST', `${PREVIEW}?dryRun=All`, WRITES.at(-1)!.body);
    expect(preview.status).toBe(400);
    expect(preview.json().message).toContain('a preview takes no query parameter');
    expect(stored()).toEqual(before);
  });
});

/** Names a client might send meaning a dry run, or anything at all, but never exactly "dryRun". */
const notDryRun = fc
  .oneof(
    fc
      .constantFrom('dryRun')
      .chain((name) =>
        fc
          .array(fc.boolean(), { minLength: name.length, maxLength: name.length })
          .map((upper) => [...name].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join('')),
      ),
    fc
      .tuple(
        fc.constantFrom('dryRun', 'dry_run', 'dry-run', 'dryrun'),
        fc.constantFrom('', '[]', '[0]', ' ', '.', '%00', '\u0000'),
      )
      .map(([a, b]) => a + b),
    fc.string({ maxLength: 20 }),
    fc.string({ unit: 'grapheme', maxLength: 12 }),
  )
  .filter((name) => name !== 'dryRun');

describe('fuzzed query names', () => {
  it('any name but dryRun is refused by name (the parser alone)', () => {
    fc.assert(
      fc.property(notDryRun, fc.string(), (name, value) => {
        const url = `/clusters/c1?${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
        try {
          knownQuery(url, ['dryRun'], 'a write');
        } catch (error) {
          expect(error).toBeInstanceOf(ApiError);
          expect((error as ApiError).code).toBe('bad_request');
          expect((error as ApiError).details?.[0]?.path).toBe(name.length > 100 ? `${name.slice(0, 100)}…` : name);
          return;
        }
        throw new Error(`${JSON.stringify(name)} was taken`);
      }),
      { numRuns: fuzzRuns(2000) },
    );
  });

  const runs = fuzzRuns(40);
  it('and on the real server nothing is committed for any of them', { timeout: fuzzTimeout(runs) }, async () => {
    const before = stored();
    await fc.assert(
      fc.asyncProperty(notDryRun, fc.constantFrom(...WRITES), async (name, { method, path, body }) => {
        const res = await send(service, method, `${path}?${encodeURIComponent(name)}=All`, body);
        expect(res.status, `${method} ${path}?${JSON.stringify(name)}: ${res.text}`).toBe(400);
        expect(res.json().error).toBe('bad_request');
      }),
      { numRuns: runs },
    );
    expect(stored()).toEqual(before);
  });
});
