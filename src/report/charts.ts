import { TIMELINE_SLICE_MS, type CallSlice } from '../api/http.js';
import type { RunSummary } from '../pipeline/summary.js';
import { printable } from '../shared/printable.js';
import { CHANGE_KINDS } from '../warehouse/changes.js';
import type { ReportFacts } from './facts.js';

// The charts of the HTML report, as ECharts options built from the run's summary and facts: pure data, drawn
// to SVG elsewhere (chart-svg.ts). A chart with nothing to draw says why instead (`empty`), so a night that
// sent no call or detected no change shows a sentence, not an empty frame.

export interface ChartSpec {
  /** Stable and unique in a report: the SVG's ids and classes are prefixed with it. */
  id: 'stages' | 'api' | 'changes' | 'lawsuits';
  title: string;
  /** What the chart shows, in a sentence under its title. */
  caption: string;
  width: number;
  height: number;
  /** Undefined when there is nothing to draw; `empty` then says why. */
  option?: Record<string, unknown>;
  empty?: string;
}

const WIDTH = 860;
/** Tribunals drawn one by one; the rest share a bar. A warehouse of the whole country holds some 90. */
const TRIBUNALS_SHOWN = 25;
/** Phases drawn in their own colour; the rest share one. */
const PHASES_SHOWN = 10;
/** Points of the API time line: a nine-hour night has some 3 000 slices of 10 s, too thin to tell apart as bars. */
const TIMELINE_POINTS = 240;

export const STATUS_COLOURS: Record<string, string> = {
  ok: '#3a8f5c', failed: '#c0392b', refused: '#d9822b', skipped: '#9aa0a6', interrupted: '#7d5ba6',
};
const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#2f4b7c'];
const OTHER = '#bab0ac';
const NONE = '#dddddd';

/** A label drawn inside a chart: one line, no control character, not too long for an axis. */
const label = (v: string | null | undefined, none: string, max = 40): string => (v === null || v === undefined || v === '' ? none : printable(v, max));

const seconds = (ms: number): string => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

