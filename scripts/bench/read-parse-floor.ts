// The floor for loading a config repo: read every record file and parse it with js-yaml,
// nothing else (no schema checks, no merging, no responses). A loader that does the real
// work cannot beat this by much, so the service's start and the tool's validate are
// compared with it. Run as a fresh process, like them:
//   node scripts/bench/read-parse-floor.ts <repo>
// Prints one JSON line: files, bytes, in-process ms, and the RSS with every parsed record
// still held (the memory the plain parsed data takes).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';

const FOLDERS = ['clusters', 'platform_components', 'namespaces', 'rolebindings'];

const started = performance.now();
const repo = process.argv[2];
if (!repo) {
  console.error('usage: node scripts/bench/read-parse-floor.ts <repo>');
  process.exit(2);
}
const records: unknown[] = [];
let bytes = 0;
for (const folder of FOLDERS) {
  for (const name of readdirSync(join(repo, folder)).sort()) {
    if (!name.endsWith('.yaml')) continue;
    const raw = readFileSync(join(repo, folder, name));
    bytes += raw.length;
    records.push(load(raw.toString('utf8')));
  }
}
const ms = performance.now() - started;
console.log(JSON.stringify({ files: records.length, bytes, ms, rss: process.memoryUsage().rss }));
