// A real smart-HTTP Git remote on loopback: `git http-backend` (CGI) behind a small Node
// server with HTTP Basic auth. It can be taken down and brought back on the same port to
// play a Git host outage. The server runs in its own process (this file is also its
// program), so that tests may block on the git command line without starving it.
import { execFileSync, fork, spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { git, tempDir } from './git-fixture.ts';

export interface GitHttpRemote {
  /** http://127.0.0.1:<port>/<name>.git */
  url(name: string): string;
  /** The bare repository's directory, for the `git` CLI. */
  path(name: string): string;
  /** Creates a bare repo `name` whose branch `branch` holds the commits of `sourceDir`. */
  publish(name: string, sourceDir: string, branch?: string): void;
  /**
   * A clone of repo `name` in `dir`, to push to and pull from over HTTP as another engineer would: its origin is the
   * remote's URL with the credentials. Made from the bare repository on disk (the same objects and refs a clone over
   * HTTP receives), which spares the remote the clone.
   */
  cloneTo(name: string, dir: string): void;
  /** Refuse connections (the host is down) until up() is called. */
  down(): Promise<void>;
  /**
   * How many fetches (and clones) of repo `name` the remote has seen begin: its `info/refs?service=git-upload-pack`
   * requests.
   */
  fetches(name: string): Promise<number>;
  /** Fetches of repo `name` that have begun and not been answered yet. */
  fetchesInFlight(name: string): Promise<number>;
  /** Holds each fetch's first answer back by `ms` (0: none), to play a slow host. */
  slowFetches(ms: number): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

interface RemoteState {
  port: number;
  requests: number;
  /** By repository path (`/<name>.git`): fetches begun. */
  fetches: Record<string, number>;
  /** By repository path: fetches whose ref advertisement has not been answered yet. */
  inFlight: Record<string, number>;
}

/** Starts the remote in a child process. */
export async function startGitHttpRemote(credentials: { username: string; password: string }): Promise<GitHttpRemote> {
  const root = tempDir('git-remote-');
  const child = fork(import.meta.filename, [root, credentials.username, credentials.password], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const call = (command: string | { slow: number }) =>
    new Promise<RemoteState>((resolve, reject) => {
      const exited = () => reject(new Error('git remote process exited'));
      child.once('message', (m) => {
        child.off('exit', exited);
        resolve(m as RemoteState);
      });
      child.once('exit', exited);
      child.send(command);
    });
  const { port } = await call('up');
  const remote: GitHttpRemote = {
    url: (name) => `http://127.0.0.1:${port}/${name}.git`,
    path: (name) => join(root, `${name}.git`),
    publish(name, sourceDir, branch = 'main') {
      git(root, 'init', '-q', '--bare', '-b', branch, `${name}.git`);
      git(sourceDir, 'push', '-q', remote.path(name), `HEAD:refs/heads/${branch}`);
    },
    cloneTo(name, dir) {
      git(root, 'clone', '-q', remote.path(name), dir);
      const withCredentials = remote
        .url(name)
        .replace('http://', `http://${credentials.username}:${credentials.password}@`);
      git(dir, 'remote', 'set-url', 'origin', withCredentials);
    },
    async down() {
      await call('down');
    },
    async up() {
      await call('up');
    },
    async fetches(name) {
      return (await call('state')).fetches[`/${name}.git`] ?? 0;
    },
    async fetchesInFlight(name) {
      return (await call('state')).inFlight[`/${name}.git`] ?? 0;
    },
    async slowFetches(ms) {
      await call({ slow: ms });
    },
    async close() {
      child.kill();
    },
  };
  return remote;
}

const NO_AUTO_GC = { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'receive.autogc', GIT_CONFIG_VALUE_0: 'false' };

function serve(root: string, username: string, password: string): void {
  // git's CGI itself rather than `git http-backend`, which only starts it; and no `git gc --auto`
  // after each push. A push starts about ten processes of git on the remote; these were two
  // (about 20 of its 85 ms), and neither is what the service talks to.
  const HTTP_BACKEND = join(execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim(), 'git-http-backend');
  const expected = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  let requests = 0;
  let slowMs = 0;
  const fetches: Record<string, number> = {};
  const inFlight: Record<string, number> = {};

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    requests++;
    if (req.headers.authorization !== expected) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end('authentication required');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    // A fetch (or clone) begins with the ref advertisement of upload-pack.
    const advertised = /^(.*)\/info\/refs$/.exec(url.pathname);
    if (req.method === 'GET' && advertised && url.searchParams.get('service') === 'git-upload-pack') {
      const repo = advertised[1];
      fetches[repo] = (fetches[repo] ?? 0) + 1;
      if (slowMs > 0) {
        inFlight[repo] = (inFlight[repo] ?? 0) + 1;
        setTimeout(() => {
          inFlight[repo] -= 1;
          runBackend(req, res, url);
        }, slowMs);
        return;
      }
    }
    runBackend(req, res, url);
  };

  const runBackend = (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const cgi = spawn(HTTP_BACKEND, [], {
      env: {
        ...process.env,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        // A set REMOTE_USER enables pushes (receive-pack) for authenticated users.
        REMOTE_USER: username,
        REQUEST_METHOD: req.method ?? 'GET',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
        ...NO_AUTO_GC,
      },
    });
    req.pipe(cgi.stdin);
    let head = Buffer.alloc(0);
    let headersDone = false;
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      headersDone = true;
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      res.write(head.subarray(end + 4));
    });
    cgi.stdout.on('end', () => res.end());
    cgi.on('error', () => res.writeHead(500).end());
  };

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      if (server?.listening) return resolve();
      const s = createServer(handle);
      server = s;
      s.on('connection', (socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        port = (s.address() as AddressInfo).port;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server?.listening) return resolve();
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
  process.on('message', (command: string | { slow: number }) => {
    const done = () => process.send!({ port, requests, fetches, inFlight });
    if (command === 'up') void listen().then(done);
    else if (command === 'down') void stop().then(done);
    else if (command === 'state') done();
    else if (typeof command === 'object') {
      slowMs = command.slow;
      done();
    }
  });
  process.on('disconnect', () => process.exit(0));
}

if (import.meta.main) {
  const [root, username, password] = process.argv.slice(2);
  serve(root, username, password);
}
