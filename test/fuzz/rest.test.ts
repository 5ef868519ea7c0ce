// Random REST requests against the real server in crud mode (memory, Git, SQLite): any
// method, collection, id, content type and body (plausible records, near misses, any JSON,
// deep nesting, not JSON at all). Every
// answer is either a success or a 4xx with a JSON error body — never a 5xx other than
// store_error — the process stays up, and what is stored is always a state the service
// would publish: on Git, fsck and `git status` stay clean and validate passes on the repo.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateRepo } from '../../src/tools/validate.ts';
import {
  collectionArb,
  fuzzRuns,
  fuzzTimeout,
  nastyString,
  nearMissRecord,
  plausibleRecord,
  requestBody,
} from './arbitraries.ts';
import { CRUD_DATA, type CrudService, gitOut, startCrud } from '../helpers/crud.ts';
import { request } from '../helpers/http.ts';
import { WRITE_TOKEN } from '../helpers/service.ts';

interface FuzzRequest {
  method: string;
  collection: string;
  id: string | undefined;
  contentType: string | undefined;
  body: string | undefined;
}

/** Anything: any method, path, content type and body. */
const anyRequest: fc.Arbitrary<FuzzRequest> = collectionArb.chain((collection) =>
  fc.record({
    method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
    collection: fc.oneof(
      { weight: 9, arbitrary: fc.constant(collection as string) },
      { weight: 1, arbitrary: nastyString.filter((s) => s !== '') },
    ),
    id: fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...CRUD_DATA[collection].map((r) => r.id)) },
      { weight: 1, arbitrary: fc.constant(undefined) },
      { weight: 2, arbitrary: nastyString },
    ),
    contentType: fc.constantFrom(
      'application/json',
      'application/merge-patch+json',
      'application/json; charset=utf-8',
      'text/plain',
      undefined,
    ),
    body: requestBody(collection),
  }),
);

/**
 * A write shaped as a client means it (the right path for the method, JSON), with a plausible or near-miss record: most
 * reach the rules, many are stored.
 */
const meantWrite: fc.Arbitrary<FuzzRequest> = collectionArb.chain((collection) =>
  fc
    .tuple(
      fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE'),
      fc.oneof(plausibleRecord(collection), nearMissRecord(collection)),
    )
    .map(([method, record]) => ({
      method,
      collection,
      id: method === 'POST' ? undefined : typeof record.id === 'string' ? record.id : CRUD_DATA[collection][0].id,
      contentType: method === 'PATCH' ? 'application/merge-patch+json' : 'application/json',
      body: method === 'DELETE' ? undefined : JSON.stringify(record),
    })),
);

const requestArb = fc.oneof({ weight: 3, arbitrary: meantWrite }, { weight: 2, arbitrary: anyRequest });

for (const backend of ['memory', 'git', 'sqlite'] as const) {
  describe(`random REST requests on the ${backend} backend`, () => {
    let service: CrudService;
    beforeAll(async () => {
      service = await startCrud(backend, { LOG_LEVEL: 'warn' });
    });
    afterAll(() => service?.close());

    const runs = fuzzRuns(backend === 'memory' ? 200 : 80);
    it(
      'answer 2xx/3xx or a 4xx JSON error, never a 5xx other than store_error, and store only what validates',
      async () => {
        await fc.assert(
          fc.asyncProperty(requestArb, async ({ method, collection, id, contentType, body }) => {
            const path = `/${encodeURIComponent(collection)}${id === undefined ? '' : `/${encodeURIComponent(id)}`}`;
            const res = await request(service.url, path, {
              method,
              token: WRITE_TOKEN,
              headers: contentType === undefined ? {} : { 'content-type': contentType },
              body,
            });
            if (res.status >= 400) {
              const error = res.json();
              expect(error.error, `${method} ${path}: ${res.text}`).toBeTypeOf('string');
              expect(error.message).toBeTypeOf('string');
            }
            if (res.status >= 500)
              expect(res.json().error, `${method} ${path} ${body}: ${res.text}`).toBe('store_error');
          }),
          { numRuns: runs },
        );
        expect((await request(service.url, '/health')).status).toBe(200);
        if (backend === 'git') {
          const dir = service.dir!;
          expect(gitOut(dir, 'status', '--porcelain')).toBe('');
          expect(gitOut(dir, 'fsck', '--full', '--no-dangling', '--no-progress')).toBe('');
          // Enough DELETEs empty the repo, which validate refuses to call a config repo.
          if (gitOut(dir, 'ls-files', '*.yaml') !== '') {
            const report = await validateRepo(dir);
            expect(report.problems.filter((p) => p.severity === 'error')).toEqual([]);
          }
        }
      },
      fuzzTimeout(runs),
    );
  });
}
