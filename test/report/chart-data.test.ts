import { describe, expect, it } from 'vitest';
import type { CallSlice } from '../../src/api/call-stats.js';
import { reportCharts } from '../../src/report/charts.js';
import type { ReportFacts, TribunalPhaseCount } from '../../src/report/facts.js';
import { facts, summary } from './fixtures.js';

// What the charts are drawn from: the API time line filled and merged without losing a call, the lawsuits
// grouped so that a country-wide warehouse stays readable without losing a lawsuit.

type Series = { name: string; data: Array<number | null> };
const seriesOf = (option: Record<string, unknown> | undefined) => (option!.series as Series[]);
const sum = (xs: Array<number | null>) => xs.reduce<number>((a, b) => a + (b ?? 0), 0);

/** One chart of the report, as the report draws it. */
const chart = (id: string, f: ReportFacts | undefined = facts(), s = summary()) => reportCharts(s, f).find((c) => c.id === id)!;

/** The API chart of a run whose time line is `line`: its time labels, caption and series, as drawn. */
function apiChart(line: CallSlice[]) {
  const spec = chart('api', facts(), summary({ api: { ...summary().api, timeline: line } }));
  const [ok, limited, limit, remaining] = seriesOf(spec.option);
  return { spec, labels: (spec.option!.xAxis as { data: string[] }).data, ok: ok.data, limited: limited.data, limit: limit.data, remaining: remaining.data };
}

describe('the API time line', () => {
  it('fills the slices in which no call was made with zero calls and no rate-limit reading', () => {
    const c = apiChart([{ at: 0, calls: 3, limited: 0, limit: 10, remaining: 7 }, { at: 30_000, calls: 2, limited: 1 }]);
    expect(c.spec.caption).toContain('calls sent in each 10 s');
    expect(c.labels).toEqual(['0:00', '0:10', '0:20', '0:30']);
    expect(c.ok).toEqual([3, 0, 0, 1]);
    expect(c.limited).toEqual([0, 0, 0, 1]);
    expect(c.limit).toEqual([10, null, null, null]);
    expect(c.remaining).toEqual([7, null, null, null]);
  });

  it('merges a long night into at most the points it draws: calls and 429s added, the lowest budget left kept', () => {
    const line = Array.from({ length: 3000 }, (_, i) => ({ at: i * 10_000, calls: 1 + (i % 5), limited: i % 7 === 0 ? 1 : 0, limit: 100 + (i % 3), remaining: 50 - (i % 50) }));
    const c = apiChart(line);
    expect(c.labels.length).toBeLessThanOrEqual(240);
    expect(c.spec.caption).toContain('calls sent in each 130 s');
    expect(sum(c.ok) + sum(c.limited)).toBe(sum(line.map((x) => x.calls)));
    expect(sum(c.limited)).toBe(sum(line.map((x) => x.limited)));
    expect(c.remaining[0]).toBe(Math.min(...line.slice(0, 13).map((x) => x.remaining)));
    expect(c.limit[0]).toBe(line[12].limit);
    // past the hour, the time since the first call gains its hours
    expect([c.labels[1], c.labels[28], c.labels.at(-1)]).toEqual(['2:10', '1:00:40', '8:18:20']);
  });

  it('draws the calls that were answered and those answered 429 as one stack per slice', () => {
    const spec = chart('api');
    const [ok, limited, limit, remaining] = seriesOf(spec.option);
    expect(ok.data).toEqual([60, 30, 0, 0, 75]);
    expect(limited.data).toEqual([0, 20, 0, 0, 5]);
    expect(limit.data).toEqual([100, 100, null, null, 100]);
    expect(remaining.data).toEqual([40, 0, null, null, 12]);
    expect((spec.option!.xAxis as { data: string[] }).data).toEqual(['0:00', '0:10', '0:20', '0:30', '0:40']);
  });
});

describe('the lawsuits by tribunal and phase', () => {
  it('draws every lawsuit once, in the phase and tribunal it was counted in', () => {
    const f = facts();
    const spec = chart('lawsuits', f);
    const series = seriesOf(spec.option);
    expect(sum(series.flatMap((s) => s.data))).toBe(sum(f.lawsuits.counts.map((c) => c.lawsuits)));
    const tribunals = (spec.option!.yAxis as { data: string[] }).data;
    expect(tribunals).toEqual(['TJSP', 'TJMG', '<img src=x onerror=alert(1)>', '(no tribunal)']);
    expect(series.find((s) => s.name === '(no phase)')!.data).toEqual([0, 0, 7, 0]);
  });

  it('groups the tribunals past the largest and the phases past the most common, the largest named first, losing no lawsuit', () => {
    const counts: TribunalPhaseCount[] = [];
    for (let t = 0; t < 40; t++) for (let p = 0; p < 15; p++) counts.push({ tribunal: `T${t}`, phase: `P${p}`, lawsuits: 1 + t + p });
    const spec = chart('lawsuits', facts({ lawsuits: { asOfRun: 'r', counts } }));
    const tribunals = (spec.option!.yAxis as { data: string[] }).data;
    expect(tribunals.length).toBeLessThan(40);
    expect(tribunals.slice(0, -1)).toEqual(Array.from({ length: tribunals.length - 1 }, (_, i) => `T${39 - i}`));
    expect(tribunals.at(-1)).toBe('other tribunals');
    const series = seriesOf(spec.option);
    expect(series.length).toBeLessThan(15);
    expect(series.slice(0, -1).map((s) => s.name)).toEqual(Array.from({ length: series.length - 1 }, (_, i) => `P${14 - i}`));
    expect(series.at(-1)!.name).toBe('other phases');
    expect(sum(series.flatMap((s) => s.data))).toBe(sum(counts.map((c) => c.lawsuits)));
  });
});
