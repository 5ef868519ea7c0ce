// The strict exposition-format reader the metrics tests rely on refuses what it must: if it
// accepted anything, "/metrics parses" would prove nothing.
import { describe, expect, it } from 'vitest';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.ts';

const GOOD = [
  '# HELP a_total Things done, by "kind".',
  '# TYPE a_total counter',
  'a_total{kind="x\\"y\\\\z\\n"} 3',
  'a_total{kind="plain"} 0',
  '',
  '# HELP d_seconds How long.',
  '# TYPE d_seconds histogram',
  'd_seconds_bucket{route="/r",le="0.1"} 1',
  'd_seconds_bucket{route="/r",le="1"} 2',
  'd_seconds_bucket{route="/r",le="+Inf"} 3',
  'd_seconds_sum{route="/r"} 2.5',
  'd_seconds_count{route="/r"} 3',
  '# HELP g A gauge.',
  '# TYPE g gauge',
  'g -1.5e3 1700000000000',
  '',
].join('\n');

describe('the strict Prometheus text reader', () => {
  it('reads a well-formed exposition: families, labels with escapes, histograms', () => {
    const families = parsePrometheusText(GOOD);
    expect([...families.keys()]).toEqual(['a_total', 'd_seconds', 'g']);
    expect(families.get('a_total')).toMatchObject({ type: 'counter', help: 'Things done, by "kind".' });
    expect(sampleValue(families, 'a_total', { kind: 'x"y\\z\n' })).toBe(3);
    expect(sampleValue(families, 'd_seconds_count', { route: '/r' })).toBe(3);
    expect(sampleValue(families, 'g')).toBe(-1500);
  });

  const BROKEN: [string, (text: string) => string, RegExp][] = [
    ['no final line feed', (t) => t.slice(0, -1), /line feed/],
    ['a sample before its TYPE', (t) => `x 1\n${t}`, /outside the family/],
    ['TYPE without HELP', (t) => t.replace('# HELP g A gauge.\n', ''), /TYPE before HELP/],
    ['HELP without TYPE', (t) => `${t}# HELP lone Alone.\n`, /HELP but no TYPE/],
    ['a second TYPE', (t) => t.replace('# TYPE g gauge', '# TYPE g gauge\n# TYPE g gauge'), /second TYPE/],
    ['an unknown type', (t) => t.replace('# TYPE g gauge', '# TYPE g meter'), /unknown type/],
    ['another comment', (t) => `# just a note\n${t}`, /neither # HELP nor # TYPE/],
    ['an unquoted label value', (t) => t.replace('{kind="plain"}', '{kind=plain}'), /malformed label/],
    ['a bad label name', (t) => t.replace('{kind="plain"}', '{1kind="plain"}'), /not a label name/],
    ['a reserved label name', (t) => t.replace('{kind="plain"}', '{__kind="plain"}'), /not a label name/],
    ['a label given twice', (t) => t.replace('{kind="plain"}', '{kind="plain",kind="again"}'), /given twice/],
    ['a trailing comma', (t) => t.replace('{kind="plain"}', '{kind="plain",}'), /trailing comma/],
    ['an invalid escape', (t) => t.replace('{kind="plain"}', '{kind="pl\\ain"}'), /invalid escape/],
    [
      'an unterminated value',
      (t) => t.replace('a_total{kind="plain"} 0', 'a_total{kind="plain} 0'),
      /expected , or }|unterminated/,
    ],
    [
      'a value that is no number',
      (t) => t.replace('a_total{kind="plain"} 0', 'a_total{kind="plain"} zero'),
      /not a sample value/,
    ],
    ['two spaces', (t) => t.replace('a_total{kind="plain"} 0', 'a_total{kind="plain"}  0'), /extra fields/],
    [
      'a series twice',
      (t) => t.replace('a_total{kind="plain"} 0', 'a_total{kind="plain"} 0\na_total{kind="plain"} 1'),
      /twice/,
    ],
    ['a negative counter', (t) => t.replace('a_total{kind="plain"} 0', 'a_total{kind="plain"} -1'), /below zero/],
    ['a sample of another family', (t) => t.replace('g -1.5e3', 'h 1'), /outside the family/],
    ['buckets that shrink', (t) => t.replace('le="1"} 2', 'le="1"} 0'), /counts fewer/],
    ['buckets out of order', (t) => t.replace('le="1"} 2', 'le="0.01"} 2'), /does not come after/],
    ['no +Inf bucket', (t) => t.replace('d_seconds_bucket{route="/r",le="+Inf"} 3\n', ''), /\+Inf/],
    [
      '+Inf that is not _count',
      (t) => t.replace('d_seconds_count{route="/r"} 3', 'd_seconds_count{route="/r"} 4'),
      /is not _count/,
    ],
    ['no _sum', (t) => t.replace('d_seconds_sum{route="/r"} 2.5\n', ''), /_sum or _count missing/],
    [
      'a bucket without le',
      (t) => t.replace('d_seconds_bucket{route="/r",le="0.1"} 1', 'd_seconds_bucket{route="/r"} 1'),
      /without le/,
    ],
  ];
  it.each(BROKEN)('refuses %s', (_name, breakIt, message) => {
    expect(() => parsePrometheusText(breakIt(GOOD))).toThrow(message);
  });
});
