// The per-cluster answers kept across revisions, compactly (docs/decisions/0045-a-compact-store-of-answers.md).
// An answer is what one endpoint serves one cluster: its gzip copy, its tags, the length of its
// plain bytes, and the records it was made from, so that a reload that left them alone serves the
// same bytes without encoding them again. At 50,000 clusters there are 150,000 of them, so none
// is an object: a cluster has a slot, an answer is a number (slot × endpoints + endpoint), its
// numbers live in typed arrays, its tags in two arrays of strings, and its variable-sized part
// (the records' ids, then the gzip bytes) in shared slabs (./byte-slabs.ts). The plain bytes are
// kept within the budget (./plain-bytes-budget.ts) and inflated again from the gzip copy.
//
// Answers are confirmed per response table (one revision): a table gets a serial, and only the
// newest table changes what is kept. An older one (a fleet walk still on it) is served what is
// kept when it was made from the same records, and otherwise a document made for it alone: an
// answer never mixes two revisions.
import { gunzipSync } from 'node:zlib';
import {
  endpointDependencies,
  MAX_RESPONSE_BYTES,
  PER_CLUSTER_ENDPOINTS,
  type PerClusterEndpoint,
  perClusterInputs,
} from '../domain/projections/index.ts';
import type { Cluster } from '../domain/records.ts';
import type { Snapshot } from '../domain/snapshot.ts';
import { ByteSlabs } from './byte-slabs.ts';
import {
  documentBytes,
  EncodedBody,
  type EncodedDocument,
  gzipTag,
  inputsDocument,
  ownBuffer,
  plainTag,
} from './encoded-body.ts';
import { ObjectIds } from './object-ids.ts';
import type { PlainBytesBudget } from './plain-bytes-budget.ts';
import { AnswerPlainBytes } from './answer-plain-bytes.ts';

export const ANSWER_ENDPOINTS = Object.keys(PER_CLUSTER_ENDPOINTS) as PerClusterEndpoint[];
const PER_SLOT = ANSWER_ENDPOINTS.length;
const ENDPOINT_INDEX = Object.fromEntries(ANSWER_ENDPOINTS.map((e, i) => [e, i])) as Record<PerClusterEndpoint, number>;
const NONE = -1;

export class AnswerStore {
  readonly #plain: AnswerPlainBytes;
  readonly #slabs = new ByteSlabs();
  #ids = new ObjectIds();
  /** Cluster id -> its slot; by slot, the id and the record its answers were last confirmed against. */
  readonly #slotOf = new Map<string, number>();
  readonly #idOf: string[] = [];
  readonly #clusterOf: (Cluster | undefined)[] = [];
  readonly #freeSlots: number[] = [];
  /** By answer: its slab handle (NONE: not kept), plain length (negative: oversized), records, serial, encoding. */
  #handle = new Int32Array(0);
  #plainLength = new Int32Array(0);
  #recordCount = new Int32Array(0);
  #confirmedBy = new Int32Array(0);
  #madeBy = new Int32Array(0);
  readonly #tag: string[] = [];
  readonly #gzipTag: string[] = [];
  #answers = 0;
  #encodings = 0;
  #serial = 0;
  #clusters: ReadonlyMap<string, Cluster> | undefined;

  constructor(budget: PlainBytesBudget) {
    this.#plain = new AnswerPlainBytes(budget);
  }

