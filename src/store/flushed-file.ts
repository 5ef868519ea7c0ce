// A new file whose content is on disk before anyone can see it under its final name: created
// exclusively, written, flushed. The caller renames it into place.
import { open } from 'node:fs/promises';

export async function writeFlushedFile(path: string, content: string | Buffer, mode = 0o644): Promise<void> {
  const handle = await open(path, 'wx', mode);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
}
