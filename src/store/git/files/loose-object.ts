// Writing loose Git objects so that a crash or a full disk never leaves a damaged one: the
// compressed object goes to a temporary file in the object store, is flushed, and renamed
// to its name, and its folder is flushed (objects/xx/ into objects/ too when it is new): a
// ref may name the object as soon as this returns, a power loss notwithstanding. An object
// file that already exists is reused only when it is whole (it inflates to content that
// hashes to its name); an empty or cut-off one, left by a tool that writes in place, is
// replaced.
import { createHash } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createDeflate, inflateSync } from 'node:zlib';
import { makeDirectory, renameFlushed, writeFlushedFile } from './flushed-file.ts';
import { isAlive, ownTag, TAG_PATTERN } from './process-identity.ts';
import { objectHeader, objectId, type ObjectType } from '../format/object-id.ts';
import { adler32, adler32Joined } from '../format/adler32.ts';
import { storedZlib } from '../format/stored-zlib.ts';

/** Git's own prefix for temporary object files: `git gc` and `git fsck` know it. */
const TEMPORARY_PREFIX = 'tmp_obj_gitops';

let sequence = 0;

/** Objects larger than this are written as stored (level 0) zlib streams. */
const STORE_UNCOMPRESSED_FROM = 64 * 1024;

/**
 * The object's header and content as a zlib stream, fed in two pieces rather than copied into
 * one. Git's level for loose objects (core.looseCompression = 1), compressed on the thread
 * pool; a large object (a tree of a folder of thousands of records, rewritten by every write
 * to it) is stored without compression, its stream made of views of its own bytes
 * (../format/stored-zlib.ts): compressing, or even copying, megabytes per write would make a
 * write's cost grow with the fleet, and `git gc` packs and deltas these trees anyway.
 */
function compress(header: Buffer, content: Buffer, checksum?: () => number): Promise<Buffer | Buffer[]> {
  if (header.length + content.length > STORE_UNCOMPRESSED_FROM) {
    const known = checksum && adler32Joined(adler32([header]), checksum(), content.length);
    return Promise.resolve(storedZlib([header, content], known));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const stream = createDeflate({ level: 1 });
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    stream.on('error', reject);
    stream.write(header);
    stream.end(content);
  });
}

/**
 * Stores the object (unless a whole copy is there) and returns its id (`knownId`, when the caller hashed it already).
 * `checksum`: the content's Adler-32, asked for when the object is stored uncompressed, by a
 * caller that keeps it (a large tree's, carried from one write's tree to the next).
 */
export async function writeLooseObject(
  gitdir: string,
  type: ObjectType,
  content: Buffer,
  knownId?: string,
  checksum?: () => number,
): Promise<string> {
  const oid = knownId ?? objectId(type, content);
  const objects = join(gitdir, 'objects');
  const path = join(objects, oid.slice(0, 2), oid.slice(2));
  if (await isWhole(path, oid)) return oid;
  const temporary = join(objects, `${TEMPORARY_PREFIX}_${ownTag()}_${++sequence}`);
  const data = await compress(Buffer.from(objectHeader(type, content.length)), content, checksum);
  try {
    await writeFlushedFile(temporary, data, 0o444);
    await makeDirectory(join(objects, oid.slice(0, 2)));
    // A damaged file of the same name is read-only, as git leaves objects; rename replaces it.
    await renameFlushed(temporary, path);
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
    const match = new RegExp(`^${TEMPORARY_PREFIX}_(${TAG_PATTERN})_\\d+$`).exec(name);
    if (!match || (await isAlive(match[1]))) continue;
    await rm(join(objects, name), { force: true });
    removed++;
  }
  return removed;
}
