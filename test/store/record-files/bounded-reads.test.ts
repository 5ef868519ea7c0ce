// More record files than the process may open at once: the server and `validate` read them
// through a bounded pool, so a repo of 1,500 files loads under `ulimit -n 128` (opening them
// all at once fails with EMFILE). More connections than that, too: the default
// HTTP_MAX_CONNECTIONS keeps descriptors for the store. Run as real processes, since the
// limit is per process.
import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateConfigRepo } from '../../../scripts/generate-repo.ts';
import { removeDir, tempDir } from '../../helpers/git-fixture.ts';
import { eventually } from '../../helpers/http.ts';
import { startServiceProcess } from '../../helpers/process.ts';
import { RawConnection } from '../../helpers/raw-connection.ts';

const ROOT = join(import.meta.dirname, '../../..');
const OPEN_FILES = 128;
const CLUSTERS = 1_500;

/** Runs `node <args>` under `ulimit -n`; resolves with its exit code and output once `until` matches or it exits. */
function underLimit(
  args: string[],
  env: Record<string, string>,
  until?: RegExp,
): Promise<{ code: number | null; output: string }> {
  const quoted = args.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const child = spawn('bash', ['-c', `ulimit -n ${OPEN_FILES} && exec '${process.execPath}' ${quoted}`], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve) => {
    const take = (chunk: Buffer) => {
      output += chunk.toString();
      if (until?.test(output)) {
        child.kill('SIGTERM');
        resolve({ code: 0, output });
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('exit', (code) => resolve({ code, output }));
  });
}

let repo: string;
beforeAll(() => {
  repo = tempDir('bounded-reads-');
  generateConfigRepo(repo, { clusters: CLUSTERS, componentsPerCluster: 3, git: true });
});
afterAll(() => removeDir(repo));

describe(`a repo of ${CLUSTERS} clusters under ulimit -n ${OPEN_FILES}`, () => {
  it('passes validate', async () => {
    const { code, output } = await underLimit(['src/tools/cli.ts', 'validate', repo], {});
    expect(output).not.toContain('EMFILE');
    expect(code, output).toBe(0);
    expect(output).toContain(`${CLUSTERS} clusters`);
  }, 60_000);

  it('starts the service, which serves every cluster', async () => {
    const { output } = await underLimit(
      ['src/main.ts'],
      { AUTH_TOKEN: 'limit-token', CONFIG_REPO: repo, LISTEN_ADDR: '127.0.0.1:0' },
      /"msg":"gitops-config-api started"|EMFILE|"level":(50|60)/,
    );
    expect(output).not.toContain('EMFILE');
    expect(output).toContain('gitops-config-api started');
    expect(output).toMatch(new RegExp(`"clusters":${CLUSTERS}\\b`));
  }, 60_000);
});

describe(`more connections than file descriptors (ulimit -n ${OPEN_FILES})`, () => {
  const READ = 'read-token-for-the-limit';
  const WRITE = 'write-token-for-the-limit';
  const FLOOD = 200;
  let small: string;
  beforeAll(() => {
    small = tempDir('bounded-connections-');
    generateConfigRepo(small, { clusters: 20, componentsPerCluster: 3, git: true });
  });
  afterAll(() => removeDir(small));

  /** `count` TCP connections that send nothing; counts those the service closes. */
  async function flood(url: string, count: number): Promise<{ sockets: Socket[]; closed: () => number }> {
    const { hostname, port } = new URL(url);
    let closed = 0;
    const sockets = await Promise.all(
      Array.from({ length: count }, () => {
        const socket = connect(Number(port), hostname);
        socket.on('error', () => {});
        socket.once('close', () => closed++);
        return new Promise<Socket>((resolve) => {
          socket.once('connect', () => resolve(socket));
          socket.once('close', () => resolve(socket));
        });
      }),
    );
    return { sockets, closed: () => closed };
  }

  async function writeAndHealth(connection: RawConnection, id: string): Promise<void> {
    const body = JSON.stringify({ id });
    await connection.write(
      `POST /namespaces HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${WRITE}\r\nContent-Type: ` +
        `application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    const written = await connection.next();
    expect(written.status, written.body).toBe(201);
    await connection.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
    expect((await connection.next()).status).toBe(200);
  }

  it(
    'the default HTTP_MAX_CONNECTIONS closes the excess; ' + '/health and a write still work, nothing meets EMFILE',
    async () => {
      const env = { CONFIG_REPO: small, API_MODE: 'crud', AUTH_TOKEN: READ, CRUD_AUTH_TOKEN: WRITE };
      const service = await startServiceProcess(env, { openFiles: OPEN_FILES });
      try {
        const kept = await RawConnection.open(service.url);
        await kept.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
        expect((await kept.next()).status).toBe(200);
        const { sockets, closed } = await flood(service.url, FLOOD);
        // 64 connections at most (128 less the 64 kept for the rest of the process), the kept one among them.
        await eventually(() => closed() >= FLOOD - 63, 10_000);
        await writeAndHealth(kept, 'team-flood');
        expect(service.output()).toMatch(/"max_connections":64,"count":\d+,"msg":"connections refused/);
        expect(service.output()).not.toContain('EMFILE');
        for (const socket of sockets) socket.destroy();
        kept.socket.destroy();
      } finally {
        await service.stop();
      }
    },
    60_000,
  );
});
