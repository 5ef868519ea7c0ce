import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRecordFile } from '../../src/domain/repo-layout/record-file-parse.ts';
import { validateRecord } from '../../src/domain/rules/record-schema.ts';
import { parseSeed } from '../../src/domain/seed.ts';

const cluster = { id: 'c1', cluster_name: 'c1', cluster_dns: 'c1.example.com', environment: 'dev' };

describe('record validation', () => {
  it('fills defaults and orders keys canonically', () => {
    const result = validateRecord('clusters', {
      environment: 'qa',
      cluster_dns: 'a.b',
      cluster_name: 'n',
      id: 'x',
      platform_components: [{ enabled: true, id: 'p' }],
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.keys(result.record)).toEqual([
      'id',
      'cluster_name',
      'cluster_dns',
      'environment',
      'credential_generation',
      'receiver_url',
      'platform_components',
      'namespaces',
      'rolebindings',
      'patches',
    ]);
    expect(result.record.platform_components).toEqual([
      { id: 'p', enabled: true, oci_tag: null, component_path: null },
    ]);
  });

  it('rejects unknown fields by name', () => {
    const result = validateRecord('clusters', { ...cluster, enviroment: 'dev' });
    expect(result).toEqual({
      ok: false,
      problems: [
        {
          code: 'unknown_field',
          severity: 'error',
          at: { field: '/enviroment' },
          message: 'unknown field "enviroment"',
        },
      ],
    });
  });

  it('rejects a bad environment, naming the allowed values', () => {
    const result = validateRecord('clusters', { ...cluster, environment: 'production' });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.problems).toEqual([
        {
          code: 'invalid_value',
          severity: 'error',
          at: { field: '/environment' },
          message: 'must be one of: dev, qa, uat, prod',
        },
      ]);
  });

  it.each(['../x', 'a/b', '-a', 'a-', '', 'a b', 'x'.repeat(251)])('rejects the unsafe id %j', (id) => {
    expect(validateRecord('rolebindings', { id, role: 'view', subjects: [] }).ok).toBe(false);
  });

  it.each(['a', 'A.b_c-9', 'x'.repeat(250)])('accepts the id %j', (id) => {
    expect(validateRecord('rolebindings', { id, role: 'view', subjects: [] }).ok).toBe(true);
  });

  it('requires namespace ids to be DNS-1123 labels', () => {
    expect(validateRecord('namespaces', { id: 'Team_A' }).ok).toBe(false);
    expect(validateRecord('namespaces', { id: 'x'.repeat(64) }).ok).toBe(false);
    expect(validateRecord('namespaces', { id: 'team-a' }).ok).toBe(true);
  });

  it('requires cluster_dns to be a hostname', () => {
    expect(validateRecord('clusters', { ...cluster, cluster_dns: 'not a host' }).ok).toBe(false);
    expect(validateRecord('clusters', { ...cluster, cluster_dns: 'a..b' }).ok).toBe(false);
  });

  it('requires patch values to be strings and says how to fix a YAML number', () => {
    const result = validateRecord('clusters', { ...cluster, patches: { podinfo: { replicaCount: 3 } } });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problems).toEqual([
        {
          code: 'wrong_type',
          severity: 'error',
          at: { field: '/patches/podinfo/replicaCount' },
          message: 'must be a string (quote it: "3")',
        },
      ]);
    }
  });

  it('reports every problem at once', () => {
    const result = validateRecord('platform_components', { id: 'p', extra: 1 });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems.length).toBeGreaterThanOrEqual(5);
  });

  it('does not modify its input', () => {
    const input = { ...cluster };
    validateRecord('clusters', input);
    expect(input).toEqual(cluster);
  });
});

describe('record files', () => {
  it('takes the id from the file name when it is left out', () => {
    const parsed = parseRecordFile('namespaces/team-a.yaml', 'labels: {team: a}\n');
    expect(parsed?.record).toEqual({ id: 'team-a', labels: { team: 'a' }, annotations: {} });
  });

  it('refuses an id that differs from the file name', () => {
    const parsed = parseRecordFile('namespaces/team-a.yml', 'id: team-b\n');
    expect(parsed?.problems[0]?.message).toBe(
      'id "team-b" does not match the file name; it must be "team-a" (or be left out)',
    );
    expect(parsed?.problems[0]).toMatchObject({
      code: 'id_mismatch',
      at: { record: { collection: 'namespaces', id: 'team-a' }, field: '/id' },
    });
  });

  it('reports YAML syntax errors with their line and column', () => {
    const parsed = parseRecordFile('clusters/c.yaml', 'cluster_name: c\ncluster_dns: [unclosed\n');
    expect(parsed?.problems[0]).toMatchObject({ code: 'yaml_syntax', at: { file: 'clusters/c.yaml', line: 3 } });
    expect(parsed?.problems[0]?.message).toMatch(/^YAML syntax error/);
  });

  it('refuses empty files and non-mappings', () => {
    expect(parseRecordFile('clusters/c.yaml', '# nothing\n')?.problems[0]?.message).toContain('empty');
    expect(parseRecordFile('clusters/c.yaml', '- a\n')?.problems[0]?.message).toContain('mapping');
  });

  it('ignores files outside the layout', () => {
    expect(parseRecordFile('README.md', '# hi')).toBeUndefined();
    expect(parseRecordFile('.github/workflows/ci.yaml', 'on: push')).toBeUndefined();
  });
});

describe('seed file', () => {
  it('loads the reference seed as it is (with _id keys)', () => {
    const seed = parseSeed(JSON.parse(readFileSync('test/fixtures/reference-seed.json', 'utf8')));
    expect(seed.ok).toBe(true);
    if (!seed.ok) return;
    expect(seed.records.clusters.map((c) => c.id)).toEqual(['demo-cluster-01']);
    expect(seed.records.platform_components.map((c) => c.id)).toEqual(['cert-manager', 'traefik', 'podinfo']);
  });

  it('accepts id as well as _id, and refuses the two disagreeing', () => {
    expect(parseSeed({ namespaces: [{ id: 'a' }, { _id: 'b' }] }).ok).toBe(true);
    const bad = parseSeed({ namespaces: [{ id: 'a', _id: 'b' }] });
    expect(bad.ok).toBe(false);
  });

  it('names the record that is wrong', () => {
    const bad = parseSeed({ clusters: [{ _id: 'c', cluster_name: 'c', cluster_dns: 'c.x', environment: 'staging' }] });
    expect(bad).toEqual({
      ok: false,
      problems: [
        {
          code: 'invalid_value',
          severity: 'error',
          at: { field: '/clusters/0/environment' },
          message: 'must be one of: dev, qa, uat, prod',
        },
      ],
    });
  });
});
