// The plain bytes of kept answers (./answer-store.ts), within the plain bytes' budget
// (./plain-bytes-budget.ts): few clients ask for them, so only some are kept, each with a small
// holder the budget manages, let go of when the budget drops its bytes or the answer is replaced.
import type { PlainBytesBudget, PlainBytesHolder } from './plain-bytes-budget.ts';

class KeptPlain implements PlainBytesHolder {
  plain: Buffer | undefined = undefined;
  plainUsed = false;
  readonly #answer: number;
  readonly #owner: Map<number, KeptPlain>;

  constructor(answer: number, owner: Map<number, KeptPlain>) {
    this.#answer = answer;
    this.#owner = owner;
  }

  dropped(): void {
    if (this.#owner.get(this.#answer) === this) this.#owner.delete(this.#answer);
  }
}

export class AnswerPlainBytes {
  readonly #budget: PlainBytesBudget;
  /** By answer number: the holders whose bytes the budget keeps. */
  readonly #kept = new Map<number, KeptPlain>();

  constructor(budget: PlainBytesBudget) {
    this.#budget = budget;
  }

  /** The answer's plain bytes if they are kept (marked used, for the budget's second chance). */
  get(answer: number): Buffer | undefined {
    const kept = this.#kept.get(answer);
    if (kept?.plain === undefined) return undefined;
    kept.plainUsed = true;
    return kept.plain;
  }

  /** Offers the answer's plain bytes to the budget. */
  keep(answer: number, body: Buffer): void {
    this.forget(answer);
    const kept = new KeptPlain(answer, this.#kept);
    this.#kept.set(answer, kept);
    this.#budget.admit(kept, body);
    if (kept.plain === undefined) this.#kept.delete(answer);
  }

  /** Drops the answer's plain bytes (it was replaced or let go). */
  forget(answer: number): void {
    const kept = this.#kept.get(answer);
    if (kept === undefined) return;
    this.#budget.forget(kept);
    this.#kept.delete(answer);
  }

  /** Answers whose plain bytes are kept. */
  get size(): number {
    return this.#kept.size;
  }
}
