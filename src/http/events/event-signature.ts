// The generic-hmac signature of an event: notification-controller's Provider of type
// `generic-hmac` sends `X-Signature: sha256=<hex HMAC-SHA256 of the body>` keyed by the token in
// its Secret — here, the token of the cluster the event names (`metadata.cluster`). The service
// keeps no token: it makes the cluster's token again from its record under each configured key
// (domain/cluster-token.ts), so raising the record's credential_generation revokes the
// signatures made with the old token too. Every key is tried and every comparison takes the
// same time, whether or not the cluster exists.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { type ClusterTokenKey, signClusterToken } from '../../domain/cluster-token.ts';

/** `sha256=` and 64 hex digits. */
export const SIGNATURE_SHAPE = /^sha256=[0-9a-f]{64}$/i;

/** The header a body is signed as generic-hmac signs it, keyed by `token`. */
export function eventSignature(body: Buffer | string, token: string): string {
  return `sha256=${createHmac('sha256', token).update(body).digest('hex')}`;
}

/**
 * Whether `signature` (of SIGNATURE_SHAPE) signs `body` with the token of the cluster `clusterId`
 * at `generation` (0 for a cluster that does not exist: the work is the same) under any of `keys`.
 */
export function signedByCluster(
  body: Buffer,
  signature: string,
  keys: readonly ClusterTokenKey[],
  clusterId: string,
  generation: number,
): boolean {
  const given = Buffer.from(signature.toLowerCase(), 'latin1');
  let matched = false;
  for (const key of keys) {
    const expected = Buffer.from(eventSignature(body, signClusterToken(key, clusterId, generation)), 'latin1');
    if (expected.length === given.length && timingSafeEqual(expected, given)) matched = true;
  }
  return matched;
}
