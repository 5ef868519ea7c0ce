// What replicas answer each other (./peers.ts): an announcement's or a forwarded webhook's
// answer, the poll records and the events each hands over, and what was gathered from all.
import type { EventLookup } from '../serving/cluster-events.ts';
import type { PollLookup } from '../serving/fleet-polls.ts';
import type { PollRecords } from '../serving/poll-records.ts';
import type { IgnoredAnnouncementReason } from './announcement-limit.ts';
import { PeerFailure, type PeerFailureReason } from './peer-client.ts';

/** A peer's answer to an announcement or a forwarded webhook. */
export interface PeerAnswer {
  instance: string;
  /** The revision the answering replica serves (null before its first). */
  revision: string | null;
  /** The announced revision is news to it: it fetches and holds its polls. */
  catching_up?: boolean;
  /** Why the announcement made it hold nothing (./announcement-limit.ts). */
  ignored?: IgnoredAnnouncementReason;
  /** The request came from the answering process itself. */
  self?: true;
}

export interface PeerPolls extends PollRecords {
  instance: string;
  revision: string | null;
}

/** What the other replicas answered (their polls, their events), and who answered. */
export interface Gathered<T> {
  answered: { url: string; instance: string; revision: string | null }[];
  missing: { url: string; reason: PeerFailureReason }[];
  values: T[];
}

/** The other replicas' events, for the rollouts, and who answered. */
export type GatheredEvents = Gathered<EventLookup>;

/** The other replicas' polls, for the fleet view, and who answered. */
export type GatheredPolls = Omit<Gathered<PollLookup>, 'values'> & { polls: PollLookup[] };

/** A peer's answer: an object naming its instance, or a bad answer. */
export function peerAnswer(value: unknown): PeerAnswer {
  const answer = value as Partial<PeerAnswer> | null;
  if (typeof answer !== 'object' || answer === null || typeof answer.instance !== 'string') {
    throw new PeerFailure('bad_answer', 'the answer names no instance');
  }
  if (answer.revision !== null && typeof answer.revision !== 'string')
    throw new PeerFailure('bad_answer', 'the answer names no revision');
  return answer as PeerAnswer;
}
