// Random record files — near misses of valid records, any YAML, cut-off and spliced files,
// alias bombs — put into an otherwise valid config repo and taken through the whole load
// path: the loader, the judge, and every read response. Nothing may throw: a bad file is a
// problem with a code, a severity, a place and a message, and the revision is refused; a
// revision that passes gives every response as JSON.
import fc from 'fast-check';
import { dump } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { PROBLEM_CODES } from '../../src/domain/problem.ts';
import { PER_CLUSTER_ENDPOINTS } from '../../src/domain/projections/index.ts';
import type { ServedBody, ServedResponse } from '../../src/serving/served-response.ts';
import { ResponseTable } from '../../src/serving/response-table.ts';
import { buildRevision, judgeRevision } from '../../src/store/runner/judged-revision.ts';
import { byPath, gitBlobId, type RecordFileEntry } from '../../src/store/record-files/record-file-entry.ts';
import { RecordFileLoader } from '../../src/store/record-files/record-file-loader.ts';
import { collectionArb, fuzzRuns, fuzzTimeout, nastyString, recordFileText } from './arbitraries.ts';
import { asRepoFiles } from '../helpers/fixture-data.ts';
import { CRUD_DATA } from '../helpers/crud.ts';

const BASE = Object.fromEntries(
  Object.entries(asRepoFiles(CRUD_DATA)).map(([path, content]) => [
    path,
    typeof content === 'string' ? content : dump(content),
  ]),
);

function entries(files: Record<string, string>): RecordFileEntry[] {
  return Object.entries(files)
    .map(([path, text]) => ({ path, blobId: gitBlobId(Buffer.from(text)), text }))
    .sort(byPath);
}

const caseArb = collectionArb.chain((collection) =>
  fc.record({
    collection: fc.constant(collection),
    // Replace an existing record's file, or add one under any name.
    name: fc.oneof(
      fc.constantFrom(...CRUD_DATA[collection].map((r) => r.id)),
      nastyString.filter((n) => n !== '' && !n.includes('\u0000')),
    ),
    extension: fc.constantFrom('yaml', 'yml'),
    text: recordFileText(collection),
  }),
);

const RUNS = fuzzRuns(300);

describe('random record files through the load path', () => {
  it(
    'never throw: every problem is data, and a revision that passes serves every response',
    async () => {
      await fc.assert(
        fc.asyncProperty(caseArb, async ({ collection, name, extension, text }) => {
          const files = { ...BASE, [`${collection}/${name}.${extension}`]: text };
          const candidate = await new RecordFileLoader().load(entries(files), 'fuzz');
          const { snapshot, judgement } = judgeRevision(candidate, buildRevision(candidate), undefined);
          for (const p of judgement.problems) {
            expect(PROBLEM_CODES).toContain(p.code);
            expect(['error', 'warning']).toContain(p.severity);
            expect(typeof p.message).toBe('string');
            expect(p.message.length).toBeGreaterThan(0);
            expect(p.at).toBeTypeOf('object');
          }
          if (!judgement.publish) return;
          const responses = new ResponseTable(snapshot);
          // A published revision has no response over the consumer's limit: every one is a body.
          const bodyOf = (prepared: ServedResponse | undefined) => {
            expect(prepared?.kind).toBe('body');
            return JSON.parse((prepared as ServedBody).body.toString('utf8'));
          };
          bodyOf(responses.clustersList());
          for (const cluster of snapshot.clusters.values()) {
            for (const endpoint of Object.keys(PER_CLUSTER_ENDPOINTS) as (keyof typeof PER_CLUSTER_ENDPOINTS)[]) {
              const document = bodyOf(responses.forCluster(endpoint, cluster.cluster_dns));
              expect(Array.isArray(document.inputs)).toBe(true);
            }
          }
        }),
        { numRuns: RUNS },
      );
    },
    fuzzTimeout(RUNS),
  );
});
