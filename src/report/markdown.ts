import { describeStage, nightFigures, stageOf, type RunSummary } from '../pipeline/summary.js';
import { printable } from '../shared/printable.js';
import type { ReportFacts } from './facts.js';
import { WAREHOUSE_TOTALS } from './warehouse-totals.js';

// The Markdown report of a run: the stages, the notes, the warehouse, the API calls, what changed, the
// failures and the rejected lines, for a terminal or a repository viewer. Its charts are in the HTML report.

/** Table-cell text: one line, no pipe that would end the cell, no control character. */
const cell = (v: string | number): string => printable(String(v), 500).replace(/\|/g, '\\|').replace(/\n/g, ' ');

/**
 * Pure: the Markdown report of one run, from its summary as stored in `runs.summary` and the facts the
 * warehouse holds about it (facts.ts; undefined when the warehouse could not be read: the rejected lines are
 * then only counted).
 */
export function renderMarkdownReport(s: RunSummary, facts: ReportFacts | undefined): string {
  const rows = (pairs: Array<[string, string | number]>) => pairs.map(([k, v]) => `| ${cell(k)} | ${cell(v)} |`).join('\n');
  const parts = [
    `# Run ${s.runId}`,
    '',
    `Command \`${s.command}\`, status **${s.status}** (exit ${s.exitCode}), from ${s.startedAt} to ${s.finishedAt} (${(s.durationMs / 1000).toFixed(1)} s).`,
    `Charts: [${s.runId}.html](${s.runId}.html).`,
    '',
    '## Stages',
    '',
    '| stage | status | seconds | what it did |', '|---|---|---|---|',
    ...s.stages.map((st) => `| ${st.name} | ${st.status} | ${(st.ms / 1000).toFixed(1)} | ${cell(describeStage(st, s))} |`),
  ];
  const night = nightFigures(s);
  if (night) parts.push('', '## Night', '', '| | |', '|---|---|', rows(night));
  if (s.notes?.length) parts.push('', '## Notes', '', ...s.notes.map((n) => `- ${cell(n)}`));
  if (s.warehouse) {
    const w = s.warehouse;
    parts.push('', '## Warehouse', '', '| | rows |', '|---|---|',
      rows([['lawsuits seen in this run', w.lawsuitsThisRun], ...WAREHOUSE_TOTALS.map((t): [string, number] => [t.label, w[t.field]])]));
  }
  parts.push('', '## API calls', '', '| status | calls |', '|---|---|',
    rows(Object.entries(s.api.byStatus).sort(([a], [b]) => a.localeCompare(b))), `| retries | ${s.api.retries} |`);
  if (s.changes) {
    parts.push('', '## What changed', '', '| change | lawsuits |', '|---|---|', rows(Object.entries(s.changes.counts).filter(([, v]) => v > 0)));
    if (s.changes.top.length) {
      parts.push('', '| lawsuit | instance | change | old | new |', '|---|---|---|---|---|',
        ...s.changes.top.map((c) => `| ${c.code} | ${c.instance} | ${c.change} | ${cell(c.old_value ?? '')} | ${cell(c.new_value ?? '')} |`));
    }
  }
  if (s.failures.length) {
    parts.push('', '## Failures', '', '| stage | what | where | code | reason |', '|---|---|---|---|---|',
      ...s.failures.map((f) => `| ${f.stage} | ${f.what} | ${cell(f.where)} | ${cell(f.code)} | ${cell(f.reason)} |`));
  }
  parts.push(...rejectedSection(s, facts));
  return parts.join('\n') + '\n';
}

function rejectedSection(s: RunSummary, facts: ReportFacts | undefined): string[] {
  if (!facts) {
    const n = stageOf(s, 'documents')?.counts.rejected ?? 0;
    return n > 0 ? ['', '## Rejected lines', '', `${n} lines of the documents list were rejected; see \`rejected_inputs\` (run_id = '${s.runId}').`] : [];
  }
  const { total, shown } = facts.rejected;
  if (total === 0) return [];
  const lines = ['', '## Rejected lines', '', `${total} lines of the documents list were rejected, each recorded in \`rejected_inputs\`:`, '',
    '| line | value | reason |', '|---|---|---|',
    ...shown.map((r) => `| ${r.line} | ${cell(r.value ?? '')} | ${cell(r.reason)} |`)];
  if (total > shown.length) lines.push('', `... and ${total - shown.length} more, see \`rejected_inputs\` (run_id = '${s.runId}').`);
  return lines;
}
