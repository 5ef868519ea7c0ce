// A strict reader of the Prometheus text exposition format (version 0.0.4), for tests: it
// throws, naming the line, on anything a Prometheus server would refuse or that a careful
// exporter never writes. Every family needs its # HELP and # TYPE before its samples; samples
// of a family are contiguous; names, label names and escapes follow the format; no series
// appears twice; counters are not negative; a histogram has, per label set, buckets with
// ascending `le` and non-decreasing counts ending in le="+Inf", whose count equals _count,
// and a _sum.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
/**
 * A float as Go's strconv.ParseFloat reads it (the format's rule): NaN and [+-]Inf in any case, as Prometheus accepts
 * them.
 */
const VALUE = /^(?:[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|[+-]?inf(?:inity)?|nan)$/i;
const TYPES = ['counter', 'gauge', 'histogram', 'summary', 'untyped'] as const;

export function parsePrometheusText(text: string): Map<string, Family> {
  if (!text.endsWith('\n')) throw new Error('the exposition does not end with a line feed');
  const families = new Map<string, Family>();
  const help = new Map<string, string>();
  const seriesSeen = new Set<string>();
  let current: Family | undefined;
  const lines = text.slice(0, -1).split('\n');
  lines.forEach((line, index) => {
    const fail = (why: string): never => {
      throw new Error(`line ${index + 1}: ${why}: ${JSON.stringify(line)}`);
    };
    if (line === '') return;
    if (line.startsWith('#')) {
      const match = /^# (HELP|TYPE) ([^ ]+) (.*)$/.exec(line);
      if (!match) fail('a comment that is neither # HELP nor # TYPE');
      const [, keyword, name, rest] = match!;
      if (!METRIC_NAME.test(name)) fail('not a metric name');
      if (families.get(name)?.samples.length) fail(`${keyword} after the samples of ${name}`);
      if (keyword === 'HELP') {
        if (help.has(name)) fail('a second HELP');
        if (/\\(?![\\n])/.test(rest)) fail('an escape other than \\\\ and \\n in HELP');
        help.set(name, rest.replace(/\\n/g, '\n').replace(/\\\\/g, '\\'));
        return;
      }
      if (families.has(name)) fail('a second TYPE');
      if (!(TYPES as readonly string[]).includes(rest)) fail('an unknown type');
      if (!help.has(name)) fail('TYPE before HELP (this exporter writes HELP first)');
      current = { name: name, help: help.get(name)!, type: rest as Family['type'], samples: [] };
      families.set(name, current);
      return;
    }
    const sample = parseSample(line, fail);
    if (!current || familyOf(sample.name, current) === undefined)
      fail(`a sample outside the family declared last (${current?.name ?? 'none'})`);
    const key = `${sample.name}${JSON.stringify(Object.entries(sample.labels).sort())}`;
    if (seriesSeen.has(key)) fail('a series given twice');
    seriesSeen.add(key);
    if (current!.type === 'counter' && !(sample.value >= 0)) fail('a counter below zero');
    if (current!.type === 'histogram' && sample.name.endsWith('_bucket') && sample.labels.le === undefined)
      fail('a bucket without le');
    current!.samples.push(sample);
  });
  for (const name of help.keys()) if (!families.has(name)) throw new Error(`${name} has HELP but no TYPE`);
  for (const family of families.values()) if (family.type === 'histogram') checkHistogram(family);
  return families;
}

/**
 * The suffix of a sample's name within the family ('' for the family's own name), or undefined if it is not one of its
 * names.
 */
function familyOf(sampleName: string, family: Family): string | undefined {
  if (sampleName === family.name) return family.type === 'histogram' ? undefined : '';
  const suffixes =
    family.type === 'histogram' ? ['_bucket', '_sum', '_count'] : family.type === 'summary' ? ['_sum', '_count'] : [];
  return suffixes.find((suffix) => sampleName === family.name + suffix);
}

function parseSample(line: string, fail: (why: string) => never): Sample {
  const nameMatch = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line);
  if (!nameMatch) fail('no metric name at the start of a sample');
  const name = nameMatch[0];
  let at = name.length;
  const labels: Record<string, string> = {};
  if (line[at] === '{') {
    at++;
    while (line[at] !== '}') {
      const labelMatch = /^([^=]*)="/.exec(line.slice(at));
      if (!labelMatch) fail(`a malformed label at column ${at + 1}`);
      const labelName = labelMatch[1];
      if (!LABEL_NAME.test(labelName) || labelName.startsWith('__')) fail(`"${labelName}" is not a label name`);
      if (Object.hasOwn(labels, labelName)) fail(`label ${labelName} given twice`);
      at += labelMatch[0].length;
      let value = '';
      for (;;) {
        const ch = line[at];
        if (ch === undefined) fail('an unterminated label value');
        if (ch === '"') break;
        if (ch === '\\') {
          const next = line[at + 1];
          if (next === '\\' || next === '"') value += next;
          else if (next === 'n') value += '\n';
          else fail(`an invalid escape \\${next ?? ''} in a label value`);
          at += 2;
        } else {
          value += ch;
          at++;
        }
      }
      labels[labelName] = value;
      at++;
      if (line[at] === ',') {
        at++;
        if (line[at] === '}') fail('a trailing comma in the labels');
      } else if (line[at] !== '}') fail(`expected , or } at column ${at + 1}`);
    }
    at++;
  }
  if (line[at] !== ' ') fail('no single space between the series and its value');
  const parts = line.slice(at + 1).split(' ');
  if (parts.length > 2 || parts.some((p) => p === '')) fail('extra fields or spaces after the value');
  if (!VALUE.test(parts[0])) fail(`"${parts[0]}" is not a sample value`);
  if (parts[1] !== undefined && !/^-?\d+$/.test(parts[1])) fail(`"${parts[1]}" is not a timestamp`);
  return { name, labels, value: toNumber(parts[0]) };
}

