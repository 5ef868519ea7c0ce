/**
 * The key under which a cluster is found by the read endpoints: DNS names are
 * case-insensitive, and a fully qualified name may end with one dot.
 */
export function dnsKey(dns: string): string {
  const lower = dns.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}
