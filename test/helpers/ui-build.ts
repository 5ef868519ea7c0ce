// Vitest's global setup: the web UI must be built before the service starts in any test (the
// service reads dist/ui/ once, at start). It is built here when missing or older than a file
// of ui/, so `npm test` on a fresh clone and after an edit of the UI tests the UI as it is.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');
const BUILT = join(ROOT, 'dist', 'ui', 'index.html');

function newestUnder(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((entry) => newestUnder(join(path, entry))));
}

function builtAt(): number {
  try {
    return statSync(BUILT).mtimeMs;
  } catch {
    return -1;
  }
}

export default function buildUiIfStale(): void {
  if (builtAt() >= newestUnder(join(ROOT, 'ui'))) return;
  // NODE_ENV as `npm run build` has it: under Vitest it is `test`, and Vite would then compile
  // the JSX for development (jsxDEV, with each file's absolute path in the bundle).
  const result = spawnSync(join(ROOT, 'node_modules', '.bin', 'vite'), ['build', 'ui'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0)
    throw new Error(`vite build ui failed (${result.status}):\n${result.stdout}${result.stderr}`);
}