  /**
   * A serial for a table serving `snapshot`, newer than every one before. When the clusters map is
   * a new one and slots may have piled up past a quarter of the fleet, the answers of clusters gone
   * or replaced are let go (a replaced cluster's are made again on its next poll anyway).
   */
  follow(snapshot: Snapshot): number {
    const clusters = snapshot.clusters;
    if (clusters !== this.#clusters) {
      this.#clusters = clusters;
      if (this.#slotOf.size > clusters.size + Math.floor(clusters.size / 4)) {
        for (const [id, slot] of this.#slotOf) if (clusters.get(id) !== this.#clusterOf[slot]) this.#freeSlot(slot);
      }
    }
    return ++this.#serial;
  }

  /**
   * The answer of `cluster` for `endpoint` in the table `serial` serves `snapshot` from: the
   * number of the one kept, or, for an older table whose records differ from it, one made for it alone.
   */
  resolve(
    serial: number,
    snapshot: Snapshot,
    cluster: Cluster,
    endpoint: PerClusterEndpoint,
  ): number | EncodedDocument {
    let slot = this.#slotOf.get(cluster.id);
    // Confirmed by this table already (a fleet walk asks for every cluster's answers): no check.
    if (slot !== undefined && this.#confirmedBy[slot * PER_SLOT + ENDPOINT_INDEX[endpoint]] === serial) {
      return slot * PER_SLOT + ENDPOINT_INDEX[endpoint];
    }
    const records = endpointDependencies(snapshot, cluster, endpoint);
    const newest = serial === this.#serial;
    if (slot !== undefined) {
      const answer = slot * PER_SLOT + ENDPOINT_INDEX[endpoint];
      if (this.#handle[answer] !== NONE && this.#sameRecords(answer, records)) {
        if (newest) {
          this.#confirmedBy[answer] = serial;
          this.#clusterOf[slot] = cluster;
        }
        return answer;
      }
    }
    const body = inputsDocument(perClusterInputs(snapshot, cluster, endpoint));
    if (!newest)
      return body.length >= MAX_RESPONSE_BYTES ? { kind: 'oversized', bytes: body.length } : new EncodedBody(body);
    if (this.#ids.runningOut(records.length)) this.#startOver();
    slot = this.#slotOf.get(cluster.id) ?? this.#newSlot(cluster.id);
    this.#clusterOf[slot] = cluster;
    const answer = slot * PER_SLOT + ENDPOINT_INDEX[endpoint];
    this.#keep(answer, serial, records, body);
    return answer;
  }

  /** Whether the answer is kept as the table `serial` confirmed it (so that table may serve it without a check). */
  confirmed(answer: number, serial: number): boolean {
    return this.#confirmedBy[answer] === serial;
  }

  /** Over 900 KiB: refused, its size kept (so that it is not made again on each poll). */
  oversizedBytes(answer: number): number | undefined {
    const length = this.#plainLength[answer];
    return length < 0 ? -length : undefined;
  }

  tag(answer: number): string {
    return this.#tag[answer];
  }

  gzipTag(answer: number): string {
    return this.#gzipTag[answer];
  }

  plainLength(answer: number): number {
    return this.#plainLength[answer];
  }

  gzipLength(answer: number): number {
    return this.#slabs.lengthOf(this.#handle[answer]) - 4 * this.#recordCount[answer];
  }

  /** The gzip copy: a view of its slab, which keeps these bytes while it is held. */
  gzipped(answer: number): Buffer {
    const handle = this.#handle[answer];
    const end = this.#slabs.offsetOf(handle) + this.#slabs.lengthOf(handle);
    return this.#slabs.slabOf(handle).subarray(end - this.gzipLength(answer), end);
  }

  /** The plain bytes: kept within the budget, or inflated again from the gzip copy. */
  plain(answer: number): Buffer {
    const kept = this.#plain.get(answer);
    if (kept !== undefined) return kept;
    const inflated = ownBuffer(gunzipSync(this.gzipped(answer)));
    this.#plain.keep(answer, inflated);
    return inflated;
  }

  clusterId(answer: number): string {
    return this.#idOf[Math.floor(answer / PER_SLOT)];
  }

  endpoint(answer: number): PerClusterEndpoint {
    return ANSWER_ENDPOINTS[answer % PER_SLOT];
  }

  /** Which encoding made the answer (1 for the first this store made): unchanged while it is kept. */
  madeBy(answer: number): number {
    return this.#madeBy[answer];
  }

  /** The kept answer of a cluster (by id) and endpoint, whatever revision confirmed it last. */
  kept(endpoint: PerClusterEndpoint, clusterId: string): number | undefined {
    const slot = this.#slotOf.get(clusterId);
    if (slot === undefined) return undefined;
    const answer = slot * PER_SLOT + ENDPOINT_INDEX[endpoint];
    return this.#handle[answer] === NONE ? undefined : answer;
  }

  /** Answers kept. */
  get size(): number {
    return this.#answers;
  }

  /** Answers made so far. */
  get encodings(): number {
    return this.#encodings;
  }

  /** Bytes of the slabs holding the answers' records and gzip copies. */
  get slabBytes(): number {
    return this.#slabs.reservedBytes;
  }

  #sameRecords(answer: number, records: readonly (object | undefined)[]): boolean {
    if (records.length !== this.#recordCount[answer]) return false;
    const handle = this.#handle[answer];
    const slab = this.#slabs.slabOf(handle);
    const at = this.#slabs.offsetOf(handle);
    for (let i = 0; i < records.length; i++) {
      if (slab.readInt32LE(at + 4 * i) !== this.#ids.peek(records[i])) return false;
    }
    return true;
  }

  #keep(answer: number, serial: number, records: readonly (object | undefined)[], body: Buffer): void {
    this.#release(answer);
    const oversized = body.length >= MAX_RESPONSE_BYTES;
    const made = oversized ? undefined : documentBytes(body);
    const handle = this.#slabs.allocate(4 * records.length + (made?.gzip.length ?? 0));
    const slab = this.#slabs.slabOf(handle);
    const at = this.#slabs.offsetOf(handle);
    for (let i = 0; i < records.length; i++) slab.writeInt32LE(this.#ids.of(records[i]), at + 4 * i);
    made?.gzip.copy(slab, at + 4 * records.length);
    this.#handle[answer] = handle;
    this.#recordCount[answer] = records.length;
    this.#plainLength[answer] = oversized ? -body.length : body.length;
    this.#tag[answer] = made ? plainTag(made.hash) : '';
    this.#gzipTag[answer] = made ? gzipTag(made.hash) : '';
    this.#confirmedBy[answer] = serial;
    this.#madeBy[answer] = ++this.#encodings;
    this.#answers++;
    if (!oversized) this.#plain.keep(answer, body);
  }

  #release(answer: number): void {
    const handle = this.#handle[answer];
    if (handle === NONE) return;
    this.#slabs.free(handle);
    this.#handle[answer] = NONE;
    this.#confirmedBy[answer] = 0;
    this.#tag[answer] = '';
    this.#gzipTag[answer] = '';
    this.#answers--;
    this.#plain.forget(answer);
  }

  #newSlot(clusterId: string): number {
    let slot = this.#freeSlots.pop();
    if (slot === undefined) {
      slot = this.#idOf.length;
      this.#idOf.push(clusterId);
      this.#clusterOf.push(undefined);
      for (let i = 0; i < PER_SLOT; i++) {
        this.#tag.push('');
        this.#gzipTag.push('');
      }
      if ((slot + 1) * PER_SLOT > this.#handle.length) this.#grow(Math.max(64, 2 * (slot + 1)) * PER_SLOT);
    }
    this.#idOf[slot] = clusterId;
    this.#slotOf.set(clusterId, slot);
    return slot;
  }

  #freeSlot(slot: number): void {
    for (let i = 0; i < PER_SLOT; i++) this.#release(slot * PER_SLOT + i);
    this.#slotOf.delete(this.#idOf[slot]);
    this.#idOf[slot] = '';
    this.#clusterOf[slot] = undefined;
    this.#freeSlots.push(slot);
  }

  #grow(size: number): void {
    const grown = (from: Int32Array, fill: number) => {
      const to = new Int32Array(size).fill(fill);
      to.set(from);
      return to;
    };
    this.#handle = grown(this.#handle, NONE);
    this.#plainLength = grown(this.#plainLength, 0);
    this.#recordCount = grown(this.#recordCount, 0);
    this.#confirmedBy = grown(this.#confirmedBy, 0);
    this.#madeBy = grown(this.#madeBy, 0);
  }

  /** The ids are running out: every answer is let go and made again on demand, numbered anew. */
  #startOver(): void {
    for (const slot of [...this.#slotOf.values()]) this.#freeSlot(slot);
    this.#ids = new ObjectIds();
  }
}
