// Which replicas there are besides this one. PEERS as a list of URLs is taken as it is; PEERS
// as a DNS name (a headless Service: one address per ready replica) is resolved again when
// the last answer is older than a few seconds, every address becoming a URL on this
// replica's own scheme and port. This replica's own address is among them: it is learned
// from the first answer that carries this process's instance id, and skipped from then on.
import { lookup as dnsLookup } from 'node:dns/promises';
import { PeerFailure } from './peer-client.ts';
import type { PeerSource } from './peer-source.ts';

/** How long a DNS answer is used before the name is resolved again. */
export const DNS_CACHE_MS = 5000;

export type AddressLookup = (name: string) => Promise<{ address: string; family: number }[]>;

const systemLookup: AddressLookup = (name) => dnsLookup(name, { all: true });

export interface OwnEndpoint {
  scheme: 'http' | 'https';
  /** The port this replica listens on (the others listen on the same). */
  port: number;
}

export interface PeerList {
  /** The other replicas' base URLs. */
  urls: string[];
  /** Why the DNS name could not be resolved now (the list is then the last one resolved). */
  failure?: PeerFailure;
}

export class PeerDirectory {
  readonly #source: PeerSource;
  readonly #lookup: AddressLookup;
  readonly #own: OwnEndpoint;
  readonly #self = new Set<string>();
  #resolved: { at: number; urls: string[] } | undefined;
  #resolving: Promise<PeerList> | undefined;

  constructor(source: PeerSource, own: OwnEndpoint, lookup: AddressLookup = systemLookup) {
    this.#source = source;
    this.#own = { ...own };
    this.#lookup = lookup;
  }

  /** The port this replica really listens on (known once it does; LISTEN_ADDR may say 0). */
  listeningOn(port: number): void {
    this.#own.port = port;
  }

  /** The URL is this replica's own: it is not asked again. */
  markSelf(url: string): void {
    this.#self.add(url);
  }

  /** The other replicas as known now (the DNS answer reused for DNS_CACHE_MS). */
  others(now = Date.now()): Promise<PeerList> {
    if (this.#source.kind === 'urls') return Promise.resolve({ urls: this.#withoutSelf(this.#source.urls) });
    const resolved = this.#resolved;
    // A failure is reported once, by the look that met it; the next few seconds reuse its (stale) list quietly.
    if (resolved && now - resolved.at < DNS_CACHE_MS)
      return Promise.resolve({ urls: this.#withoutSelf(resolved.urls) });
    this.#resolving ??= this.#resolve(this.#source.name, now).finally(() => (this.#resolving = undefined));
    return this.#resolving;
  }

  /** How many other replicas the last look found. */
  get count(): number {
    const urls = this.#source.kind === 'urls' ? this.#source.urls : (this.#resolved?.urls ?? []);
    return this.#withoutSelf(urls).length;
  }

  async #resolve(name: string, now: number): Promise<PeerList> {
    try {
      const addresses = await this.#lookup(name);
      const { scheme, port } = this.#own;
      const urls = [
        ...new Set(
          addresses.map(({ address, family }) => `${scheme}://${family === 6 ? `[${address}]` : address}:${port}`),
        ),
      ];
      this.#resolved = { at: now, urls };
      return { urls: this.#withoutSelf(urls) };
    } catch (error) {
      const failure = new PeerFailure(
        'dns',
        `${name}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
      const urls = this.#resolved?.urls ?? [];
      // Kept as long as an answer would be: the name is not asked again at every announcement.
      this.#resolved = { at: now, urls };
      return { urls: this.#withoutSelf(urls), failure };
    }
  }

  #withoutSelf(urls: readonly string[]): string[] {
    return this.#self.size === 0 ? [...urls] : urls.filter((url) => !this.#self.has(url));
  }
}
