import { readFileSync } from 'node:fs';

/** A child's peak resident memory so far (VmHWM), MB; 0 once it has exited. Linux only, like the benchmark. */
export function peakRss(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}
