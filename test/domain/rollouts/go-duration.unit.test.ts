// Durations of rollout records in Go's time.ParseDuration syntax (src/domain/rollouts/go-duration.ts).
// The tables are the cases of Go's own tests (golang/go src/time/time_test.go, parseDurationTests
// and parseDurationErrorTests), with negative values refused here; the properties hold the
// parser to the grammar Go's parser documents: [-+]?([0-9]*(\.[0-9]*)?[a-z]+)+, or "0".
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { goDurationMs, MAX_DURATION_NS, parseGoDuration } from '../../../src/domain/rollouts/go-duration.ts';

const NS = 1n;
const US = 1000n * NS;
const MS = 1000n * US;
const S = 1000n * MS;
const M = 60n * S;
const H = 60n * M;

const ns = (text: string) => {
  const parsed = parseGoDuration(text);
  return parsed.ok ? parsed.ns : parsed.message;
};

describe("Go's own cases", () => {
  it.each([
    ['0', 0n],
    ['5s', 5n * S],
    ['30s', 30n * S],
    ['1478s', 1478n * S],
    ['+5s', 5n * S],
    ['-0', 0n],
    ['+0', 0n],
    ['5.0s', 5n * S],
    ['5.6s', 5n * S + 600n * MS],
    ['5.s', 5n * S],
    ['.5s', 500n * MS],
    ['1.0s', S],
    ['1.00s', S],
    ['1.004s', S + 4n * MS],
    ['1.0040s', S + 4n * MS],
    ['100.00100s', 100n * S + MS],
    ['10ns', 10n],
    ['11us', 11n * US],
    ['12\u00b5s', 12n * US],
    ['12\u03bcs', 12n * US],
    ['13ms', 13n * MS],
    ['14s', 14n * S],
    ['15m', 15n * M],
    ['16h', 16n * H],
    ['3h30m', 3n * H + 30n * M],
    ['10.5s4m', 4n * M + 10n * S + 500n * MS],
    ['1h2m3s4ms5us6ns', H + 2n * M + 3n * S + 4n * MS + 5n * US + 6n],
    ['39h9m14.425s', 39n * H + 9n * M + 14n * S + 425n * MS],
    ['52763797000ns', 52763797000n],
    // More than 9 digits after the point: Go scales through a float64, which makes this 20m exactly.
    ['0.3333333333333333333h', 20n * M],
    ['9007199254740993ns', (1n << 53n) + 1n],
    ['9223372036854775807ns', MAX_DURATION_NS],
    ['9223372036854775.807us', MAX_DURATION_NS],
    ['9223372036s854ms775us807ns', MAX_DURATION_NS],
    ['0.100000000000000000000h', 6n * M],
    // Digits past what a uint64 holds add nothing.
    ['0.830103483285477580700h', 49n * M + 48n * S + 372539827n],
  ] as const)('%s is %d ns', (text, expected) => {
    expect(ns(text)).toBe(expected);
  });

  it.each([
    '',
    '3',
    '-',
    's',
    '.',
    '-.',
    '.s',
    '+.s',
    '1d',
    '\u0085\u0085',
    '\u00ffff',
    'hello \u00ffff world',
    '\ufffd',
    '\ufffd hello \ufffd world',
    '9223372036854775810ns',
    '9223372036854775808ns',
    '9223372036854776us',
    '3000000h',
    '9223372036854775.808us',
    '9223372036854ms775us808ns',
  ])('%j is refused', (text) => {
    expect(parseGoDuration(text).ok).toBe(false);
  });

  it.each(['-5s', '-2m3.4s', '-9223372036854775808ns', '-1ns'])('the negative %s is refused, by that word', (text) => {
    expect(parseGoDuration(text)).toEqual({ ok: false, message: `must not be negative: "${text}"` });
  });

  it('says what is wrong, in words a person acts on', () => {
    expect(ns('2d')).toBe(
      'must be a duration like "30s", "15m", "2h" or "1h30m" (units ns, us, ms, s, m, h): ' +
        '"2d" has the unknown unit "d" (days are not a unit: write 48h for 2d)',
    );
    expect(ns('90')).toMatch(/"90" has a number without a unit$/);
    expect(ns('1 h')).toMatch(/, without spaces: "1 h"$/);
    expect(ns('tenminutes')).toMatch(/, not "tenminutes"$/);
    expect(ns('3000000h')).toBe('is too long: "3000000h" is more than 2562047h47m16.854775807s');
  });
});

