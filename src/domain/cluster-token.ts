// A cluster's own token: `gcc1.<cluster id>.<mac>`, where <mac> is the base64url (no padding)
// HMAC-SHA256 of `<cluster id>:<generation>` under a key. Nothing is stored per cluster: the
// service recomputes the MAC from the cluster's record, so raising the record's
// `credential_generation` (a reviewed change like any other) revokes the token issued before,
// and removing the record revokes it too.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { isValidId } from './ids.ts';

export const CLUSTER_TOKEN_PREFIX = 'gcc1.';

/** The MAC's text: 32 bytes of HMAC-SHA256 in base64url, unpadded. */
const MAC_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** A key as configured: the UTF-8 bytes of the string. */
export type ClusterTokenKey = Buffer;

export function clusterTokenKey(text: string): ClusterTokenKey {
  return Buffer.from(text, 'utf8');
}

function macText(key: ClusterTokenKey, clusterId: string, generation: number): string {
  return createHmac('sha256', key).update(`${clusterId}:${generation}`, 'utf8').digest('base64url');
}

/** The token of a cluster at a generation, signed with `key`. */
export function signClusterToken(key: ClusterTokenKey, clusterId: string, generation: number): string {
  return `${CLUSTER_TOKEN_PREFIX}${clusterId}.${macText(key, clusterId, generation)}`;
}

/** Whether a presented token has the form of a cluster token (it may still be forged). */
export function looksLikeClusterToken(token: string): boolean {
  return token.startsWith(CLUSTER_TOKEN_PREFIX);
}

export interface ParsedClusterToken {
  clusterId: string;
  mac: string;
}

/** The cluster id and MAC of a well-formed token; undefined for anything else. */
export function parseClusterToken(token: string): ParsedClusterToken | undefined {
  if (!token.startsWith(CLUSTER_TOKEN_PREFIX)) return undefined;
  // An id may hold dots, a MAC never does: the MAC is what follows the last one.
  const lastDot = token.lastIndexOf('.');
  const clusterId = token.slice(CLUSTER_TOKEN_PREFIX.length, lastDot);
  const mac = token.slice(lastDot + 1);
  return isValidId(clusterId) && MAC_SHAPE.test(mac) ? { clusterId, mac } : undefined;
}

/**
 * Whether `mac` is the MAC of the cluster at `generation` under any of `keys`. Every key is
 * tried, whichever matches, and each comparison takes the same time whatever the bytes: the
 * time taken says nothing about how much of a forged MAC was right, nor which key signed it.
 */
export function clusterMacMatches(
  keys: readonly ClusterTokenKey[],
  clusterId: string,
  generation: number,
  mac: string,
): boolean {
  const presented = Buffer.from(mac, 'latin1');
  let matched = false;
  for (const key of keys) {
    const expected = Buffer.from(macText(key, clusterId, generation), 'latin1');
    if (expected.length === presented.length && timingSafeEqual(expected, presented)) matched = true;
  }
  return matched;
}
