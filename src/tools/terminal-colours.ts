// Colours for the text reports, for a person at a terminal only: stdout is a terminal,
// NO_COLOR (https://no-color.org) is not set and TERM is not "dumb"; FORCE_COLOR forces them
// (into a pipe or a CI log that shows them), except FORCE_COLOR=0 or false. JSON, Markdown and
// GitHub workflow commands are never coloured: programs read them.

/** How each kind of text is shown; PLAIN leaves it as it is. */
export interface Palette {
  error: (text: string) => string;
  warning: (text: string) => string;
  ok: (text: string) => string;
  added: (text: string) => string;
  removed: (text: string) => string;
  changed: (text: string) => string;
  heading: (text: string) => string;
}

const plain = (text: string) => text;

export const PLAIN: Palette = {
  error: plain,
  warning: plain,
  ok: plain,
  added: plain,
  removed: plain,
  changed: plain,
  heading: plain,
};

const sgr = (open: number, close: number) => (text: string) =>
  text === '' ? text : `\u001b[${open}m${text}\u001b[${close}m`;
const red = sgr(31, 39);
const green = sgr(32, 39);
const yellow = sgr(33, 39);
const bold = sgr(1, 22);

export const COLOURED: Palette = {
  error: (text) => bold(red(text)),
  warning: yellow,
  ok: green,
  added: green,
  removed: red,
  changed: yellow,
  heading: bold,
};

export function wantsColour(env: Record<string, string | undefined>, stdoutIsTerminal: boolean): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  return stdoutIsTerminal && env.TERM !== 'dumb';
}

export function paletteFor(env: Record<string, string | undefined>, stdoutIsTerminal: boolean): Palette {
  return wantsColour(env, stdoutIsTerminal) ? COLOURED : PLAIN;
}