const UNIT_NAMES = ['ns', 'us', '\u00b5s', '\u03bcs', 'ms', 's', 'm', 'h'] as const;
const UNIT_NS: Record<(typeof UNIT_NAMES)[number], bigint> = {
  ns: NS,
  us: US,
  '\u00b5s': US,
  '\u03bcs': US,
  ms: MS,
  s: S,
  m: M,
  h: H,
};
const GRAMMAR = /^[-+]?(?:0|(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:ns|us|\u00b5s|\u03bcs|ms|s|m|h))+)$/;

const digits = (max: number) => fc.stringMatching(new RegExp(`^[0-9]{1,${max}}$`));
/** One unsigned component with a small value: digits, perhaps a fraction, a unit. */
const component = fc
  .tuple(digits(4), fc.option(fc.stringMatching(/^[0-9]{0,4}$/), { nil: undefined }), fc.constantFrom(...UNIT_NAMES))
  .map(([whole, fraction, unit]) => {
    const text = `${whole}${fraction === undefined ? '' : `.${fraction}`}${unit}`;
    return { text, whole, fraction, unit };
  });

describe('properties', () => {
  it('a string of duration-like characters is accepted exactly when it has the grammar', () => {
    const alphabet = fc.constantFrom('0', '1', '7', '.', 'n', 'u', '\u00b5', '\u03bc', 'm', 's', 'h', 'd', '+', ' ');
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 12 }).map((cs) => cs.join('')),
        (text) => {
          const unsigned = text.replace(/^[-+]/, '');
          const accepted = parseGoDuration(text).ok;
          expect(accepted, text).toBe(GRAMMAR.test(text) && unsigned.length > 0);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('a sequence of components is the sum of its parts', () => {
    fc.assert(
      fc.property(fc.array(component, { minLength: 1, maxLength: 6 }), (parts) => {
        const whole = parseGoDuration(parts.map((p) => p.text).join(''));
        const sum = parts.reduce((total, p) => total + (parseGoDuration(p.text) as { ns: bigint }).ns, 0n);
        expect(whole).toEqual({ ok: true, ns: sum });
      }),
    );
  });

  it('a whole number of a unit is that many units, up to the largest duration and no further', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: MAX_DURATION_NS }), fc.constantFrom(...UNIT_NAMES), (n, unit) => {
        const value = n / UNIT_NS[unit];
        expect(ns(`${value}${unit}`)).toBe(value * UNIT_NS[unit]);
        expect(parseGoDuration(`${MAX_DURATION_NS / UNIT_NS[unit] + 1n + n}${unit}`).ok).toBe(false);
      }),
    );
  });

  it('a fraction is within a nanosecond of its exact value, never above it', () => {
    fc.assert(
      fc.property(
        component.filter((p) => p.fraction !== undefined),
        ({ text, whole, fraction, unit }) => {
          const scale = 10n ** BigInt(fraction!.length);
          const exact = ((BigInt(whole) * scale + BigInt(fraction || '0')) * UNIT_NS[unit]) / scale;
          const parsed = ns(text) as bigint;
          expect(exact - parsed >= 0n && exact - parsed <= 1n, `${text}: ${parsed} vs ${exact}`).toBe(true);
        },
      ),
    );
  });

  it('reads back what Go prints for any duration (hours, minutes, seconds with up to 9 decimals)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: MAX_DURATION_NS }), (value) => {
        const seconds = (value % M) / S;
        const nanos = (value % S).toString().padStart(9, '0').replace(/0+$/, '');
        const text = `${value / H}h${(value % H) / M}m${seconds}${nanos === '' ? '' : `.${nanos}`}s`;
        expect(ns(text)).toBe(value);
      }),
    );
  });

  it('a leading + changes nothing; a leading - is refused unless the value is zero', () => {
    fc.assert(
      fc.property(fc.array(component, { minLength: 1, maxLength: 3 }), (parts) => {
        const text = parts.map((p) => p.text).join('');
        const plain = ns(text) as bigint;
        expect(ns(`+${text}`)).toBe(plain);
        expect(parseGoDuration(`-${text}`).ok).toBe(plain === 0n);
      }),
    );
  });
});

describe('milliseconds of a duration', () => {
  it('round up, so that a soak or a deadline is never shorter than written', () => {
    expect(goDurationMs('0s')).toBe(0);
    expect(goDurationMs('1ns')).toBe(1);
    expect(goDurationMs('1ms')).toBe(1);
    expect(goDurationMs('1.5ms')).toBe(2);
    expect(goDurationMs('2h45m')).toBe((2 * 60 + 45) * 60_000);
  });

  it('are refused for text that is not a duration', () => {
    expect(() => goDurationMs('2d')).toThrow(/unknown unit "d"/);
  });
});
