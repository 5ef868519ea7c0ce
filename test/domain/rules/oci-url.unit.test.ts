// oci_url must be a URL whose scheme is oci, https or http: the published schema's pattern, as
// a rule. A value a revision already holds is a warning while it stays; a revision or a write
// that brings one in is refused (docs/decisions/0032-credential-generation-and-oci-url-ratchets.md).
import { describe, expect, it } from 'vitest';
import { baselineFacts } from '../../../src/domain/baseline.ts';
import { judge } from '../../../src/domain/judge.ts';
import type { PlatformComponent } from '../../../src/domain/records.ts';
import { ociUrlProblem } from '../../../src/domain/rules/oci-url.ts';
import { validateRecord } from '../../../src/domain/rules/record-schema.ts';
import { componentSchema } from '../../../src/domain/schema-documents.ts';
import { createSnapshot, type Snapshot } from '../../../src/domain/snapshot.ts';
import { applyChangeSet } from '../../../src/domain/writes/change-set.ts';
import type { WriteRequest } from '../../../src/domain/writes/write-request.ts';
import { canonicalSets } from '../../fixtures/records.ts';
import { CRUD_DATA } from '../../fixtures/crud-data.ts';

const entry = (oci_url: string) =>
  ({
    id: 'podinfo',
    component_path: 'podinfo',
    component_version: '6.7.2',
    oci_url,
    oci_tag: '6.7.2',
  }) as PlatformComponent;

/** CRUD_DATA with podinfo's oci_url set. */
function revision(ociUrl: string, name = 'r'): Snapshot {
  const raw = structuredClone(CRUD_DATA);
  raw.platform_components.find((c) => c.id === 'podinfo')!.oci_url = ociUrl;
  const built = createSnapshot(canonicalSets(raw), name);
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  return built.snapshot;
}
const severities = (snapshot: Snapshot, baseline?: Parameters<typeof judge>[1]) =>
  judge({ snapshot, problems: [] }, baseline)
    .problems.filter((p) => p.code === 'oci_url_scheme')
    .map((p) => p.severity);

describe('oci_url', () => {
  it('is a URL whose scheme is oci, https or http, with a host', () => {
    for (const good of [
      'oci://ghcr.io/stefanprodan/charts',
      'https://charts.example.com',
      'http://charts.internal:8080/stable/',
      'https://example.com?x=1',
    ]) {
      expect(ociUrlProblem(entry(good)), good).toBeUndefined();
    }
    for (const bad of [
      'javascript:alert(1)',
      'ftp://example.com/x',
      'git@github.com:acme/charts.git',
      'oci:/ghcr.io/x',
      'https://',
      'https:// example.com',
      'HTTPS://example.com',
      'https://exa mple.com',
      'charts.example.com',
      'https://[::1',
    ]) {
      expect(ociUrlProblem(entry(bad))?.code, bad).toBe('oci_url_scheme');
    }
  });

  it('is in the published schema, and not in the schema check that would refuse an old record outright', () => {
    expect((componentSchema.properties.oci_url as { pattern?: string }).pattern).toBeDefined();
    expect(validateRecord('platform_components', entry('javascript:alert(1)')).ok).toBe(true);
  });

  it(
    'judged against the served revision: an error where the revision brings the value in, a warning where it stays, ' +
      'or without a baseline',
    () => {
      const good = revision('oci://ghcr.io/charts');
      const bad = revision('javascript:alert(1)');
      expect(severities(bad, good)).toEqual(['error']);
      expect(judge({ snapshot: bad, problems: [] }, good).publish).toBe(false);
      expect(severities(bad, bad)).toEqual(['warning']);
      expect(severities(revision('javascript:alert(2)'), bad)).toEqual(['error']);
      expect(severities(bad, undefined)).toEqual(['warning']);
      // The same from the facts a store kept, and leniently from facts kept before they said so.
      expect(severities(bad, baselineFacts(good))).toEqual(['error']);
      expect(severities(bad, baselineFacts(bad))).toEqual(['warning']);
      const { badOciUrls: _bad, ...older } = baselineFacts(good);
      expect(severities(bad, older)).toEqual(['warning']);
    },
  );

  it('writes ratchet: a write that leaves an old value is taken, one that brings a new one in is refused', () => {
    const who = { kind: 'service', name: 'write-token' } as const;
    const patch = (p: Record<string, unknown>): WriteRequest => ({
      kind: 'merge-patch',
      collection: 'platform_components',
      id: 'podinfo',
      patch: p,
      role: 'write',
      who,
    });
    const served = revision('git@github.com:acme/charts.git');
    const set = (write: WriteRequest) => applyChangeSet(served, { writes: [write], role: 'write', who });
    expect(set(patch({ oci_tag: '6.8.0' })).ok).toBe(true);
    expect(set(patch({ oci_url: 'https://charts.example.com' })).ok).toBe(true);
    const refused = set(patch({ oci_url: 'javascript:alert(1)' }));
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.refusal.reason === 'invalid' && refused.refusal.problems.map((p) => p.code)).toEqual([
      'oci_url_scheme',
    ]);
    const created = set({
      kind: 'create',
      collection: 'platform_components',
      body: { ...entry('file:///etc/passwd'), id: 'new-entry' },
      role: 'write',
      who,
    });
    expect(created.ok).toBe(false);
  });
});