/** `m:ss` or `h:mm:ss` after the first call. */
function clock(ms: number): string {
  const t = Math.round(ms / 1000);
  const [h, m, s] = [Math.floor(t / 3600), Math.floor((t % 3600) / 60), t % 60];
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}` : `${m}:${String(s).padStart(2, '0')}`;
}

const base = { animation: false, textStyle: { fontFamily: 'sans-serif' } };

function stageTimesChart(s: RunSummary): ChartSpec {
  const spec: ChartSpec = {
    id: 'stages', title: 'Time per stage', width: WIDTH, height: 70 + 30 * s.stages.length,
    caption: 'Seconds each stage took, in the order they ran; the colour is how it ended.',
  };
  if (s.stages.length === 0) return { ...spec, empty: 'This run has no stage.' };
  return {
    ...spec,
    option: {
      ...base,
      grid: { left: 90, right: 150, top: 20, bottom: 40 },
      xAxis: { type: 'value', name: 'seconds', nameLocation: 'middle', nameGap: 26 },
      yAxis: { type: 'category', inverse: true, data: s.stages.map((st) => st.name) },
      series: [{
        type: 'bar', barMaxWidth: 22,
        data: s.stages.map((st) => ({ value: st.ms / 1000, itemStyle: { color: STATUS_COLOURS[st.status] ?? OTHER } })),
        label: { show: true, position: 'right', formatter: ({ dataIndex }: { dataIndex: number }) => `${seconds(s.stages[dataIndex].ms)} · ${s.stages[dataIndex].status}` },
      }],
    },
  };
}

interface TimelinePoint { at: number; calls: number; limited: number; limit: number | null; remaining: number | null }

/**
 * The time line with its silent slices filled in (a slice is recorded only when a call was made) and merged
 * into at most `maxPoints` points: calls and 429s added up, the last limit seen, the lowest remaining budget.
 */
function timelinePoints(line: readonly CallSlice[], maxPoints = TIMELINE_POINTS, sliceMs = TIMELINE_SLICE_MS): { points: TimelinePoint[]; widthMs: number } {
  if (line.length === 0) return { points: [], widthMs: sliceMs };
  const slices = Math.floor(Math.max(...line.map((x) => x.at)) / sliceMs) + 1;
  const per = Math.max(1, Math.ceil(slices / maxPoints));
  const points: TimelinePoint[] = Array.from({ length: Math.ceil(slices / per) }, (_, i) => ({ at: i * per * sliceMs, calls: 0, limited: 0, limit: null, remaining: null }));
  for (const x of [...line].sort((a, b) => a.at - b.at)) {
    const p = points[Math.floor(x.at / sliceMs / per)];
    p.calls += x.calls;
    p.limited += x.limited;
    if (x.limit !== undefined) p.limit = x.limit;
    if (x.remaining !== undefined) p.remaining = Math.min(p.remaining ?? Infinity, x.remaining);
  }
  return { points, widthMs: per * sliceMs };
}

function apiCallsChart(s: RunSummary): ChartSpec {
  const { points, widthMs } = timelinePoints(s.api.timeline ?? []);
  const spec: ChartSpec = {
    id: 'api', title: 'API calls over the run, against the rate limit', width: WIDTH, height: 340,
    caption: `Bars: calls sent in each ${widthMs / 1000} s from the first call (red: answered 429). Lines: the key's calls per window `
      + '(X-RateLimit-Limit) and the lowest budget left in the window (X-RateLimit-Remaining) the provider reported then.',
  };
  if (points.length === 0 || s.api.calls === 0) return { ...spec, empty: 'This run sent no API call.' };
  const symbols = points.length <= 60;
  return {
    ...spec,
    option: {
      ...base,
      legend: { top: 0 },
      grid: { left: 60, right: 30, top: 40, bottom: 56 },
      xAxis: { type: 'category', data: points.map((p) => clock(p.at)), name: 'time since the first call', nameLocation: 'middle', nameGap: 32 },
      yAxis: { type: 'value', name: 'calls', minInterval: 1 },
      series: [
        { name: 'calls', type: 'bar', stack: 'calls', color: PALETTE[0], data: points.map((p) => p.calls - p.limited) },
        { name: 'answered 429', type: 'bar', stack: 'calls', color: '#c0392b', data: points.map((p) => p.limited) },
        { name: 'X-RateLimit-Limit', type: 'line', step: 'end', color: '#444444', lineStyle: { type: 'dashed' }, showSymbol: symbols, data: points.map((p) => p.limit) },
        { name: 'lowest X-RateLimit-Remaining', type: 'line', color: PALETTE[1], showSymbol: symbols, data: points.map((p) => p.remaining) },
      ],
    },
  };
}

function changesChart(s: RunSummary): ChartSpec {
  const kinds = s.changes ? CHANGE_KINDS.filter((k) => (s.changes!.counts[k] ?? 0) > 0) : [];
  const spec: ChartSpec = {
    id: 'changes', title: 'What changed tonight', width: WIDTH, height: 70 + 30 * Math.max(kinds.length, 1),
    caption: 'Lawsuits with each kind of change this run recorded in lawsuit_changes, against the previous detection.',
  };
  if (!s.changes) return { ...spec, empty: 'The changes stage did not run in this run: nothing was compared.' };
  if (kinds.length === 0) return { ...spec, empty: 'Nothing changed since the previous detection.' };
  return {
    ...spec,
    option: {
      ...base,
      grid: { left: 130, right: 80, top: 20, bottom: 40 },
      xAxis: { type: 'value', name: 'lawsuits', nameLocation: 'middle', nameGap: 26, minInterval: 1 },
      yAxis: { type: 'category', inverse: true, data: kinds },
      series: [{ type: 'bar', barMaxWidth: 22, color: PALETTE[0], data: kinds.map((k) => s.changes!.counts[k]), label: { show: true, position: 'right' } }],
    },
  };
}

