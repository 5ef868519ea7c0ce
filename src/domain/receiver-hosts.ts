// RECEIVER_HOSTS: the hosts a cluster record's receiver_url may name, as comma-separated
// patterns — a host name (`hooks.example.com`), an address (`10.0.0.7`, `[fd00::7]`), or
// `*.` and a domain (`*.k8s.example.com`: any name below it, one label or more, not the domain
// itself). Whoever writes cluster records must not be able to aim the service anywhere: the
// allowed hosts are the deployment's setting, never the config repo's
// (docs/decisions/0043-receiver-hosts-are-a-setting.md). Pure: the rules and the notifier
// both ask the same object.
export interface ReceiverHosts {
  /** The patterns as given, lower-cased, in order (for messages). */
  readonly patterns: readonly string[];
  /** Whether `host` (a URL's hostname: lower-case, IPv6 in brackets) matches a pattern. */
  allows(host: string): boolean;
  /**
   * Whether a pattern names `host` itself, not through `*.`: only then may it be a loopback
   * address or one of the service's own (the notifier checks the addresses it connects to).
   */
  namesExactly(host: string): boolean;
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`^${OCTET}(\\.${OCTET}){3}$`);

/** An IPv6 address in brackets, as a URL's hostname writes it (its canonical form). */
function isBracketedIpv6(name: string): boolean {
  if (!name.startsWith('[') || !name.endsWith(']') || !URL.canParse(`https://${name}/`)) return false;
  return new URL(`https://${name}/`).hostname === name;
}

/** Why one pattern is not a host pattern, or undefined when it is. */
function patternProblem(pattern: string): string | undefined {
  if (pattern === '*' || pattern === '*.') return 'it would allow every host; name the domain (*.k8s.example.com)';
  const name = pattern.startsWith('*.') ? pattern.slice(2) : pattern;
  if (pattern.startsWith('*.') && (IPV4.test(name) || name.startsWith('['))) return 'an address has no names below it';
  if (isBracketedIpv6(name) || IPV4.test(name)) return undefined;
  if (name.length > 253 || !name.split('.').every((label) => LABEL.test(label))) {
    return 'it is not a host name, an address or *. and a domain';
  }
  return undefined;
}

/**
 * The patterns of RECEIVER_HOSTS, or an error saying which one is wrong. An empty value is no
 * patterns: receivers are off (undefined is returned for it).
 */
export function parseReceiverHosts(value: string | undefined): ReceiverHosts | undefined | { error: string } {
  if (value === undefined || value.trim() === '') return undefined;
  const patterns = value.split(',').map((p) => p.trim().toLowerCase());
  for (const pattern of patterns) {
    if (pattern === '') return { error: `RECEIVER_HOSTS=${value} has an empty entry` };
    const problem = patternProblem(pattern);
    if (problem) return { error: `RECEIVER_HOSTS entry ${JSON.stringify(pattern)} is refused: ${problem}` };
  }
  return receiverHosts(patterns);
}

export function receiverHosts(patterns: readonly string[]): ReceiverHosts {
  const exact = new Set(patterns.filter((p) => !p.startsWith('*.')));
  const suffixes = patterns.filter((p) => p.startsWith('*.')).map((p) => p.slice(1));
  return {
    patterns,
    allows: (host) => {
      const name = canonicalHost(host);
      return exact.has(name) || suffixes.some((suffix) => name.endsWith(suffix) && name.length > suffix.length);
    },
    namesExactly: (host) => exact.has(canonicalHost(host)),
  };
}

/** A hostname as compared: lower-case, without the trailing dot of a fully qualified name. */
function canonicalHost(host: string): string {
  const lower = host.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}