function toNumber(value: string): number {
  if (/^nan$/i.test(value)) return NaN;
  const infinity = /^([+-]?)inf(?:inity)?$/i.exec(value);
  return infinity ? (infinity[1] === '-' ? -Infinity : Infinity) : Number(value);
}

function checkHistogram(family: Family): void {
  const groups = new Map<string, { buckets: [number, number][]; sum?: number; count?: number }>();
  for (const sample of family.samples) {
    const { le, ...rest } = sample.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    const group = groups.get(key) ?? { buckets: [] };
    groups.set(key, group);
    if (sample.name.endsWith('_bucket')) {
      if (!VALUE.test(le)) throw new Error(`${family.name}: le="${le}" is not a number`);
      group.buckets.push([toNumber(le), sample.value]);
    } else if (sample.name.endsWith('_sum')) group.sum = sample.value;
    else group.count = sample.value;
  }
  for (const [labels, group] of groups) {
    const where = `${family.name}${labels}`;
    if (group.sum === undefined || group.count === undefined) throw new Error(`${where}: _sum or _count missing`);
    if (group.buckets.length === 0 || group.buckets.at(-1)![0] !== Infinity)
      throw new Error(`${where}: the last bucket is not le="+Inf"`);
    for (let i = 1; i < group.buckets.length; i++) {
      const [bound, count] = group.buckets[i];
      const [previousBound, previousCount] = group.buckets[i - 1];
      if (!(bound > previousBound)) throw new Error(`${where}: le ${bound} does not come after ${previousBound}`);
      if (count < previousCount) throw new Error(`${where}: bucket le=${bound} counts fewer than le=${previousBound}`);
    }
    if (group.buckets.at(-1)![1] !== group.count)
      throw new Error(`${where}: the +Inf bucket (${group.buckets.at(-1)![1]}) is not _count (${group.count})`);
  }
}

/** The value of the one sample of `name` whose labels include `labels` (0 when there is none). */
export function sampleValue(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  const family = [...families.values()].find((f) => f.samples.some((s) => s.name === name));
  const matches =
    family?.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)) ?? [];
  if (matches.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${matches.length} series`);
  return matches[0]?.value ?? 0;
}
