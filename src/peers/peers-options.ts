// What a replica's coordination with the others (./peers.ts) is made from.
import type { Logger } from 'pino';
import type { PublishedRevision } from '../store/runner/published-revision.ts';
import type { PeerTls } from './peer-client.ts';
import type { AddressLookup, OwnEndpoint } from './peer-directory.ts';
import type { PeerSettings } from './peer-source.ts';

/** What of the store runner the replicas' coordination uses. */
export interface PeerStore {
  published(): PublishedRevision | undefined;
  onPublish(listener: (next: PublishedRevision) => void): () => void;
  reload(reason: string): Promise<void>;
  servesAtLeast(revision: string): Promise<boolean>;
  newestInStore(): Promise<string | undefined>;
}

export interface PeersOptions {
  settings: PeerSettings;
  store: PeerStore;
  log: Logger;
  own: OwnEndpoint;
  tls?: PeerTls;
  lookup?: AddressLookup;
}
