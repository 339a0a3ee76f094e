import { PARTS } from './parts/index.js';
import { printLine, type Scale } from './part.js';

// `npm run bench`: the figures the nightly run is held to, measured against the sandbox, printed as a table; the
// last line is one JSON object for scripts, every part's figures in it. BENCH_QUICK=1 runs smaller volumes;
// BENCH_ONLY=<part> runs one part alone (bench/parts/: rate, night, calls, load, rebuild, memory, transfer, sandbox,
// tracked; docs/benchmarks.md says what each measures and how long it takes). BENCH_MIX=a,b runs only those mixes
// of the calls part; RSS_TRACE=1 prints a measured run's RSS every 5 s; BENCH_NODE_FLAGS replaces the Node flags of
// the measured runs (default: the production memory budget).

async function main(): Promise<void> {
  const scale: Scale = process.env.BENCH_QUICK === '1' ? 'quick' : 'full';
  const only = process.env.BENCH_ONLY;
  const parts = only ? PARTS.filter((p) => p.name === only) : PARTS;
  if (parts.length === 0) throw new Error(`BENCH_ONLY=${only}: the parts are ${PARTS.map((p) => `"${p.name}"`).join(', ')}`);
  console.log(`lawsuit-etl benchmark (sandbox, ${scale}${only ? `, ${only} only` : ''})\n`);
  const t0 = Date.now();
  const figures: Record<string, unknown> = {};
  for (const part of parts) {
    const t = Date.now();
    Object.assign(figures, await part.run(scale, printLine, Boolean(only)));
    printLine(`(${part.name} part)`, '', `${Math.round((Date.now() - t) / 1000)} s`);
  }
  figures.bench_minutes = Math.round((Date.now() - t0) / 6_000) / 10;
  console.log(JSON.stringify(figures));
}

main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
