// What receivers cost publication: the same fleet served twice in one sitting, once without
// receivers and once with every cluster's receiver_url pointing at a loopback port that
// accepts connections and never answers (the worst receiver: each notice stays open until
// RECEIVER_TIMEOUT). Each write is a catalog change that reaches every cluster, so every
// publication asks for a notice to each; the write's answer comes after its publication.
// Usage: npm run bench:receivers -- [clusters=1000] [writes=30]
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/shared/logger.ts';
import { startService } from '../src/server.ts';
import { crudFleetDir } from './bench/crud-fleet.ts';
import { latencyLine, timedWrite } from './bench/rest-write.ts';
import { generateConfigRepo } from './generate-repo.ts';

const [clustersArg = '1000', writesArg = '30'] = process.argv.slice(2);
const CLUSTERS = Number(clustersArg);
const WRITES = Number(writesArg);
const TOKEN = 'bench-receivers-token';

// A receiver that takes every connection and says nothing, not even its TLS handshake.
const held: Socket[] = [];
const silent = createServer((socket) => void held.push(socket));
await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
const port = (silent.address() as AddressInfo).port;

async function run(name: string, withReceivers: boolean): Promise<void> {
  const dir = crudFleetDir('bench-receivers-');
  try {
    generateConfigRepo(dir, { clusters: CLUSTERS, componentsPerCluster: 25, git: true });
    if (withReceivers) {
      for (const file of readdirSync(join(dir, 'clusters'))) {
        const path = join(dir, 'clusters', file);
        const hook = `https://127.0.0.1:${port}/hook/${file.replace(/\.yaml$/, '')}`;
        writeFileSync(path, `${readFileSync(path, 'utf8')}receiver_url: ${hook}\n`);
      }
      execFileSync('git', ['commit', '-qam', 'receivers'], { cwd: dir });
    }
    const config = loadConfig({
      AUTH_TOKEN: TOKEN,
      API_MODE: 'crud',
      STORE_BACKEND: 'git',
      CONFIG_REPO: dir,
      LISTEN_ADDR: '127.0.0.1:0',
      LOG_LEVEL: 'error',
      ROLLOUT_AUTO_ADVANCE: 'off',
      CLUSTER_TOKEN_KEYS: 'bench-receivers-key-0123456789abcdef0123',
      ...(withReceivers ? { RECEIVER_HOSTS: '127.0.0.1', RECEIVER_TIMEOUT: '60s' } : {}),
    });
    const service = await startService(config, { log: createLogger('error') });
    try {
      const entry = `${service.url}/platform_components/component-0`;
      const write = (i: number) => timedWrite(entry, 'PATCH', TOKEN, { oci_tag: `9.0.${i}` });
      for (let i = 0; i < 5; i++) await write(i); // warm-up
      const ms: number[] = [];
      for (let i = 5; i < 5 + WRITES; i++) ms.push(await write(i));
      console.log(latencyLine(name, ms));
      if (service.receivers) {
        console.log(
          `  notices waiting or open at the end: ${service.receivers.pending()}, connections held: ${held.length}`,
        );
      }
    } finally {
      await service.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`${CLUSTERS} clusters x 25 components; each write changes component-0's tag (every cluster's answers)`);
console.log(`node ${process.version}`);
await run('no receivers', false);
await run(`${CLUSTERS} silent receivers`, true);
await run('no receivers (again)', false);
for (const socket of held) socket.destroy();
silent.close();
