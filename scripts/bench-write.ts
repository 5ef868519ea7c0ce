// Write latency of crud mode on the git backend: generates a config repo of 10,000 clusters
// (scripts/generate-repo.ts) in a temp directory, starts the real service in crud mode on
// it, and times sequential REST writes, each one a commit. Usage:
//   npm run bench:write -- [clusters=10000] [writes=200]
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { crudFleetDir, startCrudFleet } from './bench/crud-fleet.ts';
import { clusterPatch, latencyLine, timedWrite } from './bench/rest-write.ts';

const [clustersArg = '10000', writesArg = '200'] = process.argv.slice(2);
const CLUSTERS = Number(clustersArg);
const WRITES = Number(writesArg);
const TOKEN = 'bench-write-token';

const timed = (url: string, method: string, body?: unknown, contentType?: string) =>
  timedWrite(url, method, TOKEN, body, contentType);
const report = (name: string, ms: number[]) => console.log(latencyLine(name, ms));

const dir = crudFleetDir('bench-write-');
try {
  const { service } = await startCrudFleet(dir, CLUSTERS, TOKEN);
  console.log();
  const commitsBefore = Number(execFileSync('git', ['rev-list', '--count', 'HEAD'], { cwd: dir, encoding: 'utf8' }));

  const cluster = (i: number) => `cluster-${String(i).padStart(5, '0')}`;
  const clusterUrl = (i: number) => `${service.url}/clusters/${cluster(i)}`;
  let writes = 0;
  // Warm-up: JIT, file system caches, the Git index cache.
  for (let i = 0; i < 10; i++, writes++)
    await timed(clusterUrl(i * 7), 'PATCH', { patches: { 'component-0': { warmup: String(i) } } });

  const patch: number[] = [];
  for (let i = 0; i < WRITES; i++, writes++) {
    const target = (i * 4099) % CLUSTERS; // spread over the fleet
    patch.push(await timed(clusterUrl(target), 'PATCH', clusterPatch(target, i), 'application/merge-patch+json'));
  }
  report('PATCH /clusters/{id} (merge patch)', patch);

  const put: number[] = [];
  for (let i = 0; i < WRITES / 4; i++, writes++) {
    put.push(
      await timed(`${service.url}/namespaces/team-${i % 20}`, 'PUT', {
        labels: { team: `team-${i % 20}`, round: String(i) },
        annotations: {},
      }),
    );
  }
  report('PUT /namespaces/{id}', put);

  const create: number[] = [];
  const remove: number[] = [];
  for (let i = 0; i < WRITES / 4; i++, writes += 2) {
    const id = `bench-new-${i}`;
    create.push(
      await timed(`${service.url}/clusters`, 'POST', {
        id,
        cluster_name: id,
        cluster_dns: `${id}.bench.example.com`,
        environment: 'dev',
        platform_components: [{ id: 'component-1', enabled: true }],
        patches: { 'component-1': { replicaCount: '1' } },
      }),
    );
    remove.push(await timed(`${service.url}/clusters/${id}`, 'DELETE'));
  }
  // A catalog entry that grows is checked against every cluster using it (response size).
  const catalog: number[] = [];
  for (let i = 0; i < WRITES / 10; i++, writes++) {
    catalog.push(
      await timed(`${service.url}/platform_components/component-${i % 25}`, 'PATCH', {
        oci_tag: `1.${i % 25}.0-rc.${1000 + i}`,
      }),
    );
  }
  report('POST /clusters', create);
  report('DELETE /clusters/{id}', remove);
  report('PATCH /platform_components/{id}', catalog);
  report('all writes above', [...patch, ...put, ...create, ...remove, ...catalog]);

  await service.close();
  const commits =
    Number(execFileSync('git', ['rev-list', '--count', 'HEAD'], { cwd: dir, encoding: 'utf8' })) - commitsBefore;
  const status = execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' }).trim();
  console.log(
    `\n${commits} commits for ${writes} writes; working tree ${status === '' ? 'clean' : `NOT clean:\n${status}`}`,
  );
  if (commits !== writes || status !== '') process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
