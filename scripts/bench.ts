// `npm run bench`: the read benchmark on 1,000 clusters (bench-read.ts); with --clusters
// (`npm run bench -- --clusters 1000,10000,50000`) the fleet-size benchmark (bench-scale.ts);
// with --change-set (`npm run bench -- --change-set`) one change set of 100 writes against 100
// single writes at 10,000 clusters (bench-change-set.ts); with --preview the preview of a change
// set next to `diff`, and the history's cost per publication (bench-preview.ts); with --rollout
// (`npm run bench -- --rollout [--clusters 50000]`) reads, status and a release commit with a
// rollout on the fleet against none (bench-rollout.ts). Each runs on import, reading its own
// arguments and environment.
const args = process.argv.slice(2);
if (args.includes('--rollout')) await import('./bench-rollout.ts');
else if (args.includes('--preview')) await import('./bench-preview.ts');
else if (args.some((arg) => arg === '--clusters' || arg.startsWith('--clusters='))) await import('./bench-scale.ts');
else if (args.includes('--change-set')) await import('./bench-change-set.ts');
else await import('./bench-read.ts');
