// The judgement of a revision against the one served before it (domain/judge.ts): every rule,
// dangling references new or old, the shrink guard and what lets a shrink through.
import { describe, expect, it } from 'vitest';
import { type BaselineFacts, baselineFacts } from '../../src/domain/baseline.ts';
import { allowsShrink, judge } from '../../src/domain/judge.ts';
import { createSnapshot, type Snapshot } from '../../src/domain/snapshot.ts';
import { canonicalSets } from '../fixtures/records.ts';

type Raw = Parameters<typeof canonicalSets>[0];

const cluster = (id: string, extra: object = {}) => ({
  id,
  cluster_name: id,
  cluster_dns: `${id}.example.com`,
  environment: 'dev',
  platform_components: [{ id: 'app', enabled: true }],
  namespaces: [{ id: 'team-a' }],
  ...extra,
});
const app = { id: 'app', component_path: 'app', component_version: '1', oci_url: 'oci://x', oci_tag: '1' };
const FLEET: Raw = {
  clusters: [cluster('c1'), cluster('c2'), cluster('c3')],
  platform_components: [app],
  namespaces: [{ id: 'team-a' }],
};

function snapshotOf(raw: Raw, revision = 'r'): Snapshot {
  const built = createSnapshot(canonicalSets(raw), revision);
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  return built.snapshot;
}

const judged = (raw: Raw, baseline?: Snapshot | BaselineFacts, allowShrink = false) =>
  judge({ snapshot: snapshotOf(raw, 'next'), problems: [], allowShrink }, baseline);
const codes = (j: ReturnType<typeof judge>) => j.blocking.map((p) => p.code);

