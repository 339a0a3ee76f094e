import { cpuPhases } from '../cpu-phases.js';
import { documentsFinding, universeArgs, withUniverse } from '../documents.js';
import { at, type BenchPart } from '../part.js';
import { round } from '../round.js';

/**
 * Where the night's own CPU goes (bench/cpu-phases.ts), per 100,000 lawsuits: parse, flatten, staging, merge,
 * checkpoint, changes, publish; the whole night's figure is the memory part's `cpu_s_per_100k_lawsuits`.
 */
export const cpuPart: BenchPart = {
  name: 'cpu',
  keys: ['cpu_s_per_100k_by_phase', 'cpu_phases_lawsuits'],
  async run(scale, line) {
    const size = at(scale, { toy: { universe: 20_000, lawsuits: 300, min: 20 }, quick: { universe: 1_000_000, lawsuits: 3_000, min: 200 }, full: { universe: 1_000_000, lawsuits: 10_000, min: 200 } });
    const docs = await withUniverse(size.universe, (sb) => documentsFinding(sb, size.lawsuits, size.min));
    const r = await cpuPhases(docs.searches, universeArgs(size.universe));
    const per100k: Record<string, number> = {};
    for (const [phase, s] of Object.entries(r.seconds)) per100k[phase] = round((s / r.lawsuits) * 100_000, 1);
    const sum = round(Object.values(per100k).reduce((a, b) => a + b, 0), 1);
    for (const [phase, s] of Object.entries(per100k)) line(`cpu_s_per_100k ${phase}`, s, `${round(r.seconds[phase as keyof typeof r.seconds], 2)} CPU s for ${r.lawsuits} lawsuits`);
    line('cpu_s_per_100k (these phases)', sum, 'the rest of a night (HTTP, polling, the sweep, the ledger, start, reports): cpu_s_per_100k_lawsuits less this');
    return { cpu_s_per_100k_by_phase: per100k, cpu_phases_lawsuits: r.lawsuits };
  },
};
