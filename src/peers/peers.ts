// How replicas act as one (PEERS). A replica that is about to publish a new revision announces
// it to the others first and waits for their acknowledgement (at most a second); a replica
// told of a revision newer than its own makes sure its store's source has something newer,
// holds its polls until it serves that (./revision-hold.ts), acknowledges and fetches. So
// once any replica has answered a cluster with a revision, no replica that was reachable
// answers it with an older one. A push webhook accepted by one replica is passed on to the
// others, and the fleet view of any replica merges the polls of all, its rollouts the events of all.
//
// A peer that cannot be reached never holds anything up for longer than those bounds: it is
// logged and counted (gitops_config_peer_errors_total), and its answers may go back in time
// until it can be reached again.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { decodePollRecords, encodePollRecords } from '../serving/poll-records.ts';
import type { FleetPolls } from '../serving/fleet-polls.ts';
import type { ClusterEvents, EventLookup } from '../serving/cluster-events.ts';
import { decodeEventRecords, encodeEventRecords, type EventRecords } from '../serving/event-records.ts';
import { AnnouncementLimit, type IgnoredAnnouncementReason } from './announcement-limit.ts';
import { PeerClient, PeerFailure, type PeerFailureReason } from './peer-client.ts';
import { PeerDirectory } from './peer-directory.ts';
import { RevisionHold } from './revision-hold.ts';
import { withTimeout } from '../shared/with-timeout.ts';
import { PEER_PATHS } from './peer-paths.ts';
import type { PeersOptions, PeerStore } from './peers-options.ts';

/** How long a publication waits for the peers' acknowledgements, in all. */
export const ANNOUNCE_WAIT_MS = 1000;
/** How long a forwarded push webhook waits for each peer. */
const SYNC_WAIT_MS = 1000;
/** How long the fleet view waits for the peers' polls. */
const POLLS_WAIT_MS = 3000;

export type { Gathered, GatheredEvents, GatheredPolls, PeerAnswer, PeerPolls } from './peer-answers.ts';
import { type Gathered, type GatheredPolls, type PeerAnswer, type PeerPolls, peerAnswer } from './peer-answers.ts';

export class Peers {
  /** This process among the replicas; peers echo it, which is how a replica finds its own address among them. */
  readonly instance = randomUUID();
  readonly hold = new RevisionHold();
  readonly #directory: PeerDirectory;
  readonly #client: PeerClient;
  readonly #store: PeerStore;
  readonly #log: Logger;
  readonly #failureListeners = new Set<(reason: PeerFailureReason) => void>();
  readonly #ignoredListeners = new Set<(reason: IgnoredAnnouncementReason) => void>();
  readonly #limit = new AnnouncementLimit();
  /** Looks at the store's source under way, by the revision announced. */
  readonly #looking = new Map<string, Promise<'holding' | IgnoredAnnouncementReason>>();
  /** Nothing is announced before this replica listens: until then it answers no one (see listeningOn). */
  #listening = false;

