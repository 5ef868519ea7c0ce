// Random change sets against the real server in crud mode (memory, Git, SQLite): writes of
// every op on existing and new ids, plausible and near-miss records and patches, stale and
// current if_match, the odd malformed write. Every answer is a 201 or a 4xx with a JSON error
// body — never a 5xx other than store_error — and a set is never half applied: refused, the
// store holds exactly what it held before (same head, same records); accepted, exactly the
// records the answer names changed, as it says, in one new revision.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTIONS, type Collection } from '../../src/domain/records.ts';
import { validateRepo } from '../../src/tools/validate.ts';
import { anyJson, collectionArb, fuzzRuns, fuzzTimeout, nearMissRecord, plausibleRecord } from './arbitraries.ts';
import { CRUD_DATA, type CrudService, gitOut, send, startCrud } from '../helpers/crud.ts';
import { request } from '../helpers/http.ts';
import { storeHead } from '../helpers/stored-commits.ts';

const CHANGES = '/api/v2/gitops/changes';
const SEED = Number(process.env.FUZZ_SEED ?? 20_240_611);

/**
 * New ids that creates and deletes share, so that they meet (a create of one that exists, a delete of one that is
 * gone).
 */
const freshId = fc.integer({ min: 1, max: 12 }).map((n) => `fz-${n}`);
/** Ids a write may name: the data set's (which patches and replaces mostly keep valid) and new ones. */
const idFor = (collection: Collection, op: string) =>
  op === 'create' || op === 'delete'
    ? fc.oneof(
        { weight: 4, arbitrary: freshId },
        { weight: 1, arbitrary: fc.constantFrom(...CRUD_DATA[collection].map((r) => r.id)) },
      )
    : fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...CRUD_DATA[collection].map((r) => r.id)) },
        { weight: 1, arbitrary: freshId },
      );

function withoutId(record: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, ...rest } = record;
  return rest;
}

/** A write as a client means it: an op with what it takes, on a collection and id; most could be stored. */
const meantWrite = fc
  .tuple(collectionArb, fc.constantFrom('create', 'create', 'replace', 'patch', 'patch', 'patch', 'delete'))
  .chain(([collection, op]) =>
    fc
      .tuple(
        idFor(collection, op),
        fc.oneof(
          { weight: 7, arbitrary: plausibleRecord(collection) },
          { weight: 1, arbitrary: nearMissRecord(collection) },
        ),
        fc.oneof(
          { weight: 10, arbitrary: fc.constant(undefined) },
          { weight: 1, arbitrary: fc.constantFrom('"stale"', '*') },
        ),
      )
      .map(([id, record, ifMatch]) => {
        const content = withoutId(record);
        if (collection === 'clusters') content.cluster_dns = `${id}.fuzz.example.com`;
        const write: Record<string, unknown> = { op, collection, id };
        if (op === 'create' || op === 'replace') write.record = content;
        if (op === 'patch')
          write.patch = Object.fromEntries(
            Object.entries(content)
              .filter(([key]) => key !== 'cluster_dns')
              .slice(0, 2),
          );
        if (ifMatch !== undefined && op !== 'create') write.if_match = ifMatch;
        return write;
      }),
  );

const setArb = fc.record({
  message: fc.option(fc.string({ maxLength: 40 }), { nil: undefined }),
  writes: fc.array(fc.oneof({ weight: 30, arbitrary: meantWrite }, { weight: 1, arbitrary: anyJson }), {
    minLength: 1,
    maxLength: 5,
  }),
});

/** Every record the service serves, by "collection/id". */
async function everything(service: CrudService): Promise<Map<string, unknown>> {
  const all = new Map<string, unknown>();
  for (const collection of COLLECTIONS) {
    const res = await send(service, 'GET', `/${collection}?limit=10000`);
    expect(res.status).toBe(200);
    for (const record of res.json() as { id: string }[]) all.set(`${collection}/${record.id}`, record);
  }
  return all;
}

for (const backend of ['memory', 'git', 'sqlite'] as const) {
  describe(`random change sets on the ${backend} backend`, () => {
    let service: CrudService;
    beforeAll(async () => {
      service = await startCrud(backend, { LOG_LEVEL: 'warn' });
    });
    afterAll(() => service?.close());

    const runs = fuzzRuns(backend === 'memory' ? 120 : 50);
    it(
      'answer 201 or a 4xx JSON error naming the write, never a 5xx other than store_error, and never half apply a set',
      async () => {
        console.log(`fuzz-change-sets on ${backend}: seed ${SEED} (FUZZ_SEED), ${runs} runs (FUZZ_RUNS)`);
        const statuses = new Map<number, number>();
        await fc.assert(
          fc.asyncProperty(setArb, async (set) => {
            const before = await everything(service);
            const head = await storeHead(service);
            const res = await send(service, 'POST', CHANGES, set);
            const what = `${JSON.stringify(set)} -> ${res.status} ${res.text}`;
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
            expect(res.headers['content-type'], what).toContain('application/json');
            const after = await everything(service);
            if (res.status >= 400) {
              const error = res.json();
              expect(error.error, what).toBeTypeOf('string');
              if (res.status >= 500) expect(error.error, what).toBe('store_error');
              else expect([400, 404, 409, 412], what).toContain(res.status);
              for (const detail of error.details ?? [])
                if (detail.index !== undefined) expect(detail.index, what).toBeLessThan(set.writes.length);
              // Refused: nothing of it is stored.
              expect(after, what).toEqual(before);
              expect(await storeHead(service), what).toBe(head);
              return;
            }
            expect(res.status, what).toBe(201);
            const body = res.json() as {
              revision: string;
              unchanged: boolean;
              records: { collection: string; id: string; record: unknown }[];
            };
            const named = new Set(body.records.map((r) => `${r.collection}/${r.id}`));
            for (const stored of body.records)
              expect(after.get(`${stored.collection}/${stored.id}`) ?? null, what).toEqual(stored.record);
            for (const key of new Set([...before.keys(), ...after.keys()]))
              if (!named.has(key)) expect(after.get(key), `${what}: ${key}`).toEqual(before.get(key));
            const now = await storeHead(service);
            if (body.unchanged) expect(now, what).toBe(head);
            else expect(now, what).not.toBe(head);
            expect(body.revision, what).toBe((await request(service.url, '/ready')).json().revision);
          }),
          { numRuns: runs, seed: SEED },
        );
        console.log(
          `fuzz-change-sets on ${backend}: answers by status ${JSON.stringify(Object.fromEntries(statuses))}`,
        );
        // Enough sets must get through for "never half applied" to mean something.
        expect(statuses.get(201) ?? 0).toBeGreaterThan(runs / 10);
        expect((await request(service.url, '/health')).status).toBe(200);
        if (backend === 'git') {
          const dir = service.dir!;
          expect(gitOut(dir, 'status', '--porcelain')).toBe('');
          expect(gitOut(dir, 'fsck', '--full', '--no-dangling', '--no-progress')).toBe('');
          // Enough deletes empty the repo, which validate refuses to call a config repo.
          if (gitOut(dir, 'ls-files', '*.yaml') !== '') {
            const report = await validateRepo(dir);
            expect(report.problems.filter((p) => p.severity === 'error')).toEqual([]);
          }
        }
      },
      // A set on Git is a commit and a read of every record before and after: 50 of them took
      // 9 s alone and more than 30 s once in a full run at a load of 5.
      fuzzTimeout(runs * (backend === 'git' ? 36 : 4)),
    );
  });
}
