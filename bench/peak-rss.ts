import { readFileSync } from 'node:fs';

// What /proc says of a child process while it runs (Linux only, like the benchmark): its peak resident memory and
// the CPU time it has used. Both are read by sampling; the last sample is at most one interval before the child
// exits, which for CPU time misses at most that interval's work (a run of minutes sampled every 100 ms).

/** A child's peak resident memory so far (VmHWM), MB; 0 once it has exited. */
export function peakRss(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Clock ticks a second of /proc/<pid>/stat's times (USER_HZ: 100 on every Linux the bench runs on). */
const TICKS_PER_SECOND = 100;

/**
 * The CPU seconds a process has used so far, user and system, all its threads (DuckDB's included); undefined once
 * it has exited. Fields 14 and 15 of /proc/<pid>/stat, counted after the command name's closing parenthesis.
 */
export function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After ") ": state is field 3, so utime (14) and stime (15) are at 11 and 12.
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}
