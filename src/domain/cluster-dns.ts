/**
 * The key under which a cluster is found by the read endpoints: DNS names are
 * case-insensitive, and a fully qualified name may end with one dot.
 *
 * Only A–Z fold to a–z, as DNS itself compares names. Unicode's toLowerCase would also fold
 * characters outside ASCII onto ASCII letters (the Kelvin sign K, U+212A, becomes "k"; the
 * dotted capital İ becomes "i" and a combining dot), so a path no cluster has would answer
 * another cluster's configuration.
 */
export function dnsKey(dns: string): string {
  const lower = dns.replace(/[A-Z]+/g, (upper) => upper.toLowerCase());
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}
