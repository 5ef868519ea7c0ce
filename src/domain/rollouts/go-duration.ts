// Durations in rollout records, in the syntax of Go's time.ParseDuration, which the Flux and
// Kubernetes manifests these records sit next to use: a sequence of decimal numbers, each with
// an optional fraction and a unit ("300ms", "1.5h", "2h45m", ".5s", "5.s"); units ns, us (or
// µs, U+00B5, or μs, U+03BC), ms, s, m, h; no days; "0" alone is zero; an optional leading
// sign. The value is Go's to the nanosecond, fractions included (Go scales a fraction through
// a float64, and "0.3333333333333333333h" is exactly 20m there and here), up to Go's largest
// duration, 2562047h47m16.854775807s. Unlike Go, a negative duration is refused: a soak or a
// deadline below zero means nothing. "-0" is zero, as in Go.

/** Nanoseconds per unit. */
const UNITS: ReadonlyMap<string, bigint> = new Map([
  ['ns', 1n],
  ['us', 1_000n],
  ['\u00b5s', 1_000n],
  ['\u03bcs', 1_000n],
  ['ms', 1_000_000n],
  ['s', 1_000_000_000n],
  ['m', 60_000_000_000n],
  ['h', 3_600_000_000_000n],
]);

/** Go's largest duration, in nanoseconds (the largest int64). */
export const MAX_DURATION_NS = (1n << 63n) - 1n;

const SHAPE = 'a duration like "30s", "15m", "2h" or "1h30m" (units ns, us, ms, s, m, h)';

export type DurationParse = { ok: true; ns: bigint } | { ok: false; message: string };

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** Parses `text` as Go's time.ParseDuration would, refusing negative values. */
export function parseGoDuration(text: string): DurationParse {
  let rest = text;
  const sign = rest[0];
  if (sign === '-' || sign === '+') rest = rest.slice(1);
  if (rest === '0') return { ok: true, ns: 0n };
  if (rest === '') return invalid(text);
  if (/\s/.test(rest)) return { ok: false, message: `must be ${SHAPE}, without spaces: "${text}"` };
  let total = 0n;
  let i = 0;
  while (i < rest.length) {
    const number = readNumber(rest, i);
    if (number === undefined) return invalid(text);
    i = number.end;
    let end = i;
    while (end < rest.length && rest[end] !== '.' && !isDigit(rest[end])) end++;
    if (end === i) return { ok: false, message: `must be ${SHAPE}: "${text}" has a number without a unit` };
    const name = rest.slice(i, end);
    const unit = UNITS.get(name);
    if (unit === undefined) return unknownUnit(text, name, number);
    i = end;
    total += number.whole * unit + fractionNs(number.fraction, unit);
    if (total > MAX_DURATION_NS) return tooLong(text, sign);
  }
  if (sign === '-' && total > 0n) return { ok: false, message: `must not be negative: "${text}"` };
  return { ok: true, ns: total };
}

interface DecimalNumber {
  whole: bigint;
  /** The digits after the point, as written ("" when there are none). */
  fraction: string;
  end: number;
}

/** `[0-9]*(\.[0-9]*)?` at `start`, with at least one digit on either side of the point. */
function readNumber(text: string, start: number): DecimalNumber | undefined {
  let i = start;
  while (isDigit(text[i])) i++;
  const whole = text.slice(start, i);
  let fraction = '';
  if (text[i] === '.') {
    const from = ++i;
    while (isDigit(text[i])) i++;
    fraction = text.slice(from, i);
  }
  if (whole === '' && fraction === '') return undefined;
  return { whole: BigInt(whole === '' ? '0' : whole), fraction, end: i };
}

/**
 * A fraction's nanoseconds the way Go computes them, so that both read a record alike: the
 * digits as an integer f (digits past what a uint64 holds add no precision), scaled by
 * unit / 10^digits in float64 arithmetic, truncated.
 */
function fractionNs(digits: string, unit: bigint): bigint {
  let f = 0n;
  let scale = 1;
  for (const digit of digits) {
    if (f > MAX_DURATION_NS / 10n) break;
    const next = f * 10n + BigInt(digit);
    if (next > 1n << 63n) break;
    f = next;
    scale *= 10;
  }
  if (f === 0n) return 0n;
  return BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
}

function invalid(text: string): DurationParse {
  return { ok: false, message: `must be ${SHAPE}, not "${text}"` };
}

function unknownUnit(text: string, unit: string, number: DecimalNumber): DurationParse {
  const { whole, fraction } = number;
  const days = unit === 'd' && fraction === '' ? ` (days are not a unit: write ${whole * 24n}h for ${whole}d)` : '';
  return { ok: false, message: `must be ${SHAPE}: "${text}" has the unknown unit "${unit}"${days}` };
}

function tooLong(text: string, sign: string | undefined): DurationParse {
  if (sign === '-') return { ok: false, message: `must not be negative: "${text}"` };
  return { ok: false, message: `is too long: "${text}" is more than 2562047h47m16.854775807s` };
}

/**
 * Milliseconds of a valid duration, rounded up: a soak or a deadline is never shorter than
 * written. Throws for text that does not parse (a record past its schema never holds one).
 */
export function goDurationMs(text: string): number {
  const parsed = parseGoDuration(text);
  if (!parsed.ok) throw new Error(`not a duration: ${parsed.message}`);
  return Number((parsed.ns + 999_999n) / 1_000_000n);
}
