// The git command line for the benchmarks' generated repositories (never this checkout).
// Automatic gc and maintenance are off so that no background job competes with a timing.
import { execFileSync } from 'node:child_process';

export function git(dir: string, ...args: string[]): string {
  const config = ['user.name=bench', 'user.email=bench@example.com', 'gc.auto=0', 'maintenance.auto=false'].flatMap(
    (c) => ['-c', c],
  );
  return execFileSync('git', [...config, ...args], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 26 }).trim();
}

/** Packs the repository as a fresh clone is, after any automatic gc the generator's commit started. */
export async function pack(dir: string): Promise<void> {
  for (let waited = 0; ; waited += 500) {
    try {
      git(dir, 'gc', '-q', '--prune=now');
      return;
    } catch (error) {
      // The commit may have started an automatic gc in the background: wait for it.
      if (!String((error as { stderr?: unknown }).stderr).includes('already running') || waited > 180_000) throw error;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}
