// What a PromQL expression reads, as far as the alert rules' tests need it: each series
// selector (a metric name with its label matchers) and the labels it groups or matches by
// (by, without, on, ignoring, group_left, group_right). A tokenizer and a walk over the
// tokens, not a parser: enough for the rules this project writes, and it throws on a token it
// does not know rather than guessing.

export interface Matcher {
  label: string;
  op: '=' | '!=' | '=~' | '!~';
  value: string;
}

export interface Selector {
  metric: string;
  matchers: Matcher[];
}

export interface ExpressionReads {
  selectors: Selector[];
  /** Labels named by by(), without(), on(), ignoring(), group_left() and group_right(). */
  groupingLabels: string[];
}

/** Aggregations, set and comparison words: never a metric name. */
const KEYWORDS = new Set([
  'sum',
  'min',
  'max',
  'avg',
  'count',
  'group',
  'stddev',
  'stdvar',
  'topk',
  'bottomk',
  'quantile',
  'count_values',
  'and',
  'or',
  'unless',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'offset',
]);
const GROUPING = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right']);

type Token = { kind: 'name' | 'string' | 'number' | 'duration' | 'punct'; text: string };

const TOKEN = new RegExp(
  [
    String.raw`\s+|#[^\n]*`, // space and comments: skipped
    String.raw`([A-Za-z_:][\w:]*)`, // 1: a name
    String.raw`"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'`, // 2, 3: a string
    String.raw`(\[[^\]]*\])`, // 4: a range
    String.raw`(\d+(?:\.\d+)?(?:e[+-]?\d+)?)`, // 5: a number
    String.raw`(=~|!~|!=|==|<=|>=|[-+*/%^<>=(){},])`, // 6: an operator or a bracket
  ].join('|'),
  'y',
);

function tokenize(expr: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < expr.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(expr);
    if (!m) throw new Error(`cannot read the PromQL at ${at}: ${JSON.stringify(expr.slice(at, at + 20))}`);
    if (m[1] !== undefined) tokens.push({ kind: 'name', text: m[1] });
    else if (m[2] !== undefined || m[3] !== undefined) {
      tokens.push({ kind: 'string', text: JSON.parse(`"${m[2] ?? m[3]}"`) as string });
    } else if (m[4] !== undefined) tokens.push({ kind: 'duration', text: m[4] });
    else if (m[5] !== undefined) tokens.push({ kind: 'number', text: m[5] });
    else if (m[6] !== undefined) tokens.push({ kind: 'punct', text: m[6] });
  }
  return tokens;
}

export function expressionReads(expr: string): ExpressionReads {
  const tokens = tokenize(expr);
  const reads: ExpressionReads = { selectors: [], groupingLabels: [] };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.kind !== 'name') continue;
    const next = tokens[i + 1];
    if (GROUPING.has(token.text)) {
      // group_left and group_right may stand without a list.
      if (next?.text !== '(') continue;
      i += 2;
      for (; tokens[i]?.text !== ')'; i++) if (tokens[i].kind === 'name') reads.groupingLabels.push(tokens[i].text);
      continue;
    }
    // A function call (time(), rate(...), absent(...)) or an aggregation.
    if (KEYWORDS.has(token.text) || next?.text === '(') continue;
    const selector: Selector = { metric: token.text, matchers: [] };
    if (next?.text === '{') {
      i += 2;
      while (tokens[i]?.text !== '}') {
        const [label, op, value] = [tokens[i], tokens[i + 1], tokens[i + 2]];
        if (label?.kind !== 'name' || !['=', '!=', '=~', '!~'].includes(op?.text ?? '') || value?.kind !== 'string') {
          throw new Error(`a matcher of ${selector.metric} this reader does not know: ${expr}`);
        }
        selector.matchers.push({ label: label.text, op: op.text as Matcher['op'], value: value.text });
        i += tokens[i + 3]?.text === ',' ? 4 : 3;
      }
    }
    reads.selectors.push(selector);
  }
  return reads;
}
