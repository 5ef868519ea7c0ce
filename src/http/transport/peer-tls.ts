import type { PeerTls } from '../../peers/peer-client.ts';
import type { PeerSettings } from '../../peers/peer-source.ts';
import type { TlsContext } from './tls-context.ts';

/**
 * HTTPS between replicas: a peer's certificate is checked against the system's CAs and the
 * client CAs (which usually sign the replicas too), for the PEERS name when that is a DNS name
 * (the addresses it resolves to are bare IPs); this replica's own certificate is presented
 * when the replicas require client certificates.
 */
export function peerTls(tls: TlsContext, settings: PeerSettings): PeerTls {
  return {
    servername: settings.source.kind === 'dns' ? settings.source.name.replace(/\.$/, '') : undefined,
    extraCa: () => tls.material.clientCa,
    clientCertificate: () =>
      tls.requiresClientCertificates ? { cert: tls.material.cert, key: tls.material.key } : undefined,
  };
}
