import { describeStage, nightFigures, stageOf, type RunSummary } from '../pipeline/summary.js';
import type { DrawChart } from './chart-svg.js';
import { reportCharts, STATUS_COLOURS, type ChartSpec } from './charts.js';
import { escapeHtml as e } from './escape-html.js';
import type { ReportFacts } from './facts.js';
import { WAREHOUSE_TOTALS } from './warehouse-totals.js';

// The HTML report of a run: one file that any browser opens as it is, offline — inline CSS, the charts as
// inline SVG drawn on the server, no script and no address to fetch. Its Content-Security-Policy forbids
// both, so that even a value that escaped escaping could neither run nor call out. Every text from outside
// (the provider's, the documents list's) goes through escapeHtml.

const RUN_COLOURS: Record<string, string> = {
  ok: STATUS_COLOURS.ok, partial: STATUS_COLOURS.refused, refused: STATUS_COLOURS.failed, 'usage-error': STATUS_COLOURS.failed,
  interrupted: STATUS_COLOURS.interrupted, unreachable: STATUS_COLOURS.failed, 'dry-run': STATUS_COLOURS.skipped,
  // `report` reads a warehouse read-only, unmigrated: one made before migration 140 calls a usage error `failed`.
  failed: STATUS_COLOURS.failed,
};

const CSS = `
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: #222; margin: 0; background: #f6f7f9; }
main { max-width: 920px; margin: 0 auto; padding: 24px 20px 48px; }
h1 { font-size: 22px; margin: 0 0 6px; word-break: break-all; }
h2 { font-size: 17px; margin: 28px 0 8px; }
h3 { font-size: 14px; margin: 18px 0 6px; }
p { margin: 4px 0 8px; }
.meta { color: #555; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; color: #fff; font-weight: 600; font-size: 12px; }
section, figure { background: #fff; border: 1px solid #e1e4e8; border-radius: 6px; padding: 4px 16px 14px; margin: 16px 0; }
figure svg { display: block; max-width: 100%; height: auto; }
.caption { color: #555; font-size: 13px; }
.empty { color: #777; font-style: italic; padding: 12px 0; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { text-align: left; vertical-align: top; padding: 4px 8px; border-bottom: 1px solid #eceef1; overflow-wrap: anywhere; }
th { background: #f3f4f6; font-weight: 600; }
td.num, th.num { text-align: right; white-space: nowrap; }
code { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f3f4f6; padding: 0 3px; border-radius: 3px; }
.status { white-space: nowrap; font-weight: 600; }
footer { color: #777; font-size: 12px; margin-top: 24px; }
`;

