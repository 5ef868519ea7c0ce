// Several replicas of the service as real processes (`node src/main.ts`) on loopback, all
// following one branch of a real smart-HTTP Git remote, as the recommended deployment runs
// them: with PEERS naming the others (the URL-list form), or without, each on its own.
import { createHmac } from 'node:crypto';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { tempDir } from './git-fixture.ts';
import { afterEach } from 'vitest';
import { request } from './http.ts';
import { gitRemoteSuite, type RemoteSuite } from './remote-suite.ts';
import { type ServiceProcess, startServiceProcess } from './process.ts';

export const GIT_USER = 'replica-bot';
export const GIT_PASSWORD = 'replica-remote-password-3e9a';
export const WEBHOOK_SECRET = 'replica-webhook-secret-77c1';
export const PEER_TOKEN = 'peer-token-for-tests-5b0c2d';
/** The read token startServiceProcess gives every process. */
export const PROCESS_TOKEN = 'process-token';

export interface Replica {
  name: string;
  url: string;
  process: ServiceProcess;
}

/** Ports free right now on 127.0.0.1 (the replicas must know each other's before they start). */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<import('node:net').Server>((resolve) => {
          const server = createServer();
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((s) => (s.address() as import('node:net').AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}

export interface ReplicaSetOptions {
  count: number;
  /** PEERS set to every replica's URL (the form a list of URLs takes); false: each acts alone. */
  peers: boolean;
  env?: Record<string, string>;
  /** More settings for one replica (by index), e.g. crud mode for a writer. */
  envOf?: (index: number) => Record<string, string>;
}

/** Starts the replicas; each clones the repo into a folder of its own. */
export async function startReplicas(remoteUrl: string, options: ReplicaSetOptions): Promise<Replica[]> {
  const ports = await freePorts(options.count);
  const urls = ports.map((port) => `http://127.0.0.1:${port}`);
  // One after the other: three Node processes starting at once on a loaded 2-core machine
  // can take longer than the start line's 15 s.
  const replicas: Replica[] = [];
  for (const [i, port] of ports.entries()) {
    const env: Record<string, string> = {
      CONFIG_REPO: remoteUrl,
      GIT_USERNAME: GIT_USER,
      GIT_PASSWORD,
      CONFIG_CLONE_DIR: join(tempDir('replica-clone-'), 'clone'),
      WEBHOOK_SECRET,
      LISTEN_ADDR: `127.0.0.1:${port}`,
      ...(options.peers ? { PEERS: urls.join(','), PEER_TOKEN } : {}),
      ...options.env,
      ...options.envOf?.(i),
    };
    const process = await startServiceProcess(env);
    replicas.push({ name: `replica-${i}`, url: process.url, process });
  }
  return replicas;
}

/** GitHub's push webhook for `commit`, signed, as the Git host sends it to one URL. */
export async function sendPushWebhook(replica: Replica, commit: string, delivery: string): Promise<number> {
  const body = JSON.stringify({ ref: 'refs/heads/main', after: commit });
  const signature = `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex')}`;
  const res = await request(replica.url, '/hooks/git', {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'push',
      'x-github-delivery': delivery,
      'x-hub-signature-256': signature,
    },
  });
  return res.status;
}

/** The revision a replica serves now (X-Config-Revision of a read). */
export async function servedRevision(replica: Replica, path: string): Promise<string | undefined> {
  const res = await request(replica.url, path, { token: PROCESS_TOKEN });
  return res.headers['x-config-revision'] as string | undefined;
}

/** The log line a replica writes once it serves `commit` (after the swap of its answers). */
const publishedLine = (commit: string) => new RegExp(`"revision":"${commit}"[^\\n]*"msg":"published a new revision"`);

/**
 * Milliseconds from `since` until the replica serves `commit`, or undefined when it does not
 * within `limitMs` of `since`: awaited on the replica's own log line, then confirmed by a read
 * of `path` (the line is written after the new answers are in place).
 */
export async function servedWithin(
  replica: Replica,
  commit: string,
  path: string,
  since: number,
  limitMs: number,
): Promise<number | undefined> {
  try {
    await replica.process.waitForOutput(publishedLine(commit), Math.max(0, limitMs - (performance.now() - since)));
  } catch {
    return undefined;
  }
  const ms = performance.now() - since;
  const served = await servedRevision(replica, path);
  if (served !== commit) throw new Error(`${replica.name} logged that it published ${commit} but serves ${served}`);
  return ms;
}

/** Stops every replica that still runs. */
export async function stopReplicas(replicas: readonly Replica[]): Promise<void> {
  const running = replicas.filter((r) => r.process.child.exitCode === null && r.process.child.signalCode === null);
  await Promise.all(running.map((r) => r.process.stop('SIGKILL')));
}

/** A test file's remote and replicas (replicaSuite). */
export interface ReplicaSuite extends RemoteSuite {
  /** The replicas of the running test: stopped after it. */
  replicas: Replica[];
}

/**
 * The remote of a test file (./remote-suite.ts) and its replicas, stopped after each test
 * (woken first, should a test have paused one with SIGSTOP).
 */
export function replicaSuite(): ReplicaSuite {
  const remote = gitRemoteSuite({ username: GIT_USER, password: GIT_PASSWORD });
  const suite: ReplicaSuite = {
    get remote() {
      return remote.remote;
    },
    newRepo: (prefix, files) => remote.newRepo(prefix, files),
    replicas: [],
  };
  afterEach(async () => {
    for (const r of suite.replicas) if (r.process.child.exitCode === null) r.process.child.kill('SIGCONT');
    await stopReplicas(suite.replicas);
    suite.replicas = [];
  });
  return suite;
}
