// docs/flux/notifications/: the Alert and Provider that report events back, and the Receiver
// that makes a cluster poll now, as Kubernetes objects of the kinds and API versions Flux serves.
// Facts from Flux's sources: Provider and Alert are notification.toolkit.fluxcd.io/v1beta3 (Alert
// with eventSources and the eventMetadata map, docs of API v1beta3); a generic-hmac Provider
// signs with its Secret's `token`, a generic-hmac Receiver checks `X-Signature` with its Secret's
// `token` (internal/server/receiver_handlers.go); Receiver is notification.toolkit.fluxcd.io/v1
// and its spec.resources[].kind is an enum that, as of api/v1/reference_types.go in API v1.8,
// does not list ResourceSetInputProvider — so receiver.yaml stays out of the kustomization.
import { readdirSync, readFileSync } from 'node:fs';
import { loadAll } from 'js-yaml';
import { describe, expect, it } from 'vitest';

const FOLDER = new URL('../../docs/flux/notifications/', import.meta.url);
type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  spec?: any;
  resources?: string[];
};
const load = (name: string, folder = FOLDER) =>
  loadAll(readFileSync(new URL(name, folder), 'utf8')).filter(Boolean) as Manifest[];
const files = readdirSync(FOLDER).filter((f) => f.endsWith('.yaml'));
const all = files.flatMap((f) => load(f).map((m) => ({ file: f, ...m })));
const one = (kind: string) => {
  const found = all.filter((m) => m.kind === kind);
  expect(found, kind).toHaveLength(1);
  return found[0];
};

describe('docs/flux/notifications', () => {
  it('holds Kubernetes objects of the named kinds and API versions, and no Secret', () => {
    const kinds = Object.fromEntries(all.filter((m) => m.kind !== 'Kustomization').map((m) => [m.kind, m.apiVersion]));
    expect(kinds).toEqual({
      Provider: 'notification.toolkit.fluxcd.io/v1beta3',
      Alert: 'notification.toolkit.fluxcd.io/v1beta3',
      Receiver: 'notification.toolkit.fluxcd.io/v1',
    });
    for (const m of all.filter((x) => x.kind !== 'Kustomization')) {
      expect(m.metadata.name, m.kind).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
      expect(m.metadata.namespace, m.kind).toBe('flux-system');
    }
  });

  it("the Provider signs as generic-hmac and posts to the service's events endpoint", () => {
    const provider = one('Provider');
    expect(provider.spec.type).toBe('generic-hmac');
    expect(new URL(provider.spec.address).pathname).toBe('/api/v2/gitops/events');
    expect(provider.spec.secretRef.name).toBeTruthy();
  });

  it('the Alert watches the HelmReleases the platform-components ResourceSet makes, and names the cluster', () => {
    const alert = one('Alert');
    const set = load('resourceset-platform-components.yaml', new URL('../', FOLDER))[0];
    const releaseNamespace = /kind: HelmRelease\s+metadata:\s+name: [^\n]+\n\s+namespace: (\S+)/.exec(
      set.spec.resourcesTemplate,
    )?.[1];
    expect(alert.spec.providerRef.name).toBe(one('Provider').metadata.name);
    expect(alert.spec.eventSources).toEqual([{ kind: 'HelmRelease', name: '*', namespace: releaseNamespace }]);
    expect(alert.spec.eventSeverity).toBe('info');
    expect(alert.spec.eventMetadata.cluster).toBe('dev-eu-1');
  });

  it(
    "the Receiver is generic-hmac and targets the cluster's " + 'three input providers; it is not applied by default',
    () => {
      const receiver = one('Receiver');
      expect(receiver.spec.type).toBe('generic-hmac');
      expect(receiver.spec.secretRef.name).toBeTruthy();
      const providers = load('input-providers.yaml', new URL('../', FOLDER)).map((p) => ({
        apiVersion: p.apiVersion,
        kind: p.kind,
        name: p.metadata.name,
      }));
      expect(receiver.spec.resources).toEqual(providers);
      const [kustomization] = load('kustomization.yaml');
      expect(kustomization.resources).toEqual(['alert.yaml']);
    },
  );
});