function lawsuitsChart(facts: ReportFacts | undefined): ChartSpec {
  const rows = facts?.lawsuits.counts ?? [];
  const total = (key: (r: (typeof rows)[number]) => string) => {
    const m = new Map<string, number>();
    for (const r of rows) m.set(key(r), (m.get(key(r)) ?? 0) + r.lawsuits);
    return [...m].sort(([a, x], [b, y]) => y - x || a.localeCompare(b)).map(([k]) => k);
  };
  const tribunalOf = (r: (typeof rows)[number]) => label(r.tribunal, '(no tribunal)');
  const phaseOf = (r: (typeof rows)[number]) => label(r.phase, '(no phase)');
  const allTribunals = total(tribunalOf);
  const allPhases = total(phaseOf);
  const tribunals = allTribunals.length > TRIBUNALS_SHOWN ? [...allTribunals.slice(0, TRIBUNALS_SHOWN - 1), 'other tribunals'] : allTribunals;
  const named = allPhases.filter((p) => p !== '(no phase)');
  const phases = [...(named.length > PHASES_SHOWN ? [...named.slice(0, PHASES_SHOWN - 1), 'other phases'] : named), ...(allPhases.includes('(no phase)') ? ['(no phase)'] : [])];
  const spec: ChartSpec = {
    id: 'lawsuits', title: 'Lawsuits by tribunal and phase', width: WIDTH, height: Math.max(260, 70 + 26 * tribunals.length),
    caption: facts?.lawsuits.asOfRun
      ? `Every lawsuit in the warehouse as the change detection of run ${printable(facts.lawsuits.asOfRun, 80)} saw it, by tribunal, in the phase it had then.`
      : 'Every lawsuit in the warehouse, by tribunal, in the phase it had at this run\'s change detection.',
  };
  if (!facts) return { ...spec, empty: 'The warehouse could not be read for this chart.' };
  if (!facts.lawsuits.asOfRun) return { ...spec, empty: 'No change detection had run yet: no lawsuit is known to this report.' };
  if (rows.length === 0) return { ...spec, empty: 'The warehouse held no lawsuit at this run\'s change detection.' };
  const cells = new Map<string, number>();
  for (const r of rows) {
    const t = tribunals.includes(tribunalOf(r)) ? tribunalOf(r) : 'other tribunals';
    const p = phases.includes(phaseOf(r)) ? phaseOf(r) : 'other phases';
    cells.set(`${t}\u0000${p}`, (cells.get(`${t}\u0000${p}`) ?? 0) + r.lawsuits);
  }
  return {
    ...spec,
    option: {
      ...base,
      legend: { type: 'plain', orient: 'vertical', right: 0, top: 10, itemWidth: 14, itemHeight: 10, textStyle: { fontSize: 11 } },
      grid: { left: 100, right: 250, top: 10, bottom: 40 },
      xAxis: { type: 'value', name: 'lawsuits', nameLocation: 'middle', nameGap: 26, minInterval: 1 },
      yAxis: { type: 'category', inverse: true, data: tribunals },
      series: phases.map((p, i) => ({
        name: p, type: 'bar', stack: 'lawsuits', barMaxWidth: 20,
        color: p === '(no phase)' ? NONE : p === 'other phases' ? OTHER : PALETTE[i % PALETTE.length],
        data: tribunals.map((t) => cells.get(`${t}\u0000${p}`) ?? 0),
      })),
    },
  };
}

/** The report's charts, in the order the page shows them. */
export function reportCharts(s: RunSummary, facts: ReportFacts | undefined): ChartSpec[] {
  return [stageTimesChart(s), apiCallsChart(s), changesChart(s), lawsuitsChart(facts)];
}
