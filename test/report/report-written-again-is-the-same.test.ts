import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandResult } from '../../src/pipeline/runner.js';
import { readReportFacts } from '../../src/report/facts.js';
import { writeRunReports } from '../../src/report/run-reports.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { configFor, nightRun, scratch } from '../support/pipeline.js';
import { exitCodeOfError } from '../support/exit.js';

// `lawsuit-etl report --run ID` writes a run's reports again from the published warehouse. Two nights, half a
// year of sandbox time apart, so that lawsuits move phase in between: the reports of the first night written
// again after the second must be the files the first night wrote at its end, byte for byte — its lawsuits
// by tribunal and phase as its own detection saw them, not as the warehouse holds them now.

const tmp = scratch('report-again-');
const whPath = join(tmp.dir, 'warehouse.duckdb');
let sandbox: Sandbox;
const nights: CommandResult[] = [];

const night = (): Promise<CommandResult> =>
  nightRun(configFor(sandbox.url, tmp.dir, { LAWSUIT_FRESHNESS_DAYS: '0', LAWSUIT_SKIP_TRANSFER: 'true', LAWSUIT_SKIP_EXPORT: 'true' }));

const read = (path: string) => readFileSync(path, 'utf8');

beforeAll(async () => {
  sandbox = await startSandbox({ courtDelayMs: 0, rateLimit: 100_000, now: new Date('2025-03-03T03:00:00Z') });
  nights.push(await night());
  sandbox.advanceDays(180);
  nights.push(await night());
  for (const n of nights) expect(n.summary.status, JSON.stringify(n.summary.failures)).toBe('ok');
});

afterAll(async () => {
  await sandbox?.close();
  tmp.cleanup();
});

describe('the reports of a run, written again', () => {
  it('the night in between moved lawsuits to other phases, so "as the run saw them" is not "as they are now"', async () => {
    const wh = await Warehouse.open(whPath, { readOnly: true });
    try {
      const [first, second] = [await readReportFacts(wh, nights[0].summary.runId), await readReportFacts(wh, nights[1].summary.runId)];
      expect(second.phaseMoves.length).toBeGreaterThan(0);
      expect(first.lawsuits.asOfRun).toBe(nights[0].summary.runId);
      expect(second.lawsuits.asOfRun).toBe(nights[1].summary.runId);
      expect(first.lawsuits.counts).not.toEqual(second.lawsuits.counts);
      expect(first.rejected.total).toBe(4);
    } finally {
      await wh.close();
    }
  });

  it('are, for the earlier night, the very files it wrote at its end', async () => {
    const first = nights[0].reports!;
    expect(first).toBeDefined();
    const again = await writeRunReports({ warehouse: whPath, reportsDir: join(tmp.dir, 'again'), runId: nights[0].summary.runId });
    expect(again.runId).toBe(nights[0].summary.runId);
    expect(read(again.markdown)).toBe(read(first.markdown));
    expect(read(again.html)).toBe(read(first.html));
    expect(read(first.html)).toContain('CPF check digits do not match');
  });

  it('are, by default, those of the last run', async () => {
    const last = nights[1].reports!;
    const again = await writeRunReports({ warehouse: whPath, reportsDir: join(tmp.dir, 'last') });
    expect(again.runId).toBe(nights[1].summary.runId);
    expect(read(again.html)).toBe(read(last.html));
    expect(read(again.markdown)).toBe(read(last.markdown));
    expect(read(again.html)).not.toBe(read(nights[0].reports!.html));
  });

  it('name what is missing: an unknown run, or no warehouse at all', async () => {
    const unknown = await writeRunReports({ warehouse: whPath, reportsDir: join(tmp.dir, 'x'), runId: 'no-such-run' }).then(() => undefined, (e: unknown) => e);
    expect(unknown).toMatchObject({ code: 'REPORT_UNKNOWN_RUN' });
    expect(exitCodeOfError(unknown)).toBe(2);
    const absent = await writeRunReports({ warehouse: join(tmp.dir, 'absent.duckdb'), reportsDir: join(tmp.dir, 'x') }).then(() => undefined, (e: unknown) => e);
    expect(absent).toMatchObject({ code: 'REPORT_NO_WAREHOUSE' });
    expect(exitCodeOfError(absent)).toBe(2);
  });
});
