import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { printable } from '../shared/printable.js';
import { describeStage, type RunSummary } from './summary.js';

/** Table-cell text: one line, no pipe that would end the cell, no control character. */
const cell = (v: string | number): string => printable(String(v), 500).replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Pure: the Markdown report of one run. */
export function renderReport(s: RunSummary): string {
  const rows = (pairs: Array<[string, string | number]>) => pairs.map(([k, v]) => `| ${cell(k)} | ${cell(v)} |`).join('\n');
  const parts = [
    `# Run ${s.runId}`,
    '',
    `Command \`${s.command}\`, status **${s.status}** (exit ${s.exitCode}), from ${s.startedAt} to ${s.finishedAt} (${(s.durationMs / 1000).toFixed(1)} s).`,
    '',
    '## Stages',
    '',
    '| stage | status | seconds | what it did |', '|---|---|---|---|',
    ...s.stages.map((st) => `| ${st.name} | ${st.status} | ${(st.ms / 1000).toFixed(1)} | ${cell(describeStage(st, s))} |`),
  ];
  if (s.notes?.length) parts.push('', '## Notes', '', ...s.notes.map((n) => `- ${cell(n)}`));
  if (s.warehouse) {
    const w = s.warehouse;
    parts.push('', '## Warehouse', '', '| | rows |', '|---|---|',
      rows([['lawsuits seen in this run', w.lawsuitsThisRun], ['lawsuits', w.lawsuits], ['parties', w.parties],
        ['lawyers', w.lawyers], ['steps', w.steps], ['raw responses', w.responses]]));
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
