// Rules: a record's id is the name of its file (<collection>/<id>.yaml) in a Git repository
// that people also check out on macOS and Windows, whose file systems compare names without
// regard to case and where some names cannot be created at all:
//   - id_case_clash: two ids of one collection that differ only in case ("A" and "a") are
//     one file there, so a checkout keeps one of them and shows the other as modified;
//   - reserved_file_name: Windows reserves the device names CON, PRN, AUX, NUL, COM1-COM9 and
//     LPT1-LPT9 in any case and with any extension ("con.yaml", "Con.foo.yaml"), so an id
//     whose part before its first dot is one of them cannot be checked out there. (The same
//     list Git for Windows refuses; ids are ASCII, so the superscript COM/LPT forms cannot
//     occur.)
// A write refuses to make such an id (../writes/staged-write.ts); one a revision already
// holds is a warning, so a repository that has one keeps being served.
import { compareIds } from '../ids.ts';
import { type Problem, problem } from '../problem.ts';
import { COLLECTIONS, type Collection } from '../records.ts';

const WINDOWS_RESERVED = /^(?:con|prn|aux|nul|com[1-9]|lpt[1-9])(?:\.|$)/i;
const UPPER_CASE = /[A-Z]/;

export function isWindowsReservedName(id: string): boolean {
  return WINDOWS_RESERVED.test(id);
}

export function reservedNameMessage(collection: Collection, id: string): string {
  const device = id.split('.')[0].toUpperCase();
  return (
    `"${id}" cannot be a file name on Windows (${device} is a device name there, with any extension), so ` +
    `${collection}/${id}.yaml could not be checked out`
  );
}

export function caseClashMessage(collection: Collection, id: string, existing: string): string {
  return (
    `"${id}" differs only in case from ${collection} id "${existing}": on a case-insensitive file system ` +
    `(macOS, Windows) ${collection}/${existing}.yaml and ${collection}/${id}.yaml are one file`
  );
}

/**
 * What a look at every id of a collection finds. It is kept per map, and carried over to the
 * map a write or a reload makes from it (carryIdScan), so only a collection built from scratch
 * is looked at whole: at 50,000 clusters a look takes milliseconds, and a write or a reload
 * must not pay that.
 */
interface IdScan {
  /**
   * The ids that hold an upper-case letter, by their lower-case form, each list in id order.
   * Two ids can differ only in case only if one of them holds one, so this is all a look-up
   * needs, and it is usually empty.
   */
  mixedCase: ReadonlyMap<string, readonly string[]>;
  /** Ids Windows reserves as device names, in id order. */
  reserved: readonly string[];
}

const scans = new WeakMap<ReadonlyMap<string, unknown>, IdScan>();

function scan(records: ReadonlyMap<string, unknown>): IdScan {
  let found = scans.get(records);
  if (found) return found;
  const mixedCase = new Map<string, string[]>();
  const reserved: string[] = [];
  for (const id of records.keys()) {
    if (isWindowsReservedName(id)) reserved.push(id);
    if (!UPPER_CASE.test(id)) continue;
    const folded = id.toLowerCase();
    const ids = mixedCase.get(folded);
    if (ids) ids.push(id);
    else mixedCase.set(folded, [id]);
  }
  found = { mixedCase, reserved };
  scans.set(records, found);
  return found;
}

/**
 * `after` is `before` with the ids `added` and without the ids `removed` (records changed
 * under the same id change nothing here): its scan is `before`'s, adjusted, when that is
 * known. Ids of note are rare, so this copies little or nothing.
 */
export function carryIdScan(
  before: ReadonlyMap<string, unknown>,
  after: ReadonlyMap<string, unknown>,
  added: readonly string[],
  removed: readonly string[],
): void {
  const known = scans.get(before);
  if (!known || scans.has(after)) return;
  const noted = (id: string) => UPPER_CASE.test(id) || isWindowsReservedName(id);
  if (!added.some(noted) && !removed.some(noted)) {
    scans.set(after, known);
    return;
  }
  const mixedCase = new Map(known.mixedCase);
  let reserved = known.reserved;
  for (const id of removed) {
    if (isWindowsReservedName(id)) reserved = reserved.filter((other) => other !== id);
    if (!UPPER_CASE.test(id)) continue;
    const folded = id.toLowerCase();
    const left = (mixedCase.get(folded) ?? []).filter((other) => other !== id);
    if (left.length > 0) mixedCase.set(folded, left);
    else mixedCase.delete(folded);
  }
  for (const id of added) {
    if (isWindowsReservedName(id)) reserved = [...reserved, id].sort(compareIds);
    if (!UPPER_CASE.test(id)) continue;
    const folded = id.toLowerCase();
    mixedCase.set(folded, [...(mixedCase.get(folded) ?? []), id].sort(compareIds));
  }
  scans.set(after, { mixedCase, reserved });
}

/** An id of `records` other than `id` that differs from it only in case, if there is one. */
export function caseTwin(records: ReadonlyMap<string, unknown>, id: string): string | undefined {
  return caseTwins(records, id)[0];
}

/**
 * Every id of `records` other than `id` that differs from it only in case: the all-lower-case one first, the rest in id
 * order.
 */
export function caseTwins(records: ReadonlyMap<string, unknown>, id: string): string[] {
  const folded = id.toLowerCase();
  const others = (scan(records).mixedCase.get(folded) ?? []).filter((other) => other !== id);
  return folded !== id && records.has(folded) ? [folded, ...others] : others;
}

const problemsOf = new WeakMap<ReadonlyMap<string, unknown>, Problem[]>();

/** The warnings of one collection: each id that clashes with an earlier one, and each reserved name. */
function collectionProblems(collection: Collection, records: ReadonlyMap<string, unknown>): Problem[] {
  let problems = problemsOf.get(records);
  if (problems) return problems;
  problems = [];
  const { mixedCase, reserved } = scan(records);
  // In id order, however the scan was made.
  for (const [folded, ids] of [...mixedCase].sort(([a], [b]) => compareIds(a, b))) {
    // The ids of one file name in id order (the all-lower-case one sorts last); each one after the first clashes with
    // it.
    const all = records.has(folded) ? [...ids, folded] : ids;
    const first = all[0];
    for (const id of all.slice(1)) {
      const at = { record: { collection, id }, field: '/id' };
      problems.push({
        ...problem('id_case_clash', at, caseClashMessage(collection, id, first), {
          refersTo: { collection, id: first },
        }),
        severity: 'warning',
      });
    }
  }
  for (const id of reserved) {
    problems.push({
      ...problem(
        'reserved_file_name',
        { record: { collection, id }, field: '/id' },
        reservedNameMessage(collection, id),
      ),
      severity: 'warning',
    });
  }
  problemsOf.set(records, problems);
  return problems;
}

/** Ids of a revision that cannot be checked out as files on macOS or Windows: warnings. */
export function idsNotPortable(snapshot: { readonly [C in Collection]: ReadonlyMap<string, unknown> }): Problem[] {
  return COLLECTIONS.flatMap((collection) => collectionProblems(collection, snapshot[collection]));
}
