// The query of a write. A write takes only the parameters it knows, spelt exactly, each once:
// a parameter it would ignore is one its sender meant something by. `?dryrun=All`,
// `?dry_run=All` or `?dryRun[]=All` ignored would make a trial run a real commit, so any
// parameter a write does not know is a 400 naming it, before the body is read and long
// before anything is stored. Read from the raw URL, not from a parser that would fold
// `dryRun[]` into `dryRun` or keep only one of two values.
import { ApiError, type ErrorDetail } from '../errors.ts';
import { queryOf } from '../paths.ts';

/** How much of an unknown name an answer repeats. */
const NAME_SHOWN_MAX = 100;

/**
 * The query's parameters by name (each given once), or a 400 `bad_request` naming every
 * parameter not in `accepted` and every one given more than once. `what` names the route in
 * the message ("a write", "a preview").
 */
export function knownQuery(url: string, accepted: readonly string[], what: string): ReadonlyMap<string, string> {
  const params = new URLSearchParams(queryOf(url));
  const takes =
    accepted.length === 0 ? `${what} takes no query parameter` : `${what} takes only ${accepted.join(', ')}`;
  const details: ErrorDetail[] = [];
  const values = new Map<string, string>();
  for (const [name, value] of params) {
    const shown = name.length > NAME_SHOWN_MAX ? `${name.slice(0, NAME_SHOWN_MAX)}…` : name;
    if (!accepted.includes(name)) {
      details.push({ path: shown, message: `unknown query parameter ${JSON.stringify(shown)}: ${takes}, spelt so` });
    } else if (values.has(name)) details.push({ path: name, message: `${name} is given more than once; give it once` });
    else values.set(name, value);
  }
  if (details.length === 0) return values;
  const named = dedupe(details);
  const summary = named
    .slice(0, 3)
    .map((d) => d.message)
    .join('; ');
  throw new ApiError('bad_request', `${summary}${named.length > 3 ? '; …' : ''} (nothing was stored)`, {
    details: named,
  });
}

/** One detail per name: a name given five times is said once. */
function dedupe(details: ErrorDetail[]): ErrorDetail[] {
  const seen = new Set<string>();
  return details.filter((d) => !seen.has(d.path) && seen.add(d.path));
}
