// Files and folders that survive a power loss once written. A file's content is on disk after
// fsync of the file; its name, or a rename, only after fsync of the folder that holds it; a
// new folder only after fsync of its parent. Every write of the service that a repair or an
// answer relies on goes through here: a new file flushed before anyone can see it under its
// final name, renamed, then its folder flushed.
import { type FileHandle, mkdir, open, rename } from 'node:fs/promises';
import { dirname, relative, sep } from 'node:path';

/**
 * A new file, created exclusively, written and flushed; the caller renames it into place. A
 * list of buffers is written one after another, as one file, without joining them first.
 */
export async function writeFlushedFile(
  path: string,
  content: string | Buffer | readonly Buffer[],
  mode = 0o644,
): Promise<void> {
  const handle = await open(path, 'wx', mode);
  try {
    if (typeof content === 'string' || Buffer.isBuffer(content)) await handle.writeFile(content);
    else await writeAll(handle, content);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes every byte of `parts`, in order: a write may take fewer bytes than it was given. */
async function writeAll(handle: FileHandle, parts: readonly Buffer[]): Promise<void> {
  // At most 1,024 pieces a call (IOV_MAX on Linux).
  let pending = parts.filter((part) => part.length > 0);
  while (pending.length > 0) {
    const batch = pending.slice(0, 1024);
    let { bytesWritten } = await handle.writev(batch);
    let done = 0;
    while (done < batch.length && bytesWritten >= batch[done].length) bytesWritten -= batch[done++].length;
    const rest = done < batch.length ? [batch[done].subarray(bytesWritten), ...batch.slice(done + 1)] : [];
    pending = [...rest, ...pending.slice(batch.length)];
  }
}

/** Flushes a folder: the names created, renamed or removed in it so far survive a power loss. */
export async function syncDirectory(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
  } catch (error) {
    // A platform that cannot open a folder (Windows) has nothing to flush this way.
    if (isUnsupported(error)) return;
    throw error;
  }
  try {
    await handle.sync();
  } catch (error) {
    if (!isUnsupported(error)) throw error;
  } finally {
    await handle.close();
  }
}

/** `mkdir -p`, with every folder it creates flushed into its parent. */
export async function makeDirectory(dir: string): Promise<void> {
  const first = await mkdir(dir, { recursive: true });
  if (first === undefined) return;
  // The created folders, outermost first: each one's parent holds its name.
  const created = [first];
  for (const name of relative(first, dir).split(sep).filter(Boolean)) created.push(`${created.at(-1)!}${sep}${name}`);
  for (const folder of created) await syncDirectory(dirname(folder));
}

/** Renames a flushed file into place and flushes the folder it now is in. */
export async function renameFlushed(from: string, to: string): Promise<void> {
  await rename(from, to);
  await syncDirectory(dirname(to));
}

function isUnsupported(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'EISDIR' || code === 'EINVAL' || code === 'EPERM' || code === 'ENOTSUP';
}
