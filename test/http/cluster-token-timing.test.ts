// How long refusing a forged cluster token takes must not tell whether its id is a cluster's:
// without any credential, an outsider could otherwise list the fleet's ids by timing forged
// `gcc1.<id>.<mac>` tokens. Many in-process verifications (src/http/auth/cluster-tokens.ts) of a
// forged token for an id that exists and for one that does not, one of each in turn: the
// medians agree. A verified token stays remembered, so a poll with a good token still costs
// no MAC at all.
import { describe, expect, it } from 'vitest';
import { signClusterToken } from '../../src/domain/cluster-token.ts';
import { createSnapshot } from '../../src/domain/snapshot.ts';
import { ClusterTokens } from '../../src/http/auth/cluster-tokens.ts';
import { canonicalSets } from '../fixtures/records.ts';
import { CRUD_DATA } from '../helpers/crud.ts';

/** Two keys, as while keys rotate: every key is tried, so a missing MAC would differ by two. */
const KEYS = ['cluster-token-key-new-0123456789abcdefgh', 'cluster-token-key-old-0123456789abcdefgh'];
/** Verifications of each kind, one of each in turn: a pause of the machine falls on both alike. */
const PAIRS = 3000;

const built = createSnapshot(canonicalSets(CRUD_DATA), 'r1');
if (!built.ok) throw new Error('the fixture snapshot is not valid');
const snapshot = built.snapshot;

/** A forged token for `id`: the right form, a MAC of nobody's key. */
const forged = (id: string) => `gcc1.${id}.${'Q'.repeat(43)}`;

/** Nanoseconds one verification of `token` takes. */
function timeOne(tokens: ClusterTokens, token: string): number {
  const started = process.hrtime.bigint();
  tokens.verify(token, snapshot);
  return Number(process.hrtime.bigint() - started);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

describe('verifying a cluster token', () => {
  it('takes as long for a forged token of an existing cluster as for one of an id nobody has', () => {
    const tokens = new ClusterTokens(KEYS);
    // Ids of the same length: c1 is a cluster of the data set, c7 is not.
    expect(snapshot.clusters.has('c1')).toBe(true);
    expect(snapshot.clusters.has('c7')).toBe(false);
    const [existing, missing] = [forged('c1'), forged('c7')];
    expect(tokens.verify(existing, snapshot)).toBeUndefined();
    expect(tokens.verify(missing, snapshot)).toBeUndefined();
    for (let i = 0; i < 200; i++) timeOne(tokens, i % 2 === 0 ? existing : missing); // warm up
    const times = { existing: [] as number[], missing: [] as number[] };
    for (let pair = 0; pair < PAIRS; pair++) {
      // Alternating which goes first, so that neither always runs on a warmer cache.
      const order = pair % 2 === 0 ? (['existing', 'missing'] as const) : (['missing', 'existing'] as const);
      for (const kind of order) times[kind].push(timeOne(tokens, kind === 'existing' ? existing : missing));
    }
    const [a, b] = [median(times.existing), median(times.missing)];
    console.log(
      `forged cluster token, median of ${PAIRS} verifications each: existing id ${a.toFixed(0)} ns, missing id ` +
        `${b.toFixed(0)} ns`,
    );
    // Without the MAC for a missing id, the missing one took a fraction of the time (two HMACs skipped).
    expect(Math.max(a, b) / Math.min(a, b)).toBeLessThan(1.25);
  });

  it('remembers a verified token: checking it again costs a fraction of a MAC', () => {
    const tokens = new ClusterTokens(KEYS);
    const good = signClusterToken(Buffer.from(KEYS[0], 'utf8'), 'c1', 0);
    expect(tokens.verify(good, snapshot)?.name).toBe('c1');
    const times = { good: [] as number[], forged: [] as number[] };
    for (let pair = 0; pair < 500; pair++) {
      times.good.push(timeOne(tokens, good));
      times.forged.push(timeOne(tokens, forged('c1')));
    }
    expect(median(times.good)).toBeLessThan(median(times.forged) / 2);
  });
});
