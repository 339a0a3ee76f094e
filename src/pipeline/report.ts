import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunSummary } from './summary.js';

/** Pure: the Markdown report of one run. */
export function renderReport(s: RunSummary): string {
  const rows = (pairs: Array<[string, string | number]>) => pairs.map(([k, v]) => `| ${k} | ${v} |`).join('\n');
  const parts = [
    `# Run ${s.runId}`,
    '',
    `Command \`${s.command}\`, status **${s.status}**, from ${s.startedAt} to ${s.finishedAt} (${(s.durationMs / 1000).toFixed(1)} s).`,
    '',
    '## Documents',
    '',
    '| | count |', '|---|---|',
    rows([['listed', s.documents.listed], ['valid', s.documents.valid], ['rejected', s.documents.rejected], ['duplicates', s.documents.duplicates],
      ['fresh (not searched again)', s.documents.fresh], ['searched', s.documents.toSearch], ['resumed from an earlier run', s.documents.resumed]]),
    '',
    '## Requests and responses',
    '',
    '| | count |', '|---|---|',
    rows([['submitted', s.requests.submitted], ['adopted after an interrupted submission', s.requests.adopted], ['completed and loaded', s.requests.completed],
      ['still running (next run continues)', s.requests.stillRunning], ['failed', s.requests.failed], ['resubmitted after cancel', s.requests.resubmittedCancelled],
      ['pages read', s.requests.pages], ['polling calls', s.requests.polls]]),
    '',
    '## Warehouse',
    '',
    '| | rows |', '|---|---|',
    rows([['lawsuits seen in this run', s.warehouse.lawsuitsThisRun], ['lawsuits', s.warehouse.lawsuits], ['parties', s.warehouse.parties],
      ['lawyers', s.warehouse.lawyers], ['steps', s.warehouse.steps], ['raw responses', s.warehouse.responses]]),
    '',
    '## API calls',
    '',
    '| status | calls |', '|---|---|',
    rows(Object.entries(s.api.byStatus).sort(([a], [b]) => a.localeCompare(b))),
    `| retries | ${s.api.retries} |`,
  ];
  if (s.transfer) {
    parts.push('', '## Transfer files', '', '| | count |', '|---|---|',
      rows([['listed', s.transfer.listed], ['loaded', s.transfer.loaded], ['rows loaded', s.transfer.rows], ['already loaded', s.transfer.skipped], ['failed', s.transfer.failed]]));
  }
  if (s.changes) {
    parts.push('', '## What changed', '', '| change | lawsuits |', '|---|---|', rows(Object.entries(s.changes.counts).filter(([, n]) => n > 0)));
    if (s.changes.top.length) {
      parts.push('', '| lawsuit | instance | change | old | new |', '|---|---|---|---|---|',
        ...s.changes.top.map((c) => `| ${c.code} | ${c.instance} | ${c.change} | ${c.old_value ?? ''} | ${c.new_value ?? ''} |`));
    }
  }
  if (s.exports) parts.push('', '## Exports', '', `${s.exports.tables} tables, ${s.exports.rows} rows, in \`${s.exports.dir}\`.`);
  if (s.failures.length) {
    parts.push('', '## Failures', '', '| what | where | code | reason |', '|---|---|---|---|',
      ...s.failures.map((f) => `| ${f.what} | ${f.where} | ${f.code} | ${f.reason.replace(/\|/g, '\\|').replace(/\n/g, ' ')} |`));
  }
  return parts.join('\n') + '\n';
}

/** Writes data/reports/<run_id>.md (atomically) and returns its path. */
export async function writeReport(dir: string, s: RunSummary): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${s.runId}.md`);
  await writeFile(`${path}.tmp`, renderReport(s));
  await rename(`${path}.tmp`, path);
  return path;
}
