import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunSummary } from '../pipeline/summary.js';
import { EtlError } from '../shared/errors.js';
import { Warehouse } from '../warehouse/warehouse.js';
import { loadChartDrawer } from './chart-svg.js';
import { readReportFacts, type ReportFacts } from './facts.js';
import { renderHtmlReport } from './html.js';
import { renderMarkdownReport } from './markdown.js';

// The two reports of a run, `<run_id>.md` and `<run_id>.html`, written from what the warehouse records about
// it: the summary as stored in `runs.summary` and the facts read for that run (facts.ts). The run writes them
// at its end from its work copy; `writeRunReports` writes them again later from the published warehouse, and
// since both read the same records the same way, the files are the same.

/** Where a run's two reports were written. */
interface RunReports { runId: string; markdown: string; html: string }

/** What a run's reports are made of. */
interface ReportInput { summary: RunSummary; facts: ReportFacts | undefined }

/** Writes both reports (each atomically: a reader never sees half a file) and returns their paths. */
export async function writeReports(dir: string, input: ReportInput): Promise<RunReports> {
  const { summary, facts } = input;
  const draw = await loadChartDrawer();
  await mkdir(dir, { recursive: true });
  const markdown = join(dir, `${summary.runId}.md`);
  const html = join(dir, `${summary.runId}.html`);
  await writeAtomically(markdown, renderMarkdownReport(summary, facts));
  await writeAtomically(html, renderHtmlReport(summary, facts, draw));
  return { runId: summary.runId, markdown, html };
}

async function writeAtomically(path: string, text: string): Promise<void> {
  await writeFile(`${path}.tmp`, text);
  await rename(`${path}.tmp`, path);
}

/** A run's record, as a report needs it, from an open warehouse. `runId` undefined: the last run that has a summary. */
async function readReportInput(wh: Warehouse, runId?: string): Promise<ReportInput> {
  const rows = runId === undefined
    ? await wh.all<{ run_id: string; summary: string | null }>(
      'SELECT run_id, summary::VARCHAR AS summary FROM runs WHERE summary IS NOT NULL ORDER BY started_at DESC, run_id DESC LIMIT 1')
    : await wh.all<{ run_id: string; summary: string | null }>('SELECT run_id, summary::VARCHAR AS summary FROM runs WHERE run_id = $1', [runId]);
  const [row] = rows;
  if (!row) {
    throw runId === undefined
      ? new EtlError('REPORT_NO_RUN', `the warehouse ${wh.path} records no finished run yet: nothing to report`, { usage: true })
      : new EtlError('REPORT_UNKNOWN_RUN', `the warehouse ${wh.path} has no run ${JSON.stringify(runId)}; \`SELECT run_id, status FROM runs ORDER BY started_at\` lists them`, { usage: true });
  }
  const summary = row.summary === null ? undefined : (JSON.parse(row.summary) as Partial<RunSummary>);
  // A run killed before it finished has no summary, or only the note closeStaleRuns left in it.
  if (!summary || typeof summary.runId !== 'string' || !Array.isArray(summary.stages)) {
    throw new EtlError('REPORT_NO_SUMMARY', `run ${row.run_id} ended before it could record its summary (killed or crashed): there is nothing to report; its stages are in run_stages`, { usage: true });
  }
  return { summary: summary as RunSummary, facts: await readReportFacts(wh, row.run_id) };
}

interface WriteRunReportsOptions {
  /** The published warehouse, opened read-only (a run may be loading its work copy meanwhile). */
  warehouse: string;
  reportsDir: string;
  /** The run to report on. Default: the last run that recorded a summary. */
  runId?: string;
}

/** `lawsuit-etl report [--run ID]`: writes a run's two reports again, from the published warehouse. */
export async function writeRunReports(opts: WriteRunReportsOptions): Promise<RunReports> {
  if (!existsSync(opts.warehouse)) {
    throw new EtlError('REPORT_NO_WAREHOUSE', `no warehouse at ${opts.warehouse}: run \`lawsuit-etl run\` first, or name it with --warehouse / LAWSUIT_WAREHOUSE`, { usage: true });
  }
  const wh = await Warehouse.open(opts.warehouse, { readOnly: true });
  let input: ReportInput;
  try {
    input = await readReportInput(wh, opts.runId);
  } finally {
    await wh.close();
  }
  return writeReports(opts.reportsDir, input);
}
