// A REST write as data: what a client asked for, before anything is checked. The HTTP layer
// builds one from a request; a change set of one (./change-set.ts) turns it into the next
// records or a refusal; the store runner stores the result.
import type { Problem, RecordKey } from '../problem.ts';
import type { AnyRecord, Collection } from '../records.ts';
import type { Snapshot } from '../snapshot.ts';

/**
 * What a caller may do: read, or write as well. A write carries the role it was made with, and
 * the audit trail names it (never the token itself).
 */
export type Role = 'read' | 'write';

/**
 * Who made a write, as plain data: the audit trail names them, and a person's write is
 * authored by that person in Git. A shared token is named by its role ('write-token'), never
 * by its value.
 */
export interface WriteAuthor {
  kind: 'service' | 'cluster' | 'person';
  /** A service: which token; a person: their display name. */
  name: string;
  /** A person's e-mail address, when the issuer vouches for one. */
  email?: string;
}

/** What the audit trail and the commit message call a write. */
export type WriteAction = 'create' | 'update' | 'delete';

interface WriteBase {
  collection: Collection;
  role: Role;
  who: WriteAuthor;
}

export type WriteRequest =
  | (WriteBase & { kind: 'create'; body: Record<string, unknown> })
  | (WriteBase & { kind: 'replace'; id: string; body: Record<string, unknown>; ifMatch?: string })
  | (WriteBase & { kind: 'merge-patch'; id: string; patch: Record<string, unknown>; ifMatch?: string })
  | (WriteBase & { kind: 'delete'; id: string; ifMatch?: string });

/** Why a write is not stored. `problems` say where, for `invalid` and `conflict`; `subject` is the record written. */
export type WriteRefusal =
  | { reason: 'invalid'; message: string; problems: Problem[]; subject?: RecordKey }
  | { reason: 'conflict'; message: string; problems: Problem[]; subject?: RecordKey }
  | { reason: 'not_found'; message: string }
  | { reason: 'precondition_failed'; message: string };

export interface AppliedWrite {
  action: WriteAction;
  collection: Collection;
  id: string;
  /** The record as it is stored (canonical form), or null after a delete. */
  record: AnyRecord | null;
  /** The record before the write, if there was one. */
  previous: AnyRecord | undefined;
  /** Top-level fields whose value changes; every field for a create or a delete. */
  changedFields: string[];
  /** The revision after the write (still under the base's revision id until it is stored). */
  snapshot: Snapshot;
  /** The write changes nothing (an update to identical content): nothing is stored. */
  unchanged: boolean;
}

export type ApplyResult = { ok: true; applied: AppliedWrite } | { ok: false; refusal: WriteRefusal };
