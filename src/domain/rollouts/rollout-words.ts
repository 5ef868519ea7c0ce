// How rollouts say things to a person: lists of clusters cut short, counts with their noun,
// times of day. The status, the problems and the commit messages use these, so one thing is
// said one way everywhere.

/** "a, b, c", or "a, b and 12 more" past `max`. */
export function listed(ids: readonly string[], max: number): string {
  const shown = ids.slice(0, max).join(', ');
  return ids.length > max ? `${shown} and ${ids.length - max} more` : shown;
}

/** "1 cluster", "5 clusters". */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** RFC 3339 in UTC, to the second: "2025-03-04T14:32:05Z". */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * A moment for a sentence a person reads now: "14:32 UTC" when it falls on the same UTC day as
 * `now`, else with its date, "2025-03-05 14:32 UTC". Minutes are cut, never rounded up, so a
 * soak "ends at 14:32" once the clock reads 14:32 at the latest.
 */
export function clockTime(ms: number, now: number): string {
  const iso = new Date(ms).toISOString();
  const day = iso.slice(0, 10);
  const time = `${iso.slice(11, 16)} UTC`;
  return day === new Date(now).toISOString().slice(0, 10) ? time : `${day} ${time}`;
}
