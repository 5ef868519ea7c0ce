// `npm run bench`: the read benchmark on 1,000 clusters (bench-read.ts); with --clusters
// (`npm run bench -- --clusters 1000,10000,50000`) the fleet-size benchmark (bench-scale.ts).
// Both run on import, reading their own arguments and environment.
if (process.argv.slice(2).some((arg) => arg === '--clusters' || arg.startsWith('--clusters='))) await import('./bench-scale.ts');
else await import('./bench-read.ts');
