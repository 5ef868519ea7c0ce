// Generators of bad input for the fuzz tests: record files a person might write (or a tool
// might mangle), and REST requests a client might send. Most are near misses of valid input —
// a valid record with one field replaced by anything — since those reach deepest.
import fc from 'fast-check';
import { dump } from 'js-yaml';
import { COLLECTIONS, type Collection } from '../../src/domain/records.ts';
import { CRUD_DATA } from '../fixtures/crud-data.ts';

/** How long a property may take: its runs at a generous 50 ms each, and never less than the usual limit. */
export function fuzzTimeout(runs: number): number {
  return Math.max(30_000, runs * 50);
}

/** How many cases each property runs: small in `npm test`, large in `npm run fuzz`. */
export function fuzzRuns(normal: number): number {
  const asked = Number(process.env.FUZZ_RUNS);
  return Number.isFinite(asked) && asked > 0 ? asked : normal;
}

export const collectionArb = fc.constantFrom(...COLLECTIONS);

/** Strings that are hard on parsers and schemas: YAML and JSON syntax, numbers, huge and odd text. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    'null',
    '~',
    'true',
    'no',
    '1e400',
    '0x1F',
    '-.inf',
    '__proto__',
    'constructor',
    '..',
    '../../etc/passwd',
    'a/b',
    'C:\\x',
    '\u0000',
    '\uFEFF',
    '{}',
    '[]',
    '*alias',
    '&anchor x',
    '!!python/object:os.system',
    '%YAML 1.2',
    '---',
    '...',
    '- a',
    'a: b',
    '#',
    "'",
    '"',
    'x'.repeat(300),
    'é'.repeat(130),
  ),
);

/** Any JSON value, with nasty strings and keys. */
export const anyJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    nastyString,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(nastyString, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** A valid record of the collection (from the crud data set), with some fields replaced, removed or added. */
export function nearMissRecord(collection: Collection): fc.Arbitrary<Record<string, unknown>> {
  const samples = CRUD_DATA[collection] as Record<string, unknown>[];
  const fields = [...new Set(samples.flatMap((s) => Object.keys(s))), 'enviroment', 'extra', '__proto__'];
  return fc
    .tuple(
      fc.constantFrom(...samples),
      fc.array(fc.tuple(fc.constantFrom(...fields), fc.option(anyJson, { nil: undefined })), { maxLength: 3 }),
    )
    .map(([sample, edits]) => {
      const record: Record<string, unknown> = JSON.parse(JSON.stringify(sample));
      for (const [field, value] of edits) {
        if (value === undefined) delete record[field];
        else Object.defineProperty(record, field, { value, enumerable: true, writable: true, configurable: true });
      }
      return record;
    });
}

/** The text of a record file: a near-miss record as YAML, any YAML-ish text, or a mangled valid file. */
export function recordFileText(collection: Collection): fc.Arbitrary<string> {
  const valid = dump((CRUD_DATA[collection] as object[])[0]);
  return fc.oneof(
    nearMissRecord(collection).map((r) => dump(r, { skipInvalid: true })),
    anyJson.map((v) => dump(v, { skipInvalid: true })),
    fc.string({ maxLength: 200 }),
    // A valid file cut short, or with a piece of nastiness spliced in.
    fc.tuple(fc.nat(valid.length), nastyString).map(([at, piece]) => valid.slice(0, at) + piece + valid.slice(at)),
    fc.constantFrom(
      // Aliases that expand to a lot if anything walks them naively.
      `a: &a ["x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b]\nd: ` +
        `&d [*c,*c,*c,*c,*c,*c,*c,*c]\nlabels: *d\n`,
      'id: x\n<<: {labels: {a: "b"}}\n',
      '--- \nid: a\n---\nid: b\n',
      '!!binary aGVsbG8=',
      'id: !!js/function "function () {}"\n',
      '\t\tid: tab\n',
    ),
  );
}

const word = fc.stringMatching(/^[a-z0-9][a-z0-9.-]{0,14}[a-z0-9]$/);
const labelMap = fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9.-]{0,10}[a-z0-9]$/), fc.oneof(word, fc.constant('')), {
  maxKeys: 3,
});

/**
 * A valid record of the collection with plausible changes, under a new id or an existing one: writes that are meant to
 * succeed.
 */
export function plausibleRecord(collection: Collection): fc.Arbitrary<Record<string, unknown>> {
  const samples = CRUD_DATA[collection] as Record<string, unknown>[];
  const changes: Record<Collection, fc.Arbitrary<Record<string, unknown>>> = {
    clusters: fc.record(
      {
        cluster_name: word,
        environment: fc.constantFrom('dev', 'qa', 'uat', 'prod'),
        patches: fc.constant({ podinfo: { replicaCount: '2' } }),
      },
      { requiredKeys: [] },
    ),
    platform_components: fc.record({ component_version: word, oci_tag: word }, { requiredKeys: [] }),
    namespaces: fc.record({ labels: labelMap, annotations: labelMap }, { requiredKeys: [] }),
    rolebindings: fc.record(
      {
        role: word,
        subjects: fc.array(
          fc.record({
            kind: fc.constantFrom('User', 'Group'),
            name: word,
            apiGroup: fc.constant('rbac.authorization.k8s.io'),
          }),
          { maxLength: 2 },
        ),
      },
      { requiredKeys: [] },
    ),
    rollouts: fc.record(
      {
        released: fc.nat(2),
        paused: fc.boolean(),
        set: fc.constantFrom({ oci_tag: '7.0.1' }, { component_version: '7.1.0', oci_tag: '7.1.0' }),
      },
      { requiredKeys: [] },
    ),
  };
  return fc
    .tuple(fc.constantFrom(...samples), changes[collection], fc.option(fc.nat(10_000), { nil: undefined }))
    .map(([sample, change, fresh]) => {
      const record: Record<string, unknown> = { ...JSON.parse(JSON.stringify(sample)), ...change };
      if (
        collection === 'clusters' &&
        change.patches &&
        !(record.platform_components as { id: string }[] | undefined)?.some((c) => c.id === 'podinfo')
      )
        delete record.patches;
      if (fresh !== undefined) {
        record.id = `fz-${fresh}`;
        if (collection === 'clusters') record.cluster_dns = `fz-${fresh}.example.com`;
      }
      return record;
    });
}

/** The body of a REST request: a plausible record, a near-miss one, JSON of any shape, or not JSON at all. */
export function requestBody(collection: Collection): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 4, arbitrary: plausibleRecord(collection).map((r) => JSON.stringify(r)) },
    { weight: 4, arbitrary: nearMissRecord(collection).map((r) => JSON.stringify(r)) },
    { weight: 2, arbitrary: anyJson.map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 100 }) },
    { weight: 1, arbitrary: fc.nat(200).map((depth) => '['.repeat(depth) + ']'.repeat(depth)) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}
