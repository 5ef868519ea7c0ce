// The Kubernetes manifests (deploy/kubernetes) and the Grafana dashboard (deploy/grafana) hold
// what docs/decisions/0012-operations.md asks of a deployment: probes on /health and /ready, a numeric
// non-root user equal to the image's USER, a read-only root filesystem with emptyDirs for the
// clone and /tmp, requests and limits, tokens only from Secrets the user creates, the
// environment the service really reads; every kustomization lists exactly the files beside it;
// the dashboard queries only the service's own series. With kubectl or kustomize on the
// machine (one that builds components: kustomize 3.7 or later), the kustomizations are built
// too: the base alone, with every component, and the example.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

const ROOT = join(import.meta.dirname, '../..');
const KUBE = join(ROOT, 'deploy', 'kubernetes');
const BASE = join(KUBE, 'base');

type Manifest = Record<string, any>;

function documentsOf(text: string): Manifest[] {
  return parseAllDocuments(text)
    .map((document) => {
      expect(document.errors).toEqual([]);
      return document.toJS() as Manifest;
    })
    .filter((document) => document !== null);
}

const load = (file: string) => documentsOf(readFileSync(file, 'utf8'));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile());
}

const yamlFiles = filesUnder(KUBE).filter((file) => file.endsWith('.yaml'));
const kustomizationDirs = yamlFiles.filter((file) => file.endsWith('/kustomization.yaml')).map(dirname);

const baseManifests = load(join(BASE, 'deployment.yaml'))
  .concat(load(join(BASE, 'service.yaml')))
  .concat(load(join(BASE, 'peers-service.yaml')))
  .concat(load(join(BASE, 'poddisruptionbudget.yaml')));
const deployment = baseManifests.find((m) => m.kind === 'Deployment')!;
const service = baseManifests.find((m) => m.kind === 'Service' && m.metadata.name === 'gitops-config-api')!;
const peersService = baseManifests.find((m) => m.kind === 'Service' && m.metadata.name === 'gitops-config-api-peers')!;
const pod = deployment.spec.template.spec;
const container = pod.containers[0];

/** The image's USER line: uid and gid. */
function dockerfileUser(): { uid: number; gid: number } {
  const match = /^USER (\d+):(\d+)\s*$/m.exec(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
  expect(match, 'the Dockerfile has a numeric USER uid:gid').not.toBeNull();
  return { uid: Number(match![1]), gid: Number(match![2]) };
}

function envOf(c: Manifest): Map<string, Manifest> {
  return new Map((c.env as Manifest[]).map((entry) => [entry.name, entry]));
}

/** A Kubernetes memory quantity (256Mi, 1Gi, 1G) in MiB. */
function mebibytes(quantity: string): number {
  const match = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|K|M|G)?$/.exec(quantity);
  if (!match) throw new Error(`not a memory quantity: ${quantity}`);
  const unit =
    { Ki: 1 / 1024, Mi: 1, Gi: 1024, K: 1000 / 1048576, M: 1e6 / 1048576, G: 1e9 / 1048576 }[match[2] ?? ''] ??
    1 / 1048576;
  return Number(match[1]) * unit;
}

