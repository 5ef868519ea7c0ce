// The addresses a notice may go to: never loopback, unspecified or this host's own, unless
// RECEIVER_HOSTS names the host itself (a `*.` pattern does not).
import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { parseReceiverHosts, type ReceiverHosts } from '../../../src/domain/receiver-hosts.ts';
import { forbiddenAddress } from '../../../src/serving/receivers/receiver-address.ts';

const hosts = parseReceiverHosts('*.k8s.example.com, 127.0.0.1, [::1]') as ReceiverHosts;

describe('receiver addresses', () => {
  it('refuse loopback and unspecified addresses for a name matched through *.', () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1', '0.0.0.0', '::']) {
      expect(forbiddenAddress(address, 'hooks.k8s.example.com', hosts), address).toMatch(/loopback or unspecified/);
    }
    expect(forbiddenAddress('10.20.30.40', 'hooks.k8s.example.com', hosts)).toBeUndefined();
  });

  it("refuse this host's own addresses", () => {
    const own = Object.values(networkInterfaces())
      .flat()
      .map((i) => i!.address)
      .filter((a) => !a.startsWith('127.') && a !== '::1');
    for (const address of own)
      expect(forbiddenAddress(address, 'hooks.k8s.example.com', hosts), address).toMatch(/this host/);
  });

  it('allow loopback where RECEIVER_HOSTS names the host itself', () => {
    expect(forbiddenAddress('127.0.0.1', '127.0.0.1', hosts)).toBeUndefined();
    expect(forbiddenAddress('::1', '[::1]', hosts)).toBeUndefined();
  });
});
