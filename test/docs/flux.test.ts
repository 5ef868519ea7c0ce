// docs/flux/ must be something a user can apply as it is: every file listed, no placeholder
// Secret, providers pointed at endpoints the service really has, ResourceSets applying as a
// ServiceAccount the folder defines, and facts about the consumer stated as they are.
import { readdirSync, readFileSync } from 'node:fs';
import { loadAll } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { durationMs } from '../../src/shared/duration.ts';
import { request } from '../helpers/http.ts';
import { READ_TOKEN, startTestService, type TestService } from '../helpers/service.ts';

const FOLDER = new URL('../../docs/flux/', import.meta.url);
type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string> };
  spec?: any;
  subjects?: any[];
  roleRef?: any;
  rules?: any[];
};

const files = readdirSync(FOLDER).filter((name) => name.endsWith('.yaml'));
const manifests = new Map<string, Manifest[]>(
  files.map((name) => [name, loadAll(readFileSync(new URL(name, FOLDER), 'utf8')).filter(Boolean) as Manifest[]]),
);
const all = [...manifests.entries()].filter(([name]) => name !== 'kustomization.yaml').flatMap(([, docs]) => docs);
const ofKind = (kind: string) => all.filter((m) => m.kind === kind);

let service: TestService;
beforeAll(async () => {
  service = await startTestService({
    STORE_BACKEND: 'git',
    CONFIG_REPO: new URL('../../config-repo-example', import.meta.url).pathname,
  });
});
afterAll(() => service?.close());

describe('docs/flux', () => {
  it('lists every manifest in its kustomization, and no Secret anywhere', () => {
    const [kustomization] = manifests.get('kustomization.yaml')! as unknown as { resources: string[] }[];
    expect([...kustomization.resources].sort()).toEqual(files.filter((f) => f !== 'kustomization.yaml').sort());
    expect(ofKind('Secret')).toEqual([]);
  });

  it(
    'points each provider at a read endpoint that answers ' + 'for the example cluster, with a limit above its list',
    async () => {
      const providers = ofKind('ResourceSetInputProvider');
      expect(providers.map((p) => p.spec.url.split('/').pop()).sort()).toEqual([
        'namespaces',
        'platform-components',
        'rolebindings',
      ]);
      for (const provider of providers) {
        expect(provider.spec.type).toBe('ExternalService');
        expect(provider.spec.secretRef.name).toBe('gitops-config-token');
        const path = new URL(provider.spec.url).pathname;
        const res = await request(service.url, path, { token: READ_TOKEN });
        expect(res.status, path).toBe(200);
        expect(res.json().inputs.length).toBeLessThanOrEqual(provider.spec.filter.limit);
        const every = provider.metadata.annotations?.['fluxcd.controlplane.io/reconcileEvery'];
        expect(durationMs(every ?? '10m')).toBe(600_000);
      }
    },
  );

  it('has every ResourceSet apply as a ServiceAccount the folder defines and binds to a role', () => {
    const accounts = ofKind('ServiceAccount').map((sa) => `${sa.metadata.namespace}/${sa.metadata.name}`);
    const bound = ofKind('ClusterRoleBinding').flatMap((b) => b.subjects!.map((s) => `${s.namespace}/${s.name}`));
    const resourceSets = ofKind('ResourceSet');
    expect(resourceSets).toHaveLength(3);
    for (const set of resourceSets) {
      const account = `${set.metadata.namespace}/${set.spec.serviceAccountName}`;
      expect(accounts, set.metadata.name).toContain(account);
      expect(bound, set.metadata.name).toContain(account);
      for (const input of set.spec.inputsFrom) {
        expect(ofKind('ResourceSetInputProvider').map((p) => p.metadata.name)).toContain(input.name);
      }
    }
  });

  it('lets the account bind every ClusterRole the example rolebindings name', () => {
    const roles = new Set(
      readdirSync(new URL('../../config-repo-example/rolebindings/', import.meta.url)).map(
        (name) =>
          /^role:\s*(\S+)/m.exec(
            readFileSync(new URL(`../../config-repo-example/rolebindings/${name}`, import.meta.url), 'utf8'),
          )![1],
      ),
    );
    const bindRule = ofKind('ClusterRole')
      .flatMap((r) => r.rules!)
      .find((rule) => rule.verbs.includes('bind'));
    for (const role of roles) expect(bindRule.resourceNames).toContain(role);
  });

  it('states the consumer facts: the minimum operator version and the default poll interval', () => {
    const readme = readFileSync(new URL('README.md', FOLDER), 'utf8');
    const root = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const text of [readme, root]) {
      expect(text).toContain('v0.43.0');
      expect(text).toMatch(/10 minutes/);
      expect(text).not.toMatch(/\b5 ?m(in(ute)?s?)?\b.*poll|poll.*\b5 ?m(in(ute)?s?)?\b/i);
    }
  });
});
