import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

// The CLI the benchmark runs in child processes: the production build (`npm run build`, dist/), the one the
// image ships. The bench runs compiled (tsconfig.bench.json, dist-bench/bench/) by `npm run bench`, and from its
// sources (bench/) in the test that runs each part at toy size: the project's root is two folders up, or one.
// (The compiled bench's own copy of src/ would look for package.json beside dist-bench/src, not at the root.)
const here = dirname(fileURLToPath(import.meta.url));
const root = here.includes(`${sep}dist-bench${sep}`) ? join(here, '..', '..') : join(here, '..');
export const CLI = join(root, 'dist', 'cli', 'main.js');
