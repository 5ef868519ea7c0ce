// The replicas figure of `npm run bench`: the time from a push (its webhook sent to one
// replica, a different one each time, as a Git host calls one URL) to the last of three read
// replicas serving it, with PEERS and without, side by side. The remote is a real smart-HTTP
// Git remote on loopback (`git http-backend`, test/helpers/git-http-server.ts).
//
// With PEERS the replicas keep the default sync interval (30 s): what brings the others along
// is the webhook passed on and the announcement. Without PEERS the others wait for their own
// interval; it is set to REPLICAS_SYNC_WITHOUT_PEERS (5 s) here so that the run stays short —
// with the default 30 s the figure would be up to 30 s.
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGitHttpRemote } from '../../test/helpers/git-http-server.ts';
import { clusterDns, generateConfigRepo } from '../generate-repo.ts';
import { git } from './git.ts';
import { HttpClient } from './http-client.ts';
import { type NodeProcess, SERVICE_MAIN, startNodeProcess } from './node-process.ts';
import { type Spread, spread } from './stats.ts';

export const REPLICAS_SYNC_WITHOUT_PEERS = '5s';
const USER = 'bench';
const PASSWORD = 'bench-remote-password';
const SECRET = 'bench-webhook-secret';
const TOKEN = 'bench-token-of-the-replicas';
const PEER_TOKEN = 'bench-peer-token-of-the-replicas';
const REPLICAS = 3;

export interface ReplicasFigure {
  replicas: number;
  pushes: number;
  /** ms from the webhook to the last replica serving the push. */
  withPeers: Spread;
  withoutPeers: Spread;
  syncWithPeers: string;
  syncWithoutPeers: string;
}

export async function measureReplicas(pushes: number, log: (line: string) => void): Promise<ReplicasFigure> {
  const root = mkdtempSync(join(tmpdir(), 'bench-replicas-'));
  const remote = await startGitHttpRemote({ username: USER, password: PASSWORD });
  try {
    const source = join(root, 'source');
    generateConfigRepo(source, { clusters: 100, componentsPerCluster: 10, git: true });
    const run = async (name: string, peers: boolean): Promise<number[]> => {
      remote.publish(name, source);
      const work = join(root, `${name}-work`);
      git(root, 'clone', '-q', remote.url(name).replace('http://', `http://${USER}:${PASSWORD}@`), work);
      const replicas = await startReplicas(remote.url(name), root, name, peers);
      try {
        const times: number[] = [];
        for (let n = 1; n <= pushes; n++) times.push(await pushAndWait(work, replicas, n));
        log(
          `  ${peers ? 'with PEERS   ' : 'without PEERS'} push → last replica serving, ms: ` +
            `${times.map((t) => t.toFixed(0)).join(', ')}`,
        );
        return times;
      } finally {
        for (const replica of replicas) replica.client.close();
        await Promise.all(replicas.map((replica) => replica.process.stop()));
      }
    };
    const withPeers = await run('with-peers', true);
    const withoutPeers = await run('without-peers', false);
    return {
      replicas: REPLICAS,
      pushes,
      withPeers: spread(withPeers),
      withoutPeers: spread(withoutPeers),
      syncWithPeers: '30s',
      syncWithoutPeers: REPLICAS_SYNC_WITHOUT_PEERS,
    };
  } finally {
    await remote.close();
    rmSync(root, { recursive: true, force: true });
  }
}

interface Replica {
  process: NodeProcess;
  client: HttpClient;
}

async function startReplicas(url: string, root: string, name: string, peers: boolean): Promise<Replica[]> {
  const ports = await freePorts(REPLICAS);
  const urls = ports.map((port) => `http://127.0.0.1:${port}`).join(',');
  return Promise.all(
    ports.map(async (port, i) => {
      const env: Record<string, string> = {
        AUTH_TOKEN: TOKEN,
        CONFIG_REPO: url,
        GIT_USERNAME: USER,
        GIT_PASSWORD: PASSWORD,
        CONFIG_CLONE_DIR: join(root, `${name}-clone-${i}`),
        WEBHOOK_SECRET: SECRET,
        LISTEN_ADDR: `127.0.0.1:${port}`,
        LOG_LEVEL: 'info',
        CONFIG_SYNC_INTERVAL: peers ? '30s' : REPLICAS_SYNC_WITHOUT_PEERS,
        ...(peers ? { PEERS: urls, PEER_TOKEN } : {}),
      };
      const process = await startNodeProcess(SERVICE_MAIN, { env });
      return { process, client: new HttpClient(process.port, 1, { authorization: `Bearer ${TOKEN}` }) };
    }),
  );
}

/** One push, its webhook to replica n mod 3; ms until every replica serves the commit. */
async function pushAndWait(work: string, replicas: readonly Replica[], n: number): Promise<number> {
  writeFileSync(join(work, 'namespaces', 'team-0.yaml'), `id: team-0\nlabels:\n  team: team-0\n  push: "${n}"\n`);
  git(work, 'commit', '-qam', `push ${n}`);
  git(work, 'push', '-q', 'origin', 'HEAD:main');
  const commit = git(work, 'rev-parse', 'HEAD');
  const body = JSON.stringify({ ref: 'refs/heads/main', after: commit });
  const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
  const target = replicas[n % replicas.length];
  const sent = performance.now();
  const hook = await target.client.request(
    'POST',
    '/hooks/git',
    { 'content-type': 'application/json', 'x-github-event': 'push', 'x-hub-signature-256': signature },
    body,
  );
  if (hook.status !== 202) throw new Error(`the webhook answered ${hook.status}`);
  const path = `/api/v2/gitops/clusters/${clusterDns(0)}/namespaces`;
  const served = await Promise.all(
    replicas.map(async ({ client }) => {
      for (;;) {
        const answer = await client.get(path);
        if (answer.headers['x-config-revision'] === commit) return performance.now() - sent;
        if (performance.now() - sent > 120_000) throw new Error('a replica did not serve the push within 2 minutes');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }),
  );
  return Math.max(...served);
}

async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<ReturnType<typeof createServer>>((resolve) => {
          const server = createServer();
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}
