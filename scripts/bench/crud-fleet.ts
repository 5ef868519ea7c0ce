// A generated Git fleet (scripts/generate-repo.ts: `clusters` × 25 components, committed) in a
// temporary directory, served by the real service in crud mode: what the write benchmarks
// start from. Prints how long each part took.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/shared/logger.ts';
import { startService } from '../../src/server.ts';
import { generateConfigRepo } from '../generate-repo.ts';

export interface CrudFleet {
  dir: string;
  service: Awaited<ReturnType<typeof startService>>;
}

/** The directory is made before anything can fail: the caller removes it whatever happens. */
export function crudFleetDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export async function startCrudFleet(dir: string, clusters: number, token: string): Promise<CrudFleet> {
  let t = performance.now();
  generateConfigRepo(dir, { clusters, componentsPerCluster: 25, git: true });
  console.log(
    `generated ${clusters} clusters x 25 components in ${((performance.now() - t) / 1000).toFixed(1)} s (${dir})`,
  );
  t = performance.now();
  const config = loadConfig({
    AUTH_TOKEN: token,
    API_MODE: 'crud',
    STORE_BACKEND: 'git',
    CONFIG_REPO: dir,
    LISTEN_ADDR: '127.0.0.1:0',
    LOG_LEVEL: 'warn',
  });
  const service = await startService(config, { log: createLogger('warn') });
  console.log(
    `service started in crud mode in ${((performance.now() - t) / 1000).toFixed(1)} s; node ${process.version}`,
  );
  return { dir, service };
}
