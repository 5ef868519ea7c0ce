// The address a notice is sent to, chosen before the connection and kept for it, so that a
// name cannot resolve to one address when checked and another when connected (DNS rebinding).
// Never a loopback or unspecified address, nor one of this host's own, unless RECEIVER_HOSTS
// names the host itself (not through `*.`): a writer of cluster records must not be able to
// aim the service at itself or at what only it can reach.
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { ReceiverHosts } from '../../domain/receiver-hosts.ts';

export type ChosenAddress =
  { ok: true; address: string; family: 4 | 6 } | { ok: false; reason: 'unresolved' | 'own_address'; detail: string };

/** Loopback and unspecified addresses; an IPv4 one mapped into IPv6 matches too. */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addSubnet('0.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addAddress('::', 'ipv6');

function isLoopbackOrUnspecified(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && LOOPBACK.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** This host's own addresses, as its interfaces say now. */
function ownAddresses(): Set<string> {
  const own = new Set<string>();
  for (const list of Object.values(networkInterfaces())) {
    for (const info of list ?? []) own.add(info.address.toLowerCase());
  }
  return own;
}

/** Why `address` may not be connected to for `host`, or undefined. */
export function forbiddenAddress(address: string, host: string, hosts: ReceiverHosts): string | undefined {
  if (hosts.namesExactly(host)) return undefined;
  if (isLoopbackOrUnspecified(address)) return `${host} resolves to ${address}, a loopback or unspecified address`;
  const plain = address.toLowerCase().replace(/^::ffff:(?=\d+\.)/, '');
  if (ownAddresses().has(plain)) return `${host} resolves to ${address}, an address of this host`;
  return undefined;
}

/**
 * The address to connect to for a receiver URL's host: the first the resolver gives that may
 * be connected to; none when any it gives is forbidden (a name that also points at this host
 * is refused whole, not tried elsewhere).
 */
export async function chooseAddress(hostname: string, hosts: ReceiverHosts): Promise<ChosenAddress> {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  let found: { address: string; family: number }[];
  try {
    found = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : await lookup(bare, { all: true, verbatim: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return { ok: false, reason: 'unresolved', detail: `${hostname} does not resolve: ${code}` };
  }
  if (found.length === 0) return { ok: false, reason: 'unresolved', detail: `${hostname} resolves to no address` };
  for (const { address } of found) {
    const why = forbiddenAddress(address, hostname, hosts);
    if (why) return { ok: false, reason: 'own_address', detail: why };
  }
  const first = found[0];
  return { ok: true, address: first.address, family: first.family === 6 ? 6 : 4 };
}
