// A reload of a large fleet runs in slices, the event loop answering polls between them
// (ARCHITECTURE.md, "A reload"). Whatever a slice leaves half done must never be seen: every
// answer is the old revision's or the new one's, whole, and once one poll got the new revision
// every poll sent after it does too — never a fleet where some clusters are served the new
// catalog and others the old.
import { writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { dump } from 'js-yaml';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { clusterDns, generateConfigRepo } from '../../../scripts/generate-repo.ts';
import { commitAll, git, removeDir, tempDir } from '../../helpers/git-fixture.ts';
import { READ_TOKEN, startTestService, type TestService } from '../../helpers/service.ts';
import { watchLoads } from '../../helpers/store-events.ts';

// Enough clusters that building, judging and encoding the new revision each take many slices.
const CLUSTERS = 1_500;
const READERS = 16;
/** The catalog entries every generated cluster uses (three components each, from a catalog of eight). */
const BUMPED = { 'component-1': ['1.1.0', '9.1.0'], 'component-2': ['1.2.0', '9.2.0'] } as const;

interface Answer {
  sentAt: number;
  receivedAt: number;
  revision: string;
  /** component id → the version the answer names for it. */
  versions: Record<string, string>;
}

let repo: string;
let service: TestService;
beforeAll(async () => {
  repo = tempDir('sliced-reload-');
  generateConfigRepo(repo, { clusters: CLUSTERS, componentsPerCluster: 3, git: true });
  service = await startTestService({ CONFIG_REPO: repo });
}, 60_000);
afterAll(async () => {
  await service?.close();
  removeDir(repo);
});

function get(agent: Agent, path: string, gzip: boolean): Promise<Answer> {
  const sentAt = performance.now();
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${READ_TOKEN}` };
    if (gzip) headers['accept-encoding'] = 'gzip';
    const req = httpRequest(new URL(path, service.url), { agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        try {
          expect(res.statusCode, path).toBe(200);
          const raw = Buffer.concat(chunks);
          const body = res.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
          const { inputs } = JSON.parse(body.toString('utf8')) as {
            inputs: { id: string; component_version: string }[];
          };
          const versions = Object.fromEntries(inputs.map((input) => [input.id, input.component_version]));
          const revision = String(res.headers['x-config-revision']);
          resolve({ sentAt, receivedAt: performance.now(), revision, versions });
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

it('serves every poll the old revision or the new one, whole, while the new one is built in slices', async () => {
  const before = git(repo, 'rev-parse', 'HEAD');
  for (const [id, [, next]] of Object.entries(BUMPED)) {
    const c = Number(id.split('-')[1]);
    const entry = {
      id,
      component_path: `charts/${id}`,
      component_version: next,
      oci_url: `oci://registry.example.com/platform/${id}`,
      oci_tag: `1.${c}.0`,
      cluster_env_enabled: c % 4 === 0,
      depends_on: c > 0 && c % 2 === 0 ? [`component-${c - 1}`] : [],
    };
    writeFileSync(join(repo, 'platform_components', `${id}.yaml`), dump(entry));
  }
  const after = commitAll(repo, 'two catalog entries bumped: every cluster answers anew');
  const loads = watchLoads(service);
  const agent = new Agent({ keepAlive: true, maxSockets: READERS });
  const answers: Answer[] = [];
  let published = false;
  let reloadStartedAt = 0;
  try {
    const readers = Array.from({ length: READERS }, async (_, r) => {
      // Each reader keeps going until the new revision is served, then a while longer.
      for (let n = 0; !published || n % 50 !== 0; n++) {
        const cluster = (r * 7919 + n * 104_729) % CLUSTERS;
        answers.push(
          await get(agent, `/api/v2/gitops/clusters/${clusterDns(cluster)}/platform-components`, n % 2 === 0),
        );
      }
    });
    // The reload asked for at once (the folder watch would ask a moment later, and find nothing new).
    await new Promise((resolve) => setTimeout(resolve, 20));
    reloadStartedAt = performance.now();
    await service.store.reload('test');
    const outcome = await loads.until(after, 30_000);
    published = true;
    expect(outcome.result).toBe('published');
    await Promise.all(readers);
  } finally {
    loads.stop();
    agent.destroy();
  }

  const byRevision = (revision: string) => answers.filter((a) => a.revision === revision);
  expect(answers.every((a) => a.revision === before || a.revision === after)).toBe(true);
  // Within one answer: both bumped entries of the one revision the answer names.
  for (const answer of answers) {
    const which = answer.revision === after ? 1 : 0;
    for (const [id, versions] of Object.entries(BUMPED)) expect(answer.versions[id], id).toBe(versions[which]);
  }
  // Across answers: after the first poll that got the new revision, no poll sent later gets the old.
  const firstNew = Math.min(...byRevision(after).map((a) => a.receivedAt));
  expect(byRevision(before).filter((a) => a.sentAt > firstNew)).toEqual([]);
  // Not a vacuous pass: polls sent while the reload ran were answered in between its slices.
  const servedDuringReload = byRevision(before).filter((a) => a.sentAt > reloadStartedAt).length;
  console.log(
    `sliced reload: ${answers.length} polls; ${servedDuringReload} sent during the reload of ${CLUSTERS} clusters ` +
      `were answered before it was published`,
  );
  expect(servedDuringReload).toBeGreaterThan(0);
}, 60_000);
