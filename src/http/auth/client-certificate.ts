// The DNS names of the client certificate a connection presented, as keys a cluster is found
// under (dnsKey). Only certificates the TLS layer verified against TLS_CLIENT_CA_FILE count.
// A connection's certificate does not change, and a cluster polls many times over one
// keep-alive connection: the names are read once per socket.
import type { Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import { dnsKey } from '../../domain/cluster-dns.ts';

const NONE: readonly string[] = Object.freeze([]);
const namesBySocket = new WeakMap<Socket, readonly string[]>();

/**
 * The names of the verified client certificate: its SAN DNS names, or its subject's CN when it
 * has no SAN DNS name (older certificates name the host there only). Empty without one.
 */
export function clientCertificateNames(socket: Socket): readonly string[] {
  let names = namesBySocket.get(socket);
  if (names === undefined) {
    names = readNames(socket);
    namesBySocket.set(socket, names);
  }
  return names;
}

function readNames(socket: Socket): readonly string[] {
  if (!(socket instanceof TLSSocket) || !socket.authorized) return NONE;
  const certificate = socket.getPeerCertificate(false);
  if (!certificate || Object.keys(certificate).length === 0) return NONE;
  const san = dnsNamesOf(certificate.subjectaltname);
  if (san.length > 0) return Object.freeze(san.map(dnsKey));
  const cn = certificate.subject?.CN;
  const common = Array.isArray(cn) ? cn : cn === undefined ? [] : [cn];
  return Object.freeze(common.map(dnsKey));
}

/**
 * The DNS entries of Node's subjectAltName text: `DNS:a.example.com, IP Address:10.0.0.1, …`.
 * A value holding a comma or a quote is written as a JSON string (`URI:"http://a, b"`), so the
 * text is read entry by entry: a quoted value of another type can never pass for a DNS entry.
 */
export function dnsNamesOf(subjectAltName: string | undefined): string[] {
  if (!subjectAltName) return [];
  const names: string[] = [];
  const entry = /([^:,]+):("(?:[^"\\]|\\.)*"|[^,]*)(?:, |$)/y;
  let match: RegExpExecArray | null;
  while (entry.lastIndex < subjectAltName.length && (match = entry.exec(subjectAltName)) !== null) {
    if (match[1] !== 'DNS') continue;
    const value = match[2];
    names.push(value.startsWith('"') ? (JSON.parse(value) as string) : value);
  }
  return names;
}
