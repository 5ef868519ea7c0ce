// Makes the files this test process left in a Git directory (locks, journalled writes,
// temporary files) look like a stopped process's: renamed to the tag of an earlier
// incarnation with this very process id (same id and start, another nonce), as a crashed
// predecessor that had the same id would have left them.
import { readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { formatTag, ownIdentity, ownTag } from '../../src/store/git/files/process-identity.ts';

export function stoppedTag(): string {
  return formatTag({ ...ownIdentity(), nonce: ownIdentity().nonce === 'dead' ? 'beef' : 'dead' });
}

export function leaveAsStopped(gitdir: string): void {
  const own = ownTag();
  const stopped = stoppedTag();
  const service = join(gitdir, 'gitops-config-api');
  for (const dir of [join(service, 'locks'), join(service, 'writes'), join(service, 'tmp'), join(gitdir, 'objects')]) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names)
      if (name.includes(own)) renameSync(join(dir, name), join(dir, name.replace(own, stopped)));
  }
}