  constructor({ settings, store, log, own, tls, lookup }: PeersOptions) {
    this.#directory = new PeerDirectory(settings.source, own, lookup);
    this.#client = new PeerClient(settings.token, tls);
    this.#store = store;
    this.#log = log;
    store.onPublish(() => this.#releaseCaughtUp());
  }

  /**
   * This replica listens now, on `port`: from here on what it publishes is announced first.
   * The revision it published while starting is announced now, before the service reports
   * itself started (and long before a readiness probe lets traffic in): a replica that
   * started on a newer commit than the others makes them fetch it. Before it listened, an
   * announcement would have reached its own closed port among the peers.
   */
  async listeningOn(port: number): Promise<void> {
    this.#directory.listeningOn(port);
    this.#listening = true;
    const served = this.#served();
    if (served !== null) await this.announce(served);
  }

  /** Called with the reason of every failed exchange with a peer (the metrics count them). */
  onFailure(listener: (reason: PeerFailureReason) => void): () => void {
    this.#failureListeners.add(listener);
    return () => this.#failureListeners.delete(listener);
  }

  /** How many other replicas the last look found. */
  get count(): number {
    return this.#directory.count;
  }

  /** The step before a publication: every peer told, in parallel, within ANNOUNCE_WAIT_MS in all. */
  async announce(revision: string): Promise<void> {
    if (!this.#listening) return;
    const started = performance.now();
    const urls = await this.#others(ANNOUNCE_WAIT_MS);
    if (urls.length === 0) return;
    const left = () => Math.max(1, ANNOUNCE_WAIT_MS - (performance.now() - started));
    const path = `${PEER_PATHS.announce}?revision=${encodeURIComponent(revision)}&from=${this.instance}`;
    const answers = await Promise.all(
      urls.map((url) => this.#exchange(url, 'POST', path, left(), 'announce', peerAnswer)),
    );
    const told = answers.filter((answer) => answer !== undefined && !answer.self);
    this.#log.debug(
      {
        revision,
        peers: told.length,
        catching_up: told.filter((a) => a!.catching_up).length,
        ms: Math.round(performance.now() - started),
      },
      'announced a revision to the peers',
    );
  }

  /**
   * Another replica (at `peer`, its address) is about to publish `revision`. Within its
   * allowance (./announcement-limit.ts), and unless this replica serves it or a newer one
   * already, the store's source is asked for its newest revision: only when that is newer
   * than the one served are polls held — once per revision — and a reload begun, so a made-up
   * revision holds nothing. Announcements of one revision arriving together share the look.
   */
  async announced(revision: string, from: string, peer: string): Promise<PeerAnswer> {
    if (from === this.instance) return { instance: this.instance, revision: this.#served(), self: true };
    if (!this.#limit.take(peer)) return this.#ignored('rate_limited', revision, peer);
    if (await this.#store.servesAtLeast(revision))
      return { instance: this.instance, revision: this.#served(), catching_up: false };
    if (this.hold.held().some((held) => held.revision === revision))
      return { instance: this.instance, revision: this.#served(), catching_up: true };
    let look = this.#looking.get(revision);
    if (look === undefined) {
      look = this.#catchUp(revision).finally(() => this.#looking.delete(revision));
      this.#looking.set(revision, look);
    }
    const outcome = await look;
    if (outcome !== 'holding') return this.#ignored(outcome, revision, peer);
    return { instance: this.instance, revision: this.#served(), catching_up: true };
  }

  /** Called with the reason of every announcement that made this replica hold nothing (the metrics count them). */
  onIgnored(listener: (reason: IgnoredAnnouncementReason) => void): () => void {
    this.#ignoredListeners.add(listener);
    return () => this.#ignoredListeners.delete(listener);
  }

  /** A push webhook reached this replica: the others fetch now too. */
  forwardSync(): void {
    void (async () => {
      const urls = await this.#others(SYNC_WAIT_MS);
      const path = `${PEER_PATHS.sync}?from=${this.instance}`;
      await Promise.all(urls.map((url) => this.#exchange(url, 'POST', path, SYNC_WAIT_MS, 'sync', peerAnswer)));
    })();
  }

  /** Another replica was sent a push webhook. */
  synced(from: string): PeerAnswer {
    if (from === this.instance) return { instance: this.instance, revision: this.#served(), self: true };
    void this.#store.reload('a peer was sent a push webhook');
    return { instance: this.instance, revision: this.#served() };
  }

  /** This replica's poll registry, for another replica's fleet view. */
  pollsOf(polls: FleetPolls): PeerPolls {
    return { instance: this.instance, revision: this.#served(), ...encodePollRecords(polls) };
  }

  /** This replica's events, for another replica's rollouts. */
  eventsOf(events: ClusterEvents): PeerAnswer & EventRecords {
    return { instance: this.instance, revision: this.#served(), ...encodeEventRecords(events) };
  }

  /** Every other replica's polls; those that did not answer in time are named. */
  async gatherPolls(): Promise<GatheredPolls> {
    const { values, ...who } = await this.#gather(PEER_PATHS.polls, 'polls', (value) => {
      const polls = decodePollRecords(value);
      return { of: (id: string) => polls.get(id) };
    });
    return { ...who, polls: values };
  }

  /** Every other replica's events; those that did not answer in time are named. */
  async gatherEvents(): Promise<Gathered<EventLookup>> {
    return this.#gather(PEER_PATHS.events, 'events', decodeEventRecords);
  }

  async #gather<T>(pathName: string, what: string, decode: (value: unknown) => T): Promise<Gathered<T>> {
    const gathered: Gathered<T> = { answered: [], missing: [], values: [] };
    const urls = await this.#others(POLLS_WAIT_MS);
    const path = `${pathName}?from=${this.instance}`;
    await Promise.all(
      urls.map(async (url) => {
        const answer = await this.#exchange(
          url,
          'GET',
          path,
          POLLS_WAIT_MS,
          what,
          (value) => {
            const { instance, revision } = peerAnswer(value);
            return { instance, revision, decoded: decode(value) };
          },
          (reason) => gathered.missing.push({ url, reason }),
        );
        if (answer === undefined || answer.instance === this.instance) return;
        gathered.answered.push({ url, instance: answer.instance, revision: answer.revision });
        gathered.values.push(answer.decoded);
      }),
    );
    gathered.answered.sort((a, b) => a.url.localeCompare(b.url));
    gathered.missing.sort((a, b) => a.url.localeCompare(b.url));
    return gathered;
  }

  close(): void {
    this.#client.close();
  }

  #served(): string | null {
    return this.#store.published()?.snapshot.revision ?? null;
  }

  /** Holds polls for the store's newest revision when it is news here; else why not. */
  async #catchUp(announced: string): Promise<'holding' | Exclude<IgnoredAnnouncementReason, 'rate_limited'>> {
    const newest = await this.#store.newestInStore();
    if (newest === undefined || (await this.#store.servesAtLeast(newest))) return 'nothing_new';
    // Already fetching it (every replica that publishes it announces it): one hold is enough.
    if (this.hold.held().some((held) => held.revision === newest)) return 'holding';
    if (this.#limit.heldBefore(newest)) return 'held_before';
    this.#limit.holding(newest);
    const hold = this.hold.begin(newest);
    this.#log.info(
      { revision: newest, announced, served_revision: this.#served() },
      'a peer announced a newer revision: fetching it; polls wait until it is served here',
    );
    void this.#store.reload('a peer announced a newer revision').finally(() => hold.release());
    return 'holding';
  }

  #ignored(reason: IgnoredAnnouncementReason, revision: string, peer: string): PeerAnswer {
    this.#log.debug({ revision, peer, reason }, 'an announcement made this replica hold nothing');
    for (const listener of this.#ignoredListeners) listener(reason);
    return { instance: this.instance, revision: this.#served(), catching_up: false, ignored: reason };
  }

  #releaseCaughtUp(): void {
    for (const hold of this.hold.held()) {
      void this.#store.servesAtLeast(hold.revision).then((caughtUp) => caughtUp && hold.release());
    }
  }

  /** The other replicas, the DNS look bounded by `withinMs`; a failed look is counted. */
  async #others(withinMs: number): Promise<string[]> {
    const list = await withTimeout(this.#directory.others(), withinMs, undefined);
    if (list === undefined) {
      this.#failed('(dns)', new PeerFailure('dns', `no DNS answer within ${withinMs} ms`), 'resolve');
      return [];
    }
    if (list.failure) this.#failed('(dns)', list.failure, 'resolve');
    return list.urls;
  }

  /** One request to one peer; undefined when it failed (logged and counted) or came back to this process. */
  async #exchange<T extends { instance: string }>(
    url: string,
    method: 'GET' | 'POST',
    path: string,
    timeoutMs: number,
    what: string,
    read: (value: unknown) => T,
    onFailure?: (reason: PeerFailureReason) => void,
  ): Promise<T | undefined> {
    try {
      const answer = read(await this.#client.request(url, method, path, timeoutMs));
      if (answer.instance === this.instance) {
        this.#directory.markSelf(url);
        return undefined;
      }
      return answer;
    } catch (error) {
      const failure = error instanceof PeerFailure ? error : new PeerFailure('bad_answer', (error as Error).message);
      this.#failed(url, failure, what);
      onFailure?.(failure.reason);
      return undefined;
    }
  }

  #failed(peer: string, failure: PeerFailure, what: string): void {
    this.#log.warn(
      { peer, reason: failure.reason, error: failure.message, what },
      `a peer could not be reached (${failure.reason}); going on without it`,
    );
    for (const listener of this.#failureListeners) listener(failure.reason);
  }
}
