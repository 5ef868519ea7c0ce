// receiver_url: https only (the schema, for every reader), a host RECEIVER_HOSTS allows (the
// rule, given the setting), judged with the ratchet of oci_url. The setting's patterns:
// domain/receiver-hosts.ts.
import { describe, expect, it } from 'vitest';
import { judge } from '../../../src/domain/judge.ts';
import { parseReceiverHosts, type ReceiverHosts } from '../../../src/domain/receiver-hosts.ts';
import { receiverUrlRefusal } from '../../../src/domain/rules/receiver-url.ts';
import { validateRecord } from '../../../src/domain/rules/record-schema.ts';
import { createSnapshot, type Snapshot } from '../../../src/domain/snapshot.ts';
import { applyChangeSet } from '../../../src/domain/writes/change-set.ts';
import type { WriteRequest } from '../../../src/domain/writes/write-request.ts';
import { canonicalSets } from '../../fixtures/records.ts';
import { CRUD_DATA } from '../../fixtures/crud-data.ts';

const hosts = (value: string): ReceiverHosts => {
  const parsed = parseReceiverHosts(value);
  if (parsed === undefined || 'error' in parsed) throw new Error(`not patterns: ${value}`);
  return parsed;
};
const K8S = hosts('*.k8s.example.com, hooks.example.net, 127.0.0.1');

/** CRUD_DATA with the first cluster's receiver_url set. */
function revision(url: string | null, name = 'r'): Snapshot {
  const raw = structuredClone(CRUD_DATA) as { clusters: Record<string, unknown>[] };
  raw.clusters[0].receiver_url = url;
  const built = createSnapshot(canonicalSets(raw), name);
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  return built.snapshot;
}
const severities = (snapshot: Snapshot, baseline: Snapshot | undefined, with_ = K8S) =>
  judge({ snapshot, problems: [] }, baseline, { receiverHosts: with_ })
    .problems.filter((p) => p.code === 'receiver_url_host')
    .map((p) => p.severity);

describe('RECEIVER_HOSTS', () => {
  it('matches a name exactly, or below a *. domain (not the domain itself), case and trailing dot aside', () => {
    expect(K8S.allows('hooks.dev-eu-1.k8s.example.com')).toBe(true);
    expect(K8S.allows('A.K8S.Example.com.')).toBe(true);
    expect(K8S.allows('k8s.example.com')).toBe(false);
    expect(K8S.allows('evil-k8s.example.com')).toBe(false);
    expect(K8S.allows('hooks.example.net')).toBe(true);
    expect(K8S.allows('x.hooks.example.net')).toBe(false);
    expect(K8S.namesExactly('127.0.0.1')).toBe(true);
    expect(K8S.namesExactly('a.k8s.example.com')).toBe(false);
  });

  it('refuses what would allow everything or is no host, and is off when empty', () => {
    expect(parseReceiverHosts(undefined)).toBeUndefined();
    expect(parseReceiverHosts('  ')).toBeUndefined();
    for (const bad of ['*', 'a.com,,b.com', 'http://a.com', 'a.com/x', '*.10.0.0.1', 'ex ample.com', '-a.com']) {
      expect(parseReceiverHosts(bad), bad).toHaveProperty('error');
    }
    expect(hosts('[::1]').allows('[::1]')).toBe(true);
  });
});

describe('receiver_url', () => {
  it('is https in the schema, so an http URL is refused wherever a record is read', () => {
    const cluster = { ...CRUD_DATA.clusters[0], receiver_url: 'http://hooks.dev.k8s.example.com/hook/1' };
    const checked = validateRecord('clusters', cluster);
    expect(checked.ok).toBe(false);
    expect(validateRecord('clusters', { ...cluster, receiver_url: null }).ok).toBe(true);
  });

  it('names a host RECEIVER_HOSTS allows, with no user or password; without the setting it is never told', () => {
    expect(receiverUrlRefusal('https://hooks.dev.k8s.example.com/hook/abc', K8S)).toBeUndefined();
    expect(receiverUrlRefusal('https://hooks.attacker.example/hook/abc', K8S)).toMatch(/does not allow/);
    expect(receiverUrlRefusal('https://u:p@hooks.dev.k8s.example.com/hook/abc', K8S)).toMatch(/user or password/);
    expect(receiverUrlRefusal('https://hooks.dev.k8s.example.com/hook/abc', undefined)).toMatch(/receivers are off/);
  });

  it(
    'judged against the served revision: an error where the ' + 'revision brings the host in, a warning where it stays',
    () => {
      const good = revision('https://hooks.dev.k8s.example.com/hook/abc');
      const off = revision('https://metadata.internal/hook/abc');
      expect(severities(good, revision(null))).toEqual([]);
      expect(severities(off, good)).toEqual(['error']);
      expect(judge({ snapshot: off, problems: [] }, good, { receiverHosts: K8S }).publish).toBe(false);
      // RECEIVER_HOSTS narrowed under a served value: publication goes on, the notifier skips it.
      expect(severities(off, off)).toEqual(['warning']);
      expect(severities(off, undefined)).toEqual(['warning']);
      // Receivers off: a warning, whatever the host.
      expect(judge({ snapshot: good, problems: [] }, good).problems.map((p) => [p.code, p.severity])).toContainEqual([
        'receiver_url_host',
        'warning',
      ]);
    },
  );

  it('writes ratchet: a write bringing an off-host URL in is refused, one leaving an old value is taken', () => {
    const who = { kind: 'service', name: 'write-token' } as const;
    const id = CRUD_DATA.clusters[0].id;
    const patch = (p: Record<string, unknown>): WriteRequest => ({
      kind: 'merge-patch',
      collection: 'clusters',
      id,
      patch: p,
      role: 'write',
      who,
    });
    const served = revision('https://metadata.internal/hook/abc');
    const set = (s: Snapshot, write: WriteRequest) =>
      applyChangeSet(s, { writes: [write], role: 'write', who }, { receiverHosts: K8S });
    expect(set(served, patch({ cluster_name: 'renamed' })).ok).toBe(true);
    expect(set(served, patch({ receiver_url: 'https://a.k8s.example.com/hook/1' })).ok).toBe(true);
    const refused = set(revision(null), patch({ receiver_url: 'https://169.254.169.254/hook/1' }));
    expect(!refused.ok && refused.refusal.reason === 'invalid' && refused.refusal.problems.map((p) => p.code)).toEqual([
      'receiver_url_host',
    ]);
    expect(set(revision(null), patch({ receiver_url: 'http://a.k8s.example.com/hook/1' })).ok).toBe(false);
  });
});
