import { fileURLToPath } from 'node:url';

// The CLI the benchmark runs in child processes: the production build (`npm run build`, dist/), the one the
// image ships. The bench itself is compiled apart (tsconfig.bench.json, dist-bench/) with its own copy of the
// modules it calls in process; that copy's CLI would look for package.json beside dist-bench/src, not here.
export const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
