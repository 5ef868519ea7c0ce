// How a replica finds the others (PEERS): a DNS name — a headless Service, every address it
// resolves to being a replica that listens on the same port and scheme as this one — or a
// fixed, comma-separated list of base URLs. Only the shape is checked here, at start; the
// names are resolved while the service runs (./peer-directory.ts).

export type PeerSource = { kind: 'dns'; name: string } | { kind: 'urls'; urls: string[] };

/** What PEERS and PEER_TOKEN configure (config.ts reads them). */
export interface PeerSettings {
  source: PeerSource;
  /** PEER_TOKEN: what replicas present to each other on the peer paths, and nothing else takes. */
  token: string;
}

const HOST_NAME =
  /^(?=.{1,253}\.?$)[A-Za-z0-9](?:[-A-Za-z0-9]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[-A-Za-z0-9]{0,61}[A-Za-z0-9])?)*\.?$/;

/** Throws an Error whose message says what is wrong with the value (never a secret: PEERS holds none). */
export function parsePeerSource(value: string): PeerSource {
  const text = value.trim();
  if (!text.includes('://')) {
    if (!HOST_NAME.test(text)) {
      throw new Error(
        `"${text}" is neither a DNS name (e.g. gitops-config-api-peers.gitops-config.svc.cluster.local) nor a ` +
          `comma-separated list of http(s) URLs`,
      );
    }
    return { kind: 'dns', name: text };
  }
  const urls: string[] = [];
  for (const item of text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')) {
    let url: URL;
    try {
      url = new URL(item);
    } catch {
      throw new Error(`"${item}" is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`"${item}" is not an http(s) URL`);
    if (url.username !== '' || url.password !== '')
      throw new Error(`"${url.host}": a peer URL holds no credentials (PEER_TOKEN is sent instead)`);
    if (url.pathname !== '/' || url.search !== '' || url.hash !== '')
      throw new Error(`"${item}" has a path or a query; give the replica's base URL, e.g. http://10.0.0.7:8080`);
    if (!urls.includes(url.origin)) urls.push(url.origin);
  }
  if (urls.length === 0) throw new Error('the list of peer URLs is empty');
  return { kind: 'urls', urls };
}
