// Reading a Git config file (git-config(1), "CONFIGURATION FILE"): `[section]` and
// `[section "subsection"]` headers, `key = value` lines, a key alone meaning true, `#` and `;`
// comments, double quotes, backslash escapes and line continuations. Only what a repository's
// own config says is read: includes are not followed (git does not follow them either when
// it checks a repository's format).

/**
 * A config file's variables: "section.key" or "section.subsection.key" -> every value, in file order; null for a key
 * written alone.
 */
export type GitConfig = ReadonlyMap<string, readonly (string | null)[]>;

export class GitConfigError extends Error {}

export function parseGitConfig(text: string): GitConfig {
  const variables = new Map<string, (string | null)[]>();
  let at = 0;
  let section: string | undefined;
  const line = () => text.slice(0, at).split('\n').length;
  const fail = (what: string): never => {
    throw new GitConfigError(`bad config line ${line()}: ${what}`);
  };
  while (at < text.length) {
    const char = text[at];
    if (char === '\n' || char === ' ' || char === '\t' || char === '\r') {
      at++;
    } else if (char === '#' || char === ';') {
      while (at < text.length && text[at] !== '\n') at++;
    } else if (char === '[') {
      const header = /^\[([A-Za-z0-9.-]+)(?:[ \t]+"((?:[^"\\\n]|\\.)*)")?\]/.exec(text.slice(at));
      if (!header) fail('a section header must be [name] or [name "subsection"]');
      const [whole, name, subsection] = header!;
      // `[section.sub]` (an older form) is lowercased whole; a quoted subsection keeps its case.
      section =
        subsection === undefined ? name.toLowerCase() : `${name.toLowerCase()}.${subsection.replace(/\\(.)/g, '$1')}`;
      at += whole.length;
    } else if (/[A-Za-z]/.test(char)) {
      if (section === undefined) fail('a variable before any section');
      const key = /^[A-Za-z][A-Za-z0-9-]*/.exec(text.slice(at))![0];
      at += key.length;
      while (text[at] === ' ' || text[at] === '\t') at++;
      let value: string | null = null;
      if (text[at] === '=') {
        const parsed = parseValue(text, at + 1);
        if (parsed === undefined) fail('an unterminated quote or a bad escape');
        ({ value, end: at } = parsed!);
      } else if (at < text.length && !/[\r\n#;]/.test(text[at])) {
        fail(`"${key}" is followed by something other than "=" or the line's end`);
      }
      const name = `${section}.${key.toLowerCase()}`;
      variables.set(name, [...(variables.get(name) ?? []), value]);
    } else {
      fail(`unexpected "${char}"`);
    }
  }
  return variables;
}

/** A value from after its "=" to the end of its line (or of its continuation lines). */
function parseValue(text: string, from: number): { value: string; end: number } | undefined {
  let value = '';
  /** The length of `value` up to its last character inside quotes or not a space: trailing spaces are dropped. */
  let kept = 0;
  let quoted = false;
  let at = from;
  while (at < text.length && (text[at] === ' ' || text[at] === '\t')) at++;
  for (; at < text.length; at++) {
    const char = text[at];
    if (char === '\n') {
      if (quoted) return undefined;
      break;
    }
    if (!quoted && (char === '#' || char === ';')) {
      while (at < text.length && text[at] !== '\n') at++;
      break;
    }
    if (char === '"') {
      quoted = !quoted;
      continue;
    }
    if (char === '\\') {
      const next = text[++at];
      if (next === '\n') continue; // a continuation line
      if (next === '\r' && text[at + 1] === '\n') {
        at++;
        continue;
      }
      const escaped =
        next === 'n'
          ? '\n'
          : next === 't'
            ? '\t'
            : next === 'b'
              ? '\b'
              : next === '\\' || next === '"'
                ? next
                : undefined;
      if (escaped === undefined) return undefined;
      value += escaped;
      kept = value.length;
      continue;
    }
    if (char === '\r' && text[at + 1] === '\n' && !quoted) continue;
    value += char;
    if (quoted || (char !== ' ' && char !== '\t')) kept = value.length;
  }
  if (quoted) return undefined;
  return { value: value.slice(0, kept), end: at };
}
