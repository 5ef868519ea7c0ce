// The duplicate-key scanner of request bodies, against JSON.parse: it accepts exactly the texts
// JSON.parse accepts (when no key repeats), and finds the first repeated key, with its path,
// however the keys are spelled (escapes) and whatever whitespace the text holds.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findDuplicateKey } from '../../src/http/rest/json-duplicate-keys.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20_240_611);
const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
console.log(`json-duplicate-keys properties: seed ${SEED} (FUZZ_SEED), ${RUNS} runs (FUZZ_RUNS)`);
const params = { seed: SEED, numRuns: RUNS };

/** A JSON value as a tree in which an object is a list of members: keys may repeat. */
type Tree = null | boolean | number | string | { array: Tree[] } | { object: [string, Tree][] };

/** Short keys from a few letters, so that random objects often repeat one. */
const keyArb = fc.oneof(
  fc.constantFrom('a', 'b', 'id', '', 'a/b', 'm~n', 'é', '\u212a', '"', '\\', '\n', '\u0000', '\ud800'),
  fc.string({ maxLength: 4 }),
);

const treeArb: fc.Arbitrary<Tree> = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string({ maxLength: 6 }),
    fc.record({ array: fc.array(tie('tree'), { maxLength: 4 }) }),
    fc.record({ object: fc.array(fc.tuple(keyArb, tie('tree')), { maxLength: 4 }) }),
  ),
})).tree;

/** How a tree is written: the whitespace between tokens, and how each character of a string is spelled. */
interface Style {
  space: string[];
  escape: boolean[];
  upperHex: boolean[];
}

const styleArb: fc.Arbitrary<Style> = fc.record({
  space: fc.array(fc.constantFrom('', '', ' ', '\n', '\t', '\r\n  '), { minLength: 1, maxLength: 16 }),
  escape: fc.array(fc.boolean(), { minLength: 1, maxLength: 16 }),
  upperHex: fc.array(fc.boolean(), { minLength: 1, maxLength: 16 }),
});

/** Writes the tree as JSON text, spelling the same string in the ways JSON allows. */
function write(tree: Tree, style: Style): string {
  let turn = 0;
  const pick = <T>(list: T[]): T => list[turn++ % list.length];
  const ws = () => pick(style.space);
  const str = (value: string): string => {
    let out = '"';
    for (const ch of value) {
      const code = ch.codePointAt(0)!;
      const must = ch === '"' || ch === '\\' || code < 0x20;
      if (must || pick(style.escape)) {
        const short: Record<string, string> = {
          '"': '\\"',
          '\\': '\\\\',
          '\n': '\\n',
          '\t': '\\t',
          '/': '\\/',
          '\b': '\\b',
          '\f': '\\f',
          '\r': '\\r',
        };
        if (short[ch] !== undefined && pick(style.escape)) {
          out += short[ch];
        } else {
          // A character outside the BMP is two \u escapes, one per UTF-16 unit.
          for (let i = 0; i < ch.length; i++) {
            const hex = ch.charCodeAt(i).toString(16).padStart(4, '0');
            out += `\\u${pick(style.upperHex) ? hex.toUpperCase() : hex}`;
          }
        }
      } else {
        out += ch;
      }
    }
    return `${out}"`;
  };
  const value = (t: Tree): string => {
    if (t === null || typeof t === 'boolean' || typeof t === 'number') return JSON.stringify(t);
    if (typeof t === 'string') return str(t);
    if ('array' in t) return `[${ws()}${t.array.map((item) => value(item) + ws()).join(`,${ws()}`)}]`;
    return `{${ws()}${t.object.map(([k, v]) => `${str(k)}${ws()}:${ws()}${value(v)}${ws()}`).join(`,${ws()}`)}}`;
  };
  return `${ws()}${value(tree)}${ws()}`;
}

