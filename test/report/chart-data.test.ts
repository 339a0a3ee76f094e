import { describe, expect, it } from 'vitest';
import { apiCallsChart, clock, lawsuitsChart, PHASES_SHOWN, timelinePoints, TRIBUNALS_SHOWN } from '../../src/report/charts.js';
import type { TribunalPhaseCount } from '../../src/report/facts.js';
import { facts, summary } from './fixtures.js';

// What the charts are drawn from: the API time line filled and merged without losing a call, the lawsuits
// grouped so that a country-wide warehouse stays readable without losing a lawsuit.

type Series = { name: string; data: Array<number | null> };
const seriesOf = (option: Record<string, unknown> | undefined) => (option!.series as Series[]);
const sum = (xs: Array<number | null>) => xs.reduce<number>((a, b) => a + (b ?? 0), 0);

describe('the API time line', () => {
  it('fills the slices in which no call was made with zero calls and no rate-limit reading', () => {
    const { points, widthMs } = timelinePoints([{ at: 0, calls: 3, limited: 0, limit: 10, remaining: 7 }, { at: 30_000, calls: 2, limited: 1 }], 100, 10_000);
    expect(widthMs).toBe(10_000);
    expect(points).toEqual([
      { at: 0, calls: 3, limited: 0, limit: 10, remaining: 7 },
      { at: 10_000, calls: 0, limited: 0, limit: null, remaining: null },
      { at: 20_000, calls: 0, limited: 0, limit: null, remaining: null },
      { at: 30_000, calls: 2, limited: 1, limit: null, remaining: null },
    ]);
  });

  it('merges a long night into at most the points it draws: calls and 429s added, the lowest budget left kept', () => {
    const line = Array.from({ length: 3000 }, (_, i) => ({ at: i * 10_000, calls: 1 + (i % 5), limited: i % 7 === 0 ? 1 : 0, limit: 100 + (i % 3), remaining: 50 - (i % 50) }));
    const { points, widthMs } = timelinePoints(line, 240, 10_000);
    expect(points.length).toBeLessThanOrEqual(240);
    expect(widthMs).toBe(130_000);
    expect(sum(points.map((p) => p.calls))).toBe(sum(line.map((x) => x.calls)));
    expect(sum(points.map((p) => p.limited))).toBe(sum(line.map((x) => x.limited)));
    expect(points[0].remaining).toBe(Math.min(...line.slice(0, 13).map((x) => x.remaining)));
    expect(points[0].limit).toBe(line[12].limit);
  });

  it('draws the calls that were answered and those answered 429 as one stack per slice', () => {
    const spec = apiCallsChart(summary());
    const [ok, limited, limit, remaining] = seriesOf(spec.option);
    expect(ok.data).toEqual([60, 30, 0, 0, 75]);
    expect(limited.data).toEqual([0, 20, 0, 0, 5]);
    expect(limit.data).toEqual([100, 100, null, null, 100]);
    expect(remaining.data).toEqual([40, 0, null, null, 12]);
    expect((spec.option!.xAxis as { data: string[] }).data).toEqual(['0:00', '0:10', '0:20', '0:30', '0:40']);
    expect(clock(3_723_000)).toBe('1:02:03');
  });
});

describe('the lawsuits by tribunal and phase', () => {
  it('draws every lawsuit once, in the phase and tribunal it was counted in', () => {
    const f = facts();
    const spec = lawsuitsChart(f);
    const series = seriesOf(spec.option);
    expect(sum(series.flatMap((s) => s.data))).toBe(sum(f.lawsuits.counts.map((c) => c.lawsuits)));
    const tribunals = (spec.option!.yAxis as { data: string[] }).data;
    expect(tribunals).toEqual(['TJSP', 'TJMG', '<img src=x onerror=alert(1)>', '(no tribunal)']);
    expect(series.find((s) => s.name === '(no phase)')!.data).toEqual([0, 0, 7, 0]);
  });

  it(`groups the tribunals past the ${TRIBUNALS_SHOWN} largest and the phases past the ${PHASES_SHOWN} most common, losing no lawsuit`, () => {
    const counts: TribunalPhaseCount[] = [];
    for (let t = 0; t < 40; t++) for (let p = 0; p < 15; p++) counts.push({ tribunal: `T${t}`, phase: `P${p}`, lawsuits: 1 + t + p });
    const spec = lawsuitsChart(facts({ lawsuits: { asOfRun: 'r', counts } }));
    const tribunals = (spec.option!.yAxis as { data: string[] }).data;
    expect(tribunals).toHaveLength(TRIBUNALS_SHOWN);
    expect(tribunals[0]).toBe('T39');
    expect(tribunals.at(-1)).toBe('other tribunals');
    const series = seriesOf(spec.option);
    expect(series).toHaveLength(PHASES_SHOWN);
    expect(series.at(-1)!.name).toBe('other phases');
    expect(sum(series.flatMap((s) => s.data))).toBe(sum(counts.map((c) => c.lawsuits)));
  });
});
