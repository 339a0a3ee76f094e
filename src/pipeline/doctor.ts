import type { Logger } from 'pino';
import { LawsuitApi } from '../api/client.js';
import type { Config } from '../shared/config.js';
import { codeOf } from '../shared/failure-policy.js';
import { acquireRunLock } from '../shared/lock.js';
import { writeDialect } from '../warehouse/dialect-store.js';
import { Warehouse } from '../warehouse/warehouse.js';
import { dialectBase, probeDialect, type Finding } from './dialect.js';
import type { Dialect } from '../api/dialect.js';

// `lawsuit-etl doctor`: what the upstream behind a key accepts, found with at most 9 calls (src/pipeline/
// dialect.ts), printed, and remembered in the warehouse for the nights to come. It writes nothing else: no
// `runs` row, no work copy; when a run holds the lock (or the warehouse cannot be opened for writing) it only
// prints, and the next night learns the same for itself.

export interface DoctorReport {
  base: string;
  calls: number;
  findings: Finding[];
  dialect: Dialect;
  /** Whether the warehouse now remembers it, and if not why. */
  remembered: boolean;
  note?: string;
}

export async function runDoctor(cfg: Config, env: { apiKey: string; log: Logger; signal: AbortSignal }): Promise<DoctorReport> {
  const api = new LawsuitApi({ apiKey: env.apiKey, urls: cfg.urls, maxConcurrency: 2, deadlines: cfg.deadlines, logger: env.log, signal: env.signal });
  let probed;
  try {
    probed = await probeDialect(api, { resources: true });
  } finally {
    await api.close();
  }
  const base = dialectBase(cfg);
  const report: DoctorReport = { base, calls: probed.calls, findings: probed.findings, dialect: probed.dialect, remembered: false };
  let lock;
  try {
    lock = await acquireRunLock(cfg.lockFile, { command: 'doctor' });
  } catch (e) {
    report.note = `not remembered: ${codeOf(e) === 'RUN_LOCKED' ? 'a run holds the lock' : (e as Error).message} (the next night learns it itself)`;
    return report;
  }
  try {
    const wh = await Warehouse.open(cfg.warehouse, { memoryLimit: cfg.duckdbMemoryLimit });
    try {
      await writeDialect(wh, base, probed.dialect, { probeCalls: probed.calls, source: 'probe' });
      report.remembered = true;
    } finally {
      await wh.close();
    }
  } catch (e) {
    report.note = `not remembered: the warehouse could not be written (${(e as Error).message.split('\n')[0]}); the next night learns it itself`;
  } finally {
    await lock.release();
  }
  return report;
}

/** The report as a person reads it on a terminal: one plain line per finding. */
export function doctorLines(r: DoctorReport): string {
  const width = Math.max(...r.findings.map((f) => f.topic.length));
  return [
    `upstream ${r.base}: ${r.calls} calls`,
    ...r.findings.map((f) => `  ${f.topic.padEnd(width)}  ${f.result}`),
    r.remembered ? '  remembered in the warehouse for the nights to come' : `  ${r.note ?? 'not remembered'}`,
  ].join('\n');
}
