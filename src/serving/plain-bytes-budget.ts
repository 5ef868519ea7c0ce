// The plain (identity) bytes of encoded bodies, kept up to a byte budget. Every body's gzip
// copy is kept whole (the fleet's agents all ask for gzip, and it is a tenth of the size); its
// plain bytes are needed only by clients that do not take gzip, and kept for all they would
// double the memory that serving adds. A body whose plain bytes were dropped inflates its gzip
// copy again on its next plain request.
//
// Eviction is the clock (second chance) approximation of least recently used: a hit only sets
// a flag on the body, so the read path pays a field store rather than reordering a map; when
// the budget is passed, the oldest bodies go, except those used since they were last looked
// at, which get another round.

/** What the budget manages: a body's plain bytes, held on the body itself so that a hit is a field read. */
export interface PlainBytesHolder {
  /** The plain bytes while the budget keeps them. */
  plain: Buffer | undefined;
  /** Set on every use; cleared when the body is given a second chance. */
  plainUsed: boolean;
  /** Told after the budget dropped the holder's bytes (the holder may then be let go). */
  dropped?(): void;
}

export class PlainBytesBudget {
  readonly budgetBytes: number;
  #bytes = 0;
  /** In the order the bodies were admitted (or given their second chance). */
  readonly #queue = new Set<PlainBytesHolder>();

  constructor(budgetBytes: number) {
    this.budgetBytes = budgetBytes;
  }

  /** Keeps `body` as the holder's plain bytes, if it fits the budget at all, and drops others to stay within it. */
  admit(holder: PlainBytesHolder, body: Buffer): void {
    if (this.#queue.delete(holder) && holder.plain !== undefined) this.#bytes -= holder.plain.length;
    holder.plain = undefined;
    holder.plainUsed = false;
    if (body.length > this.budgetBytes) return;
    holder.plain = body;
    this.#queue.add(holder);
    this.#bytes += body.length;
    while (this.#bytes > this.budgetBytes) {
      const oldest = this.#queue.values().next().value!;
      this.#queue.delete(oldest);
      if (oldest.plainUsed && oldest !== holder) {
        oldest.plainUsed = false;
        this.#queue.add(oldest);
        continue;
      }
      this.#bytes -= oldest.plain!.length;
      oldest.plain = undefined;
      oldest.dropped?.();
    }
  }

  /** Drops the holder's bytes at once (its body is no longer served). */
  forget(holder: PlainBytesHolder): void {
    if (this.#queue.delete(holder) && holder.plain !== undefined) this.#bytes -= holder.plain.length;
    holder.plain = undefined;
  }

  /** Bytes held now. */
  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#queue.size;
  }
}
