// Writing loose Git objects so that a crash or a full disk never leaves a damaged one: the
// compressed object goes to a temporary file in the object store, is flushed, and renamed
// to its name. An object file that already exists is reused only when it is whole (it
// inflates to content that hashes to its name); an empty or cut-off one, left by a tool that
// writes in place, is replaced.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { deflate, inflateSync } from 'node:zlib';
import { writeFlushedFile } from '../../flushed-file.ts';
import { isRunning } from './lock-file.ts';

export type ObjectType = 'blob' | 'tree' | 'commit';

/** Git's own prefix for temporary object files: `git gc` and `git fsck` know it. */
const TEMPORARY_PREFIX = 'tmp_obj_gitops';

let sequence = 0;

/** Compressed on the thread pool: a large folder's tree is half a megabyte. */
const deflateAsync = promisify(deflate);

/** The object id of content of this type. */
export function objectId(type: ObjectType, content: Buffer): string {
  return createHash('sha1').update(`${type} ${content.length}\0`).update(content).digest('hex');
}

/** Stores the object (unless a whole copy is there) and returns its id. */
export async function writeLooseObject(gitdir: string, type: ObjectType, content: Buffer): Promise<string> {
  const oid = objectId(type, content);
  const objects = join(gitdir, 'objects');
  const path = join(objects, oid.slice(0, 2), oid.slice(2));
  if (await isWhole(path, oid)) return oid;
  const temporary = join(objects, `${TEMPORARY_PREFIX}_${process.pid}_${++sequence}`);
  // Git's level for loose objects (core.looseCompression = 1): a large folder's tree is
  // half a megabyte, and compressing it harder costs more than it saves.
  const data = await deflateAsync(Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]), { level: 1 });
  try {
    await writeFlushedFile(temporary, data, 0o444);
    await mkdir(join(objects, oid.slice(0, 2)), { recursive: true });
    // A damaged file of the same name is read-only, as git leaves objects; rename replaces it.
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return oid;
}

async function isWhole(path: string, oid: string): Promise<boolean> {
  let file: Buffer;
  try {
    file = await readFile(path);
  } catch {
    return false;
  }
  try {
    return createHash('sha1').update(inflateSync(file)).digest('hex') === oid;
  } catch {
    return false; // empty or cut off
  }
}

/** Removes the temporary object files a crashed process of this service left. */
export async function clearStaleObjectFiles(gitdir: string): Promise<number> {
  const objects = join(gitdir, 'objects');
  let removed = 0;
  for (const name of await readdir(objects).catch(() => [] as string[])) {
    const match = new RegExp(`^${TEMPORARY_PREFIX}_(\\d+)_\\d+$`).exec(name);
    if (!match || isRunning(Number(match[1]))) continue;
    await rm(join(objects, name), { force: true });
    removed++;
  }
  return removed;
}