type Cell = string | { html: string; num?: boolean };
/** A table: header cells are literal; body cells are escaped text unless given as `{ html }`. */
function table(head: readonly string[], rows: ReadonlyArray<readonly Cell[]>, numeric: readonly number[] = []): string {
  const th = head.map((h, i) => `<th${numeric.includes(i) ? ' class="num"' : ''}>${h}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((c, i) => {
    const num = numeric.includes(i) ? ' class="num"' : '';
    return typeof c === 'string' ? `<td${num}>${e(c)}</td>` : `<td${num}>${c.html}</td>`;
  }).join('')}</tr>`).join('\n');
  return `<table>\n<thead><tr>${th}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

const status = (st: string): Cell => ({ html: `<span class="status" style="color:${STATUS_COLOURS[st] ?? '#222'}">${e(st)}</span>` });
const count = (n: number): Cell => ({ html: e(n.toLocaleString('en-US')), num: true });

function figure(spec: ChartSpec, draw: DrawChart): string {
  const body = spec.option ? draw({ ...spec, option: spec.option }) : `<p class="empty">${e(spec.empty ?? 'Nothing to draw.')}</p>`;
  return `<figure id="chart-${spec.id}" class="chart">\n<h2>${e(spec.title)}</h2>\n<p class="caption">${e(spec.caption)}</p>\n${body}\n</figure>`;
}

/**
 * Pure but for `draw`: the HTML report of one run, from its summary as stored in `runs.summary` and the facts
 * the warehouse holds about it (undefined when it could not be read: those parts then say so).
 */
export function renderHtmlReport(s: RunSummary, facts: ReportFacts | undefined, draw: DrawChart): string {
  const parts: string[] = [];
  parts.push(`<header>
<h1>Run ${e(s.runId)}</h1>
<p class="meta"><span class="badge" style="background:${RUN_COLOURS[s.status] ?? '#555'}">${e(s.status)}</span>
command <code>${e(s.command)}</code>, exit ${e(s.exitCode)}, from ${e(s.startedAt)} to ${e(s.finishedAt)} (${e((s.durationMs / 1000).toFixed(1))} s)</p>
</header>`);

  parts.push(`<section id="stages">\n<h2>Stages</h2>\n${table(['stage', 'status', 'seconds', 'what it did'],
    s.stages.map((st) => [st.name, status(st.status), { html: e((st.ms / 1000).toFixed(1)), num: true }, describeStage(st, s)]), [2])}\n</section>`);

  const night = nightFigures(s);
  if (night) {
    parts.push(`<section id="night">\n<h2>Night</h2>\n${table(['', ''],
      night.map(([k, v]): Cell[] => [k, typeof v === 'number' ? count(v) : v]), [1])}\n</section>`);
  }
  if (s.failures.length) {
    parts.push(`<section id="failures">\n<h2>Failures</h2>\n${table(['stage', 'what', 'where', 'code', 'reason'],
      s.failures.map((f) => [f.stage, f.what, f.where, { html: `<code>${e(f.code, 200)}</code>` }, f.reason]))}\n</section>`);
  }
  if (s.notes?.length) parts.push(`<section id="notes">\n<h2>Notes</h2>\n<ul>\n${s.notes.map((n) => `<li>${e(n)}</li>`).join('\n')}\n</ul>\n</section>`);

  for (const spec of reportCharts(s, facts)) parts.push(figure(spec, draw));

  parts.push(rejectedSection(s, facts));
  parts.push(changesSection(s, facts));

  if (s.warehouse) {
    const w = s.warehouse;
    parts.push(`<section id="warehouse">\n<h2>Warehouse</h2>\n${table(['', 'rows'], [
      ['lawsuits seen in this run', count(w.lawsuitsThisRun)],
      ...WAREHOUSE_TOTALS.map((t): Cell[] => [t.label, count(w[t.field])])], [1])}\n</section>`);
  }
  const byRoute = Object.entries(s.api.byRouteStatus ?? s.api.byStatus).sort(([a], [b]) => a.localeCompare(b));
  parts.push(`<section id="api-calls">\n<h2>API calls</h2>\n<p>${e(s.api.calls)} calls, ${e(s.api.retries)} retries.</p>\n${
    byRoute.length ? table([s.api.byRouteStatus ? 'route and status' : 'status', 'calls'], byRoute.map(([k, v]) => [k, count(v)]), [1]) : ''}\n</section>`);

  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>lawsuit-etl run ${e(s.runId)}</title>
<style>${CSS}</style>
</head>
<body>
<main>
${parts.filter(Boolean).join('\n')}
<footer>Written by lawsuit-etl from <code>runs.summary</code> and the warehouse; <code>lawsuit-etl report --run ${e(s.runId)}</code> writes it again.</footer>
</main>
</body>
</html>
`;
}

function rejectedSection(s: RunSummary, facts: ReportFacts | undefined): string {
  const head = '<section id="rejected">\n<h2>Rejected lines</h2>';
  if (!facts) {
    const n = stageOf(s, 'documents')?.counts.rejected ?? 0;
    return `${head}\n<p class="empty">The warehouse could not be read: ${e(n)} rejected lines are in <code>rejected_inputs</code>.</p>\n</section>`;
  }
  const { total, shown } = facts.rejected;
  if (total === 0) return `${head}\n<p class="empty">No line of the documents list was rejected.</p>\n</section>`;
  const more = total > shown.length
    ? `\n<p>… and ${e(total - shown.length)} more, see <code>rejected_inputs</code> (run_id = '${e(s.runId)}').</p>` : '';
  return `${head}\n<p>${e(total)} lines of the documents list were rejected, each recorded in <code>rejected_inputs</code>; the rest of the list ran.</p>\n${
    table(['line', 'value', 'reason'], shown.map((r) => [{ html: e(r.line), num: true }, { html: r.value === null ? '' : `<code>${e(r.value, 500)}</code>` }, r.reason]), [0])}${more}\n</section>`;
}

function changesSection(s: RunSummary, facts: ReportFacts | undefined): string {
  if (!s.changes) return '';
  const top = s.changes.top.filter((c) => c.change !== 'new_lawsuit');
  const parts = ['<section id="changes">\n<h2>The most telling changes</h2>'];
  parts.push(top.length
    ? table(['lawsuit', 'instance', 'change', 'old', 'new'], top.map((c) => [c.code, { html: e(c.instance), num: true }, c.change, c.old_value ?? '', c.new_value ?? '']), [1])
    : '<p class="empty">No lawsuit already known changed tonight (new lawsuits are counted in the chart above).</p>');
  if (facts?.phaseMoves.length) {
    parts.push('<h3>Phase moves</h3>', table(['from', 'to', 'lawsuits'], facts.phaseMoves.map((m) => [m.from ?? '(none)', m.to ?? '(none)', count(m.lawsuits)]), [2]));
  }
  parts.push('</section>');
  return parts.join('\n');
}
