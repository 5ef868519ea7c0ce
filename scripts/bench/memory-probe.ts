// Preloaded into the service by the memory benchmark (NODE_OPTIONS="--expose-gc --import"): on
// SIGUSR2 it runs the collector twice and appends one JSON line to BENCH_MEMORY_FILE: the
// process's memory (RSS, the heap in use and reserved, memory outside the heap, the bytes of
// ArrayBuffers among it), the resident bytes of the C heap (the `[heap]` mapping malloc grows; Linux
// only, 0 elsewhere) and each heap space's use and size, in bytes. Collected first, so
// that what is read is what the service keeps, not garbage not yet swept.
import { appendFileSync, readFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';

const file = process.env.BENCH_MEMORY_FILE;
const gc = (globalThis as { gc?: () => void }).gc;
if (file && gc) {
  process.on('SIGUSR2', () => {
    gc();
    gc();
    const { rss, heapTotal, heapUsed, external, arrayBuffers } = process.memoryUsage();
    const cHeap = cHeapResident();
    const spaces = Object.fromEntries(
      getHeapSpaceStatistics().map((s) => [s.space_name, { used: s.space_used_size, size: s.space_size }]),
    );
    appendFileSync(file, `${JSON.stringify({ rss, heapTotal, heapUsed, external, arrayBuffers, cHeap, spaces })}\n`);
  });
}

/** Resident bytes of the `[heap]` mapping (where malloc keeps what it does not map on its own). */
function cHeapResident(): number {
  let text: string;
  try {
    text = readFileSync('/proc/self/smaps', 'utf8');
  } catch {
    return 0;
  }
  const at = text.indexOf(' [heap]\n');
  if (at === -1) return 0;
  const rss = /\nRss:\s+(\d+) kB/.exec(text.slice(at));
  return rss ? Number(rss[1]) * 1024 : 0;
}