describe('judge', () => {
  const base = snapshotOf(FLEET, 'base');

  it('publishes a revision with no error, and keeps its warnings', () => {
    const j = judged({ ...FLEET, platform_components: [app, { ...app, id: 'Spare_Part' }] }, base);
    expect(j.publish).toBe(true);
    expect(j.problems.map((p) => [p.code, p.severity])).toEqual([
      ['unused_catalog_entry', 'warning'],
      ['component_id_not_dns_label', 'warning'],
    ]);
  });

  it('refuses every error of the rules: unknown and cyclic depends_on, stray patches, a response over 900 KiB', () => {
    expect(codes(judged({ ...FLEET, platform_components: [{ ...app, depends_on: ['ghost'] }] }, base))).toEqual([
      'unknown_dependency',
    ]);
    const cyclic = {
      ...FLEET,
      platform_components: [
        { ...app, depends_on: ['lib'] },
        { ...app, id: 'lib', depends_on: ['app'] },
      ],
    };
    expect(codes(judged(cyclic, base))).toEqual(['dependency_cycle']);
    expect(
      codes(
        judged(
          { ...FLEET, clusters: [cluster('c1', { patches: { other: { a: 'b' } } }), cluster('c2'), cluster('c3')] },
          base,
        ),
      ),
    ).toEqual(['stray_patch']);
    const huge = { ...app, component_path: 'x'.repeat(950_000) };
    expect(codes(judged({ ...FLEET, platform_components: [huge] }, base))).toEqual([
      'response_too_large',
      'response_too_large',
      'response_too_large',
    ]);
  });

  it(
    'publishes a response within 10 % of 900 KiB with a warning ' +
      'response_near_limit per cluster, and none below 90 %',
    () => {
      const sized = (length: number) =>
        judged({ ...FLEET, platform_components: [{ ...app, component_path: 'x'.repeat(length) }] }, base);
      // The answer is the path and some hundred bytes around it: 880,000 is past 90 % of 921,600 (829,440), 820,000 is
      // not.
      const near = sized(880_000);
      expect(near.publish).toBe(true);
      expect(near.problems.map((p) => [p.code, p.severity, p.at.record?.id, p.identity])).toEqual(
        ['c1', 'c2', 'c3'].map((id) => ['response_near_limit', 'warning', id, 'platform-components']),
      );
      expect(near.problems[0].message).toMatch(
        /^its platform-components response is \d+ bytes, 9\d% of the consumer's 900 KiB limit/,
      );
      expect(sized(820_000).problems).toEqual([]);
    },
  );

  it(
    'a dangling reference is an error when new, a warning when the baseline had it, a warning in a first revision ' +
      'unless asked otherwise',
    () => {
      const typo = {
        ...FLEET,
        clusters: [cluster('c1', { namespaces: [{ id: 'team-a' }, { id: 'team-b' }] }), cluster('c2'), cluster('c3')],
      };
      const fresh = judged(typo, base);
      expect(fresh.publish).toBe(false);
      expect(fresh.blocking).toEqual([
        expect.objectContaining({
          code: 'dangling_reference',
          severity: 'error',
          at: { record: { collection: 'clusters', id: 'c1' }, field: '/namespaces/1/id' },
        }),
      ]);

      const hadIt = snapshotOf(typo, 'had-it');
      // The same reference, moved in its list, and the cluster changed otherwise: still the old one.
      const moved = {
        ...typo,
        clusters: [
          cluster('c1', { environment: 'qa', namespaces: [{ id: 'team-b' }, { id: 'team-a' }] }),
          cluster('c2'),
          cluster('c3'),
        ],
      };
      const old = judged(moved, hadIt);
      expect(old.publish).toBe(true);
      expect(old.problems).toEqual([expect.objectContaining({ code: 'dangling_reference', severity: 'warning' })]);

      expect(judged(typo, undefined).publish).toBe(true);
      // Asked to (validate without --base, a check in CI), a first revision's are errors.
      const strict = judge({ snapshot: snapshotOf(typo, 'next'), problems: [] }, undefined, {
        danglingWithoutBaseline: 'error',
      });
      expect(strict.publish).toBe(false);
      expect(codes(strict)).toEqual(['dangling_reference']);
      // With a baseline the option changes nothing: only new ones are errors.
      expect(
        judge({ snapshot: snapshotOf(moved, 'next'), problems: [] }, hadIt, { danglingWithoutBaseline: 'error' })
          .publish,
      ).toBe(true);
      // The same facts kept apart from the snapshot (what SQLite stores) judge alike.
      const facts = JSON.parse(JSON.stringify(baselineFacts(hadIt)));
      expect(judged(moved, facts).publish).toBe(true);
      expect(judged(typo, baselineFacts(base)).publish).toBe(false);
    },
  );

  it('a deleted definition that clusters still use is a new dangling reference for each of them', () => {
    const j = judged({ ...FLEET, namespaces: [] }, base);
    expect(j.publish).toBe(false);
    expect(codes(j).sort()).toEqual(['dangling_reference', 'dangling_reference', 'dangling_reference', 'shrink_guard']);
  });

  describe('the shrink guard', () => {
    const emptied = (ids: string[]) => ({
      ...FLEET,
      clusters: FLEET.clusters!.map((c: any) => (ids.includes(c.id) ? { ...c, namespaces: [] } : c)),
    });

    it('lets one cluster be emptied: a decommission', () => {
      expect(judged(emptied(['c1']), base).publish).toBe(true);
    });

    it('refuses emptying the lists of 2 clusters at once, naming them, unless the shrink is meant', () => {
      const j = judged(emptied(['c1', 'c3']), base);
      expect(j.publish).toBe(false);
      expect(j.blocking).toEqual([
        expect.objectContaining({
          code: 'shrink_guard',
          message: expect.stringMatching(
            /2 clusters would get an empty list.*c1 \(namespaces\), c3 \(namespaces\).*Gitops-Allow-Shrink: yes/,
          ),
        }),
      ]);
      const meant = judged(emptied(['c1', 'c3']), base, true);
      expect(meant.publish).toBe(true);
      expect(meant.problems).toEqual([expect.objectContaining({ code: 'shrink_guard', severity: 'warning' })]);
    });

    it("refuses losing more than half of the fleet's inputs, once the fleet has 10 or more", () => {
      const many = { ...FLEET, clusters: Array.from({ length: 6 }, (_, i) => cluster(`c${i}`)) };
      const before = snapshotOf(many);
      // Removing 4 of 6 clusters: 8 of 12 inputs gone, no list emptied (removed clusters answer 404).
      const fewer = { ...many, clusters: many.clusters.slice(0, 2) };
      expect(codes(judged(fewer, before))).toEqual(['shrink_guard']);
      expect(judged({ ...many, clusters: many.clusters.slice(0, 3) }, before).publish).toBe(true);
      // A small fleet (under 10 inputs) may lose most of it.
      expect(judged({ ...FLEET, clusters: [cluster('c1')] }, base).publish).toBe(true);
    });

    it('does not apply to a first revision', () => {
      expect(judged(emptied(['c1', 'c2', 'c3']), undefined).publish).toBe(true);
    });

    it('judges alike against the served snapshot and against the facts a store kept of it', () => {
      const many = {
        ...FLEET,
        clusters: Array.from({ length: 6 }, (_, i) =>
          cluster(`c${i}`, i === 5 ? { namespaces: [{ id: 'gone' }] } : {}),
        ),
      };
      const before = snapshotOf(many);
      const stored = JSON.parse(JSON.stringify(baselineFacts(before))) as BaselineFacts;
      const candidates: Raw[] = [
        many,
        { ...many, clusters: many.clusters.slice(0, 2) },
        {
          ...many,
          clusters: many.clusters.map((c: any) =>
            c.id < 'c3' ? { ...c, namespaces: [], platform_components: [] } : c,
          ),
        },
        { ...many, clusters: [...many.clusters, cluster('c9', { namespaces: [{ id: 'new-gone' }] })] },
      ];
      for (const raw of candidates) {
        const fromSnapshot = judged(raw, before);
        expect(judged(raw, stored)).toEqual(fromSnapshot);
      }
      expect(judged(candidates[1], before).publish).toBe(false);
      expect(judged(candidates[3], before).blocking.map((p) => p.code)).toEqual(['dangling_reference']);
    });
  });

  it('reads the trailer that allows a shrink from a commit message', () => {
    expect(allowsShrink('Remove staging\n\nGitops-Allow-Shrink: yes\n')).toBe(true);
    expect(allowsShrink('Remove staging\n\ngitops-allow-shrink: YES')).toBe(true);
    expect(allowsShrink('Remove staging (Gitops-Allow-Shrink: yes is not a trailer here)')).toBe(false);
    expect(allowsShrink('Gitops-Allow-Shrink: no')).toBe(false);
  });
});