/** The first key that repeats in its object, in the order the text gives them; the oracle. */
function firstDuplicate(tree: Tree, path = ''): { key: string; path: string } | undefined {
  if (tree === null || typeof tree !== 'object') return undefined;
  if ('array' in tree) {
    for (const [i, item] of tree.array.entries()) {
      const found = firstDuplicate(item, `${path}/${i}`);
      if (found) return found;
    }
    return undefined;
  }
  const seen = new Set<string>();
  for (const [key, item] of tree.object) {
    const at = `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (seen.has(key)) return { key, path: at };
    seen.add(key);
    const found = firstDuplicate(item, at);
    if (found) return found;
  }
  return undefined;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe('findDuplicateKey', () => {
  it.each([
    ['{"id":"dup1","id":"dup2"}', 'id', '/id'],
    ['{"a":1,"\\u0061":2}', 'a', '/a'],
    ['{"a/b":1,"a\\/b":2}', 'a/b', '/a~1b'],
    ['{"":1,"":2}', '', '/'],
    ['{"x":[{"b":1},{"id":1,"m~n":{},"id":2}]}', 'id', '/x/1/id'],
    ['{"K":1,"\\u212A":2,"\\u212a":3}', '\u212a', '/\u212a'],
    ['{"a":{"b":1,"b":2},"a":3}', 'b', '/a/b'],
    ['[{"a":1},{"a":1}]', undefined, undefined],
    ['{"A":1,"a":2}', undefined, undefined],
  ])('%s', (text, key, path) => {
    expect(findDuplicateKey(text)).toEqual(key === undefined ? undefined : { key, path });
  });

  it('reads a body nested 100,000 levels deep without recursion', () => {
    expect(findDuplicateKey(`${'[{"a":'.repeat(100_000)}1${'}]'.repeat(100_000)}`)).toBeUndefined();
    expect(findDuplicateKey(`${'{"a":'.repeat(100_000)}{"b":1,"b":2}${'}'.repeat(100_000)}`)).toEqual({
      key: 'b',
      path: `${'/a'.repeat(100_000)}/b`,
    });
  });

  it('refuses what JSON.parse refuses', () => {
    for (const text of [
      '',
      ' ',
      '\ufeff{}',
      '{',
      '{"a"}',
      '{"a":1,}',
      '[1,]',
      '01',
      '1.',
      '.5',
      '+1',
      '-',
      'tru',
      'nul',
      '"\\x"',
      '"\\u12"',
      '"a\u0001"',
      '{} {}',
      "{'a':1}",
      'NaN',
      '[1]]',
      '\u00a0[]',
    ]) {
      expect(parses(text), JSON.stringify(text)).toBe(false);
      expect(() => findDuplicateKey(text), JSON.stringify(text)).toThrow(SyntaxError);
    }
  });

  it('finds the first repeated key of any document, however its keys are spelled (property, against an oracle)', () => {
    fc.assert(
      fc.property(treeArb, styleArb, (tree, style) => {
        const text = write(tree, style);
        expect(parses(text)).toBe(true);
        expect(findDuplicateKey(text)).toEqual(firstDuplicate(tree));
      }),
      params,
    );
  });

  it('finds nothing in what JSON.stringify writes (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 1, '\t'), (value, indent) => {
        expect(findDuplicateKey(JSON.stringify(value, null, indent))).toBeUndefined();
      }),
      params,
    );
  });

  it('accepts a text exactly when JSON.parse does, for texts near JSON and for any text (property)', () => {
    const edit = fc.tuple(
      fc.nat(),
      fc.constantFrom('insert', 'delete', 'replace'),
      fc.constantFrom(...'{}[],:"\\/ -+.eE0123456789tfnulrabu\t\n\u0000\u001f\u007f\u00a0\ufeff\u2028'),
    );
    const nearJson = fc
      .tuple(treeArb, styleArb, fc.array(edit, { minLength: 1, maxLength: 3 }))
      .map(([tree, style, edits]) => {
        let text = write(tree, style);
        for (const [at, kind, ch] of edits) {
          const i = text.length === 0 ? 0 : at % (text.length + 1);
          text =
            kind === 'insert'
              ? text.slice(0, i) + ch + text.slice(i)
              : kind === 'delete'
                ? text.slice(0, i) + text.slice(i + 1)
                : text.slice(0, i) + ch + text.slice(i + 1);
        }
        return text;
      });
    // Any characters between quotes, as a value and as a key: control characters, escapes, quotes.
    const edgeChar = fc.constantFrom(
      '\u0000',
      '\u001f',
      ' ',
      '\u007f',
      '"',
      '\\',
      '\ud800',
      '\udc00',
      '\u2028',
      '\ufeff',
      'u',
      '0',
      'F',
      'g',
      '/',
      'b',
    );
    const anyChar = fc.oneof(edgeChar, fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }));
    const anyString = fc
      .array(anyChar, { maxLength: 7 })
      .map((chars) => chars.join(''))
      .chain((inner) => fc.constantFrom(`"${inner}"`, `{"${inner}":1}`, `["${inner}"]`));
    // Pieces of JSON put together at random: numbers, literals and structure cut at odd places.
    const token = fc.constantFrom(
      '{',
      '}',
      '[',
      ']',
      ',',
      ':',
      '"a"',
      '"',
      '\\',
      'u',
      '00',
      '1',
      '0',
      '-',
      '+',
      '.',
      'e',
      'E',
      'true',
      'fals',
      'null',
      ' ',
      '\n',
      '\u000b',
    );
    const soup = fc.array(token, { maxLength: 12 }).map((tokens) => tokens.join(''));
    fc.assert(
      fc.property(fc.oneof(nearJson, anyString, soup, fc.string({ unit: 'binary' })), (text) => {
        let found: ReturnType<typeof findDuplicateKey>;
        try {
          found = findDuplicateKey(text);
        } catch (error) {
          expect(error).toBeInstanceOf(SyntaxError);
          expect(parses(text), `the scanner refused ${JSON.stringify(text)}`).toBe(false);
          return;
        }
        // The scan stops at a repeated key, before the rest of the text: only a text read to its end is judged.
        if (found === undefined) expect(parses(text), `the scanner accepted ${JSON.stringify(text)}`).toBe(true);
      }),
      params,
    );
  });
});