/** Checks what every gitops-config-api Deployment of any build must hold. */
function expectConventions(d: Manifest): void {
  const spec = d.spec.template.spec;
  const c = spec.containers[0];
  const { uid, gid } = dockerfileUser();
  expect(spec.securityContext).toMatchObject({
    runAsNonRoot: true,
    runAsUser: uid,
    runAsGroup: gid,
    fsGroup: gid,
    seccompProfile: { type: 'RuntimeDefault' },
  });
  expect(c.securityContext).toMatchObject({
    allowPrivilegeEscalation: false,
    readOnlyRootFilesystem: true,
    capabilities: { drop: ['ALL'] },
  });
  for (const kind of ['requests', 'limits']) {
    expect(c.resources[kind].cpu, `${kind}.cpu`).toBeDefined();
    expect(c.resources[kind].memory, `${kind}.memory`).toBeDefined();
  }
  // Node sizes its heap by the node's memory, not the container's: the limit is set to fit,
  // with room outside the heap (Buffers, code, the record file thread).
  const heap = /--max-old-space-size=(\d+)/.exec(envOf(c).get('NODE_OPTIONS')?.value ?? '')?.[1];
  expect(heap, 'NODE_OPTIONS --max-old-space-size').toBeDefined();
  const limitMiB = mebibytes(c.resources.limits.memory);
  expect(Number(heap)).toBeGreaterThanOrEqual(0.5 * limitMiB);
  expect(Number(heap)).toBeLessThanOrEqual(0.7 * limitMiB);
  for (const [name, entry] of envOf(c)) {
    if (!/TOKEN|SECRET|PASSWORD/.test(name)) continue;
    // A credential comes from a Secret the user made, never from a value in a manifest.
    expect(entry.value, name).toBeUndefined();
    expect(entry.valueFrom?.secretKeyRef, name).toMatchObject({ name: expect.any(String), key: expect.any(String) });
  }
  expect(envOf(c).get('AUTH_TOKEN')?.valueFrom?.secretKeyRef?.optional).not.toBe(true);
  // The clone and /tmp are written to: each under an emptyDir, the root filesystem read-only.
  const emptyDirs = new Set((spec.volumes as Manifest[]).filter((v) => v.emptyDir !== undefined).map((v) => v.name));
  const writable = (c.volumeMounts as Manifest[])
    .filter((m) => emptyDirs.has(m.name))
    .map((m) => m.mountPath as string);
  const cloneDir = envOf(c).get('CONFIG_CLONE_DIR')?.value as string;
  expect(cloneDir).toMatch(/^\//);
  for (const path of [cloneDir, '/tmp']) {
    expect(
      writable.some((mount) => path === mount || path.startsWith(`${mount}/`)),
      `${path} is on an emptyDir`,
    ).toBe(true);
  }
}

describe('kustomizations', () => {
  it('are found: the base, the components, the example overlay', () => {
    expect(kustomizationDirs.map((dir) => relative(KUBE, dir)).sort()).toEqual([
      'base',
      'components/client-certificates',
      'components/prometheusrule',
      'components/servicemonitor',
      'components/tls',
      'overlays/example',
      'overlays/example/crud-writer',
    ]);
  });

  it.each(kustomizationDirs.map((dir) => [relative(KUBE, dir), dir]))(
    '%s lists exactly the files beside it',
    (_name, dir) => {
      const [kustomization] = load(join(dir, 'kustomization.yaml'));
      const references: string[] = [
        ...(kustomization.resources ?? []),
        ...(kustomization.components ?? []),
        ...(kustomization.patches ?? []).map((patch: Manifest) => patch.path).filter(Boolean),
      ];
      const listedFiles = new Set<string>();
      for (const reference of references) {
        const target = join(dir, reference);
        expect(existsSync(target), `${reference} exists`).toBe(true);
        if (statSync(target).isDirectory())
          expect(existsSync(join(target, 'kustomization.yaml')), `${reference} is a kustomization`).toBe(true);
        else listedFiles.add(reference);
      }
      const present = readdirSync(dir).filter((name) => name.endsWith('.yaml') && name !== 'kustomization.yaml');
      expect([...listedFiles].sort()).toEqual(present.sort());
    },
  );

  it('hold no Secret: every Secret is created by the user', () => {
    for (const file of yamlFiles) {
      for (const manifest of load(file)) expect(manifest.kind, relative(ROOT, file)).not.toBe('Secret');
    }
  });
});

describe('the base', () => {
  it('is the Deployment, its Service, the headless Service of the peers and its PodDisruptionBudget', () => {
    expect(baseManifests.map((m) => m.kind).sort()).toEqual([
      'Deployment',
      'PodDisruptionBudget',
      'Service',
      'Service',
    ]);
  });

  it(
    'lets the replicas find each other: PEERS names a headless Service of every ready pod, PEER_TOKEN comes from ' +
      "the user's Secret",
    () => {
      const env = envOf(container);
      expect(env.get('PEERS')?.value).toBe(peersService.metadata.name);
      expect(env.get('PEER_TOKEN')?.valueFrom?.secretKeyRef).toEqual({ name: 'gitops-config-api', key: 'peer-token' });
      expect(peersService.spec).toMatchObject({ clusterIP: 'None', publishNotReadyAddresses: false });
      // Every pod of the service, readers and writers alike; none of anything else.
      expect(peersService.spec.selector).toEqual({ 'app.kubernetes.io/name': 'gitops-config-api' });
      expect(deployment.spec.template.metadata.labels).toMatchObject(peersService.spec.selector);
      expect(container.ports.map((p: Manifest) => p.name)).toContain(peersService.spec.ports[0].targetPort);
      // Not scraped a second time through it by the ServiceMonitor, which selects by app.kubernetes.io/name.
      const [monitor] = load(join(KUBE, 'components', 'servicemonitor', 'servicemonitor.yaml'));
      expect(peersService.metadata.labels).not.toMatchObject(monitor.spec.selector.matchLabels);
      // A cluster keeps its replica while it can.
      expect(service.spec.sessionAffinity).toBe('ClientIP');
    },
  );

  it(
    'runs as the image user, non-root, read-only, without privileges, with requests and limits, tokens from ' +
      'Secrets, the clone on an emptyDir',
    () => {
      expectConventions(deployment);
    },
  );

  it('probes /health for liveness and start-up and /ready for readiness, on the container port', () => {
    const port = container.ports[0].name;
    expect(container.livenessProbe.httpGet).toEqual({ path: '/health', port });
    expect(container.startupProbe.httpGet).toEqual({ path: '/health', port });
    expect(container.readinessProbe.httpGet).toEqual({ path: '/ready', port });
  });

  it('configures the remote Git backend with variables the service reads', () => {
    const env = envOf(container);
    expect(env.get('STORE_BACKEND')?.value).toBe('git');
    expect(env.get('CONFIG_REPO')?.value).toMatch(/^https:\/\//);
    // Read by src/config.ts or by the settings of the part they concern (a backend's folder, rollouts, receivers).
    const sources = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.ts'))
      .map((path) => readFileSync(join(ROOT, 'src', path), 'utf8'))
      .join('\n');
    // NODE_OPTIONS is Node's own (the heap's limit), not the service's.
    for (const name of env.keys())
      if (name !== 'NODE_OPTIONS') expect(sources, `src/ reads ${name}`).toMatch(new RegExp(`\\b${name}\\b`));
    for (const name of ['GIT_TOKEN', 'WEBHOOK_SECRET', 'CLUSTER_TOKEN_KEYS'])
      expect(env.get(name)?.valueFrom?.secretKeyRef?.optional).toBe(true);
  });

  it('has a Service that selects the pods on the container port', () => {
    expect(deployment.spec.template.metadata.labels).toMatchObject(service.spec.selector);
    expect(deployment.spec.selector.matchLabels).toEqual(service.spec.selector);
    expect(container.ports.map((p: Manifest) => p.name)).toContain(service.spec.ports[0].targetPort);
  });

  it('the ServiceMonitor component scrapes /metrics on the Service port', () => {
    const [monitor] = load(join(KUBE, 'components', 'servicemonitor', 'servicemonitor.yaml'));
    expect(monitor.spec.endpoints[0]).toMatchObject({ port: service.spec.ports[0].name, path: '/metrics' });
    expect(service.metadata.labels).toMatchObject(monitor.spec.selector.matchLabels);
  });

  it('the Dockerfile runs as the same numeric user and probes with the health probe', () => {
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    const { uid, gid } = dockerfileUser();
    expect(dockerfile).toContain(`chown -R ${uid}:${gid} /app/data`);
    expect(dockerfile).toMatch(/HEALTHCHECK[^\n]*\\\n\s+CMD \["node", "src\/health-probe\.ts"/);
  });

  it('the Dockerfile builds the web UI in a stage of its own and copies only the built files', () => {
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^FROM \S+ AS ui$[\s\S]*^COPY ui \.\/ui$[\s\S]*^RUN npx vite build ui$/m);
    // Where the service looks for it (src/http/web-ui/ui-files.ts: dist/ui/ beside package.json in /app).
    expect(dockerfile).toMatch(/^COPY --from=ui \/app\/dist\/ui \.\/dist\/ui$/m);
    expect(dockerfile).toMatch(/^COPY package\.json \.\/$/m);
  });
});

/**
 * kustomize build, with whichever of the two is installed and builds components; otherwise
 * why not (Debian's kubectl 1.20 carries kustomize 2, which knows no components).
 */
function kustomizeCommand(): { command: string[] } | { skipped: string } {
  const candidates = [
    ['kustomize', 'build'],
    ['kubectl', 'kustomize'],
  ].filter(([name]) => spawnSync(name, ['--help'], { encoding: 'utf8' }).status === 0);
  if (candidates.length === 0) return { skipped: 'neither kustomize nor kubectl is installed here' };
  const probe = mkdtempSync(join(tmpdir(), 'kustomize-probe-'));
  writeFileSync(join(probe, 'kustomization.yaml'), 'components:\n  - component\n');
  mkdirSync(join(probe, 'component'));
  writeFileSync(
    join(probe, 'component', 'kustomization.yaml'),
    'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources:\n  - map.yaml\n',
  );
  writeFileSync(join(probe, 'component', 'map.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: probe\n');
  const command = candidates.find(
    ([name, verb]) => spawnSync(name, [verb, probe], { encoding: 'utf8', timeout: 30_000 }).status === 0,
  );
  return command
    ? { command }
    : { skipped: `the installed ${candidates.map(([name]) => name).join(' and ')} cannot build kustomize components` };
}
const found = kustomizeCommand();
const kustomize = 'command' in found ? found.command : undefined;

function build(dir: string): Manifest[] {
  const [command, ...args] = kustomize!;
  const result = spawnSync(command, [...args, dir], { encoding: 'utf8', timeout: 30_000 });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return documentsOf(result.stdout);
}

// Skipped on a machine with neither kubectl nor kustomize: the checks above still read every
// manifest, but only kustomize itself can say that patches and components apply.
describe.skipIf(kustomize === undefined)(
  `kustomize build${'skipped' in found ? ` (skipped: ${found.skipped})` : ''}`,
  () => {
    it('builds the base', () => {
      const built = build(BASE);
      expect(built.map((m) => m.kind).sort()).toEqual(['Deployment', 'PodDisruptionBudget', 'Service', 'Service']);
      expectConventions(built.find((m) => m.kind === 'Deployment')!);
    });

    it(
      'builds the example: read replicas and two crud writers on the same repository, all peers of each other, a ' +
        'ServiceMonitor, the alert rules, no Secret',
      () => {
        const built = build(join(KUBE, 'overlays', 'example'));
        expect(built.map((m) => `${m.kind}/${m.metadata.name}`).sort()).toEqual([
          'Deployment/gitops-config-api',
          'Deployment/gitops-config-api-writer',
          'PodDisruptionBudget/gitops-config-api',
          'PodDisruptionBudget/gitops-config-api-writer',
          'PrometheusRule/gitops-config-api',
          'Service/gitops-config-api',
          'Service/gitops-config-api-peers',
          'Service/gitops-config-api-writer',
          'ServiceMonitor/gitops-config-api',
        ]);
        const readers = built.find((m) => m.kind === 'Deployment' && m.metadata.name === 'gitops-config-api')!;
        const writer = built.find((m) => m.kind === 'Deployment' && m.metadata.name === 'gitops-config-api-writer')!;
        for (const d of [readers, writer]) expectConventions(d);
        const readerEnv = envOf(readers.spec.template.spec.containers[0]);
        const writerEnv = envOf(writer.spec.template.spec.containers[0]);
        expect(readers.spec.replicas).toBeGreaterThan(1);
        expect(readerEnv.get('API_MODE')?.value).toBe('read-only');
        expect(writer.spec.replicas).toBe(2);
        expect(writerEnv.get('API_MODE')?.value).toBe('crud');
        // One headless Service for all: the writers announce their writes to the readers, and the readers to them.
        const peers = built.find((m) => m.kind === 'Service' && m.metadata.name === 'gitops-config-api-peers')!;
        for (const d of [readers, writer]) {
          expect(envOf(d.spec.template.spec.containers[0]).get('PEERS')?.value).toBe('gitops-config-api-peers');
          expect(d.spec.template.metadata.labels).toMatchObject(peers.spec.selector);
        }
        expect(writerEnv.get('CRUD_AUTH_TOKEN')?.valueFrom?.secretKeyRef).toMatchObject({
          name: 'gitops-config-api-writer',
          key: 'crud-auth-token',
        });
        expect(writerEnv.get('GIT_TOKEN')?.valueFrom?.secretKeyRef).toMatchObject({
          name: 'gitops-config-api-writer',
          key: 'git-token',
        });
        expect(readerEnv.get('CONFIG_REPO')?.value).toBe('https://github.com/acme/fleet-config.git');
        expect(writerEnv.get('CONFIG_REPO')?.value).toBe(readerEnv.get('CONFIG_REPO')?.value);
        // Each Service selects its own pods only.
        const writerService = built.find(
          (m) => m.kind === 'Service' && m.metadata.name === 'gitops-config-api-writer',
        )!;
        expect(writerService.spec.selector).toEqual(writer.spec.selector.matchLabels);
        expect(writer.spec.selector.matchLabels).not.toEqual(readers.spec.selector.matchLabels);
      },
    );

    it('builds the base with HTTPS, client certificates, the ServiceMonitor and the alert rules', () => {
      const dir = mkdtempSync(join(tmpdir(), 'kustomize-'));
      const components = ['servicemonitor', 'prometheusrule', 'tls', 'client-certificates'].map(
        (name) => `  - ${relative(dir, join(KUBE, 'components', name))}`,
      );
      writeFileSync(
        join(dir, 'kustomization.yaml'),
        `resources:\n  - ${relative(dir, BASE)}\ncomponents:\n${components.join('\n')}\n`,
      );
      const built = build(dir);
      const d = built.find((m) => m.kind === 'Deployment')!;
      expectConventions(d);
      const c = d.spec.template.spec.containers[0];
      const env = envOf(c);
      const mount = (c.volumeMounts as Manifest[]).find((m) => m.name === 'tls')!;
      for (const name of ['TLS_CERT_FILE', 'TLS_KEY_FILE', 'TLS_CLIENT_CA_FILE'])
        expect(dirname(env.get(name)?.value)).toBe(mount.mountPath);
      expect(mount.subPath).toBeUndefined();
      expect(d.spec.template.spec.volumes.find((v: Manifest) => v.name === 'tls').secret.secretName).toBe(
        'gitops-config-api-tls',
      );
      // The kubelet cannot present a client certificate: the probes run the image's probe.
      expect(c.readinessProbe).toMatchObject({ exec: { command: ['node', 'src/health-probe.ts', '/ready'] } });
      expect(c.livenessProbe).toMatchObject({ exec: { command: ['node', 'src/health-probe.ts', '/health'] } });
      expect(c.livenessProbe.httpGet).toBeUndefined();
      const svc = built.find((m) => m.kind === 'Service')!;
      const monitor = built.find((m) => m.kind === 'ServiceMonitor')!;
      expect(svc.spec.ports[0]).toMatchObject({ name: 'https', port: 443 });
      expect(monitor.spec.endpoints[0]).toMatchObject({ port: 'https', scheme: 'https' });
      // The rules as the plain rule file has them.
      expect(built.map((m) => m.kind).sort()).toEqual([
        'Deployment',
        'PodDisruptionBudget',
        'PrometheusRule',
        'Service',
        'Service',
        'ServiceMonitor',
      ]);
      const [rules] = load(join(ROOT, 'deploy', 'prometheus', 'gitops-config-api.rules.yaml'));
      expect(built.find((m) => m.kind === 'PrometheusRule')!.spec.groups).toEqual(rules.groups);
    });
  },
);

describe('Grafana dashboard', () => {
  // docs/decisions/0012-operations.md; the histogram is queried through its _bucket, _sum and _count series.
  const SERIES = [
    'gitops_config_http_requests_total',
    'gitops_config_revision_info',
    'gitops_config_reloads_total',
    'gitops_config_last_publish_timestamp_seconds',
    'gitops_config_clusters',
    'gitops_config_fleet_clusters',
    'gitops_config_writes_total',
    // The replicas' coordination (PEERS).
    'gitops_config_peer_errors_total',
    'gitops_config_peers',
    // What the alert rules read (deploy/prometheus/).
    'gitops_config_stale_since_timestamp_seconds',
    'gitops_config_refused_revision_info',
    'gitops_config_last_successful_sync_timestamp_seconds',
    'gitops_config_sync_interval_seconds',
    'gitops_config_write_failures_total',
    'gitops_config_fleet_merged_clusters',
    'gitops_config_fleet_silent_clusters',
    'gitops_config_answers_near_size_limit',
    'gitops_config_answers_over_input_limit',
    'gitops_config_fleet_list_bytes',
    'gitops_config_response_limit_bytes',
    // The rollouts row.
    'gitops_config_rollout_state',
    'gitops_config_rollout_released_steps',
    'gitops_config_rollout_steps',
    'gitops_config_rollout_clusters',
    'gitops_config_rollout_approval_waiting_since_timestamp_seconds',
    ...['', '_bucket', '_sum', '_count'].map((suffix) => `gitops_config_http_request_duration_seconds${suffix}`),
  ];
  const PROMQL_WORDS = new Set([
    'sum',
    'max',
    'min',
    'avg',
    'count',
    'rate',
    'increase',
    'histogram_quantile',
    'time',
    'label_values',
  ]);

  /** The metric names a PromQL expression (or a label_values query) reads. */
  function metricNames(expr: string): string[] {
    const labelValues = /^label_values\(\s*([^,]+),/.exec(expr);
    const stripped = (labelValues ? labelValues[1] : expr)
      .replace(/"(?:[^"\\]|\\.)*"/g, '')
      .replace(/\{[^}]*\}/g, '')
      .replace(/\[[^\]]*\]/g, '')
      .replace(/\b(?:by|without)\s*\([^)]*\)/g, '')
      .replace(/\$\w+/g, '');
    return [...stripped.matchAll(/[A-Za-z_:][\w:]*/g)].map((m) => m[0]).filter((word) => !PROMQL_WORDS.has(word));
  }

  const files = filesUnder(join(ROOT, 'deploy', 'grafana')).filter((file) => file.endsWith('.json'));

  it.each(files.map((file) => [relative(ROOT, file), file]))(
    '%s parses and queries only the service series',
    (_name, file) => {
      const dashboard = JSON.parse(readFileSync(file, 'utf8'));
      expect(dashboard.uid).toMatch(/^[\w-]{1,40}$/);
      const queries: string[] = [];
      for (const panel of dashboard.panels) {
        for (const target of panel.targets ?? []) queries.push(target.expr);
      }
      for (const variable of dashboard.templating.list) {
        if (variable.type === 'query')
          queries.push(typeof variable.query === 'string' ? variable.query : variable.query.query);
      }
      expect(queries.length).toBeGreaterThan(10);
      const used = new Set<string>();
      for (const query of queries) {
        const names = metricNames(query);
        expect(names.length, query).toBeGreaterThan(0);
        for (const name of names) {
          expect(SERIES, `${name} in ${query}`).toContain(name);
          used.add(name.replace(/_(bucket|sum|count)$/, ''));
        }
      }
      // Every series docs/decisions/0012-operations.md names has a panel.
      expect([...used].sort()).toEqual(SERIES.filter((s) => !/_(bucket|sum|count)$/.test(s)).sort());
      const ids = dashboard.panels.map((panel: Manifest) => panel.id);
      expect(new Set(ids).size).toBe(ids.length);
    },
  );
});
