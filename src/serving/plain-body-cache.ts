// The plain (identity) bytes of encoded bodies, kept up to a byte budget, least recently used
// first out. Every body's gzip copy is kept whole (the fleet's agents all ask for gzip, and it
// is a tenth of the size); its plain bytes are needed only by clients that do not take gzip,
// and kept for all they would double the memory that serving adds. A body whose plain bytes
// were dropped inflates its gzip copy again on its next plain request.

export class PlainBodyCache {
  readonly budgetBytes: number;
  #bytes = 0;
  /** In use order: the first entry is the least recently used. */
  readonly #entries = new Map<object, Buffer>();

  constructor(budgetBytes: number) {
    this.budgetBytes = budgetBytes;
  }

  get(owner: object): Buffer | undefined {
    const body = this.#entries.get(owner);
    if (body !== undefined) {
      this.#entries.delete(owner);
      this.#entries.set(owner, body);
    }
    return body;
  }

  put(owner: object, body: Buffer): void {
    const old = this.#entries.get(owner);
    if (old !== undefined) {
      this.#entries.delete(owner);
      this.#bytes -= old.length;
    }
    if (body.length > this.budgetBytes) return;
    this.#entries.set(owner, body);
    this.#bytes += body.length;
    for (const [oldest, bytes] of this.#entries) {
      if (this.#bytes <= this.budgetBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= bytes.length;
    }
  }

  /** Bytes held now. */
  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#entries.size;
  }
}
