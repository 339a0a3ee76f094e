// Data freshness: the database lags the courts by up to 30 days, on_demand sees the present, the sandbox clock
// moves nights forward; cache_ttl_in_days repeats a recent answer first, tagged cached_response.
import { afterEach, describe, expect, test } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { call, keyOf, runSearch, sandbox } from './helpers.js';

const DAY = 86_400_000;

describe('freshness', () => {
  let sb: Sandbox | undefined;
  afterEach(async () => { await sb?.close(); sb = undefined; });

  function cnjOfActiveLawsuit(s: Sandbox): string {
    // A lawsuit that got a step in the last 30 days: the database is likely behind on it.
    const now = s.state.clock.now();
    for (let i = 0; i < s.universe.count; i++) {
      const l = s.universe.lawsuit(i, now, { onDemand: true, shape: 'full' }) as any;
      if (l && l.secrecy_level === 0 && l.steps.length > 2 && Date.parse(l.steps[0].step_date) > now - 5 * DAY
        && Date.parse(l.crawler.updated_at) && s.universe.lawsuit(i, now)) {
        const db = s.universe.lawsuit(i, now, { shape: 'full' }) as any;
        if (db.steps.length < l.steps.length) return l.code;
      }
    }
    throw new Error('no active lawsuit');
  }

  test('on_demand returns fresher data than the database, which lags by at most 30 days', async () => {
    sb = await sandbox();
    const code = cnjOfActiveLawsuit(sb);
    const now = sb.state.clock.now();
    const db = (await runSearch(sb, { search_type: 'lawsuit_cnj', search_key: code })).items[0].response_data;
    const live = (await runSearch(sb, { search_type: 'lawsuit_cnj', search_key: code, on_demand: true })).items[0].response_data;
    expect(live.steps.length).toBeGreaterThan(db.steps.length);
    expect(Date.parse(live.crawler.updated_at)).toBeGreaterThan(Date.parse(db.crawler.updated_at));
    expect(Math.abs(Date.parse(live.crawler.updated_at) - now)).toBeLessThan(60_000);
    expect(now - Date.parse(db.crawler.updated_at)).toBeLessThanOrEqual(30 * DAY);
    for (const s of db.steps) expect(Date.parse(s.step_date)).toBeLessThanOrEqual(Date.parse(db.crawler.updated_at));
  });

  test('database lag over the whole universe stays within 30 days', () => {
    return sandbox().then((s) => {
      sb = s;
      const now = s.state.clock.now();
      let lagged = 0;
      for (let i = 0; i < s.universe.count; i += 3) {
        const l = s.universe.lawsuit(i, now) as any;
        if (!l) continue;
        const lag = now - Date.parse(l.crawler.updated_at);
        expect(lag).toBeGreaterThanOrEqual(0);
        expect(lag).toBeLessThanOrEqual(30 * DAY);
        if (lag > DAY) lagged++;
      }
      expect(lagged).toBeGreaterThan(100);
    });
  });

  test('advancing the clock moves data: new steps and new lawsuits appear night after night', async () => {
    sb = await sandbox();
    const sample = sb.sampleDocuments(40).filter((d) => d.search_type === 'cnpj');
    const before = new Map<string, number>();
    for (const d of sample) before.set(d.search_key, sb.truth({ search_type: 'cnpj', search_key: d.search_key }).length);
    const code = cnjOfActiveLawsuit(sb);
    const steps0 = (await runSearch(sb, { search_type: 'lawsuit_cnj', search_key: code })).items[0].response_data.steps.length;
    const clock = await call(sb, 'POST', '/_sandbox/clock', { advance_days: 60 }, null);
    expect(clock.status).toBe(200);
    const steps1 = (await runSearch(sb, { search_type: 'lawsuit_cnj', search_key: code })).items[0].response_data.steps.length;
    expect(steps1).toBeGreaterThan(steps0);
    let grew = 0;
    for (const d of sample) if (sb.truth({ search_type: 'cnpj', search_key: d.search_key }).length > before.get(d.search_key)!) grew++;
    expect(grew).toBeGreaterThan(0);
  });

  test('cache_ttl_in_days: a repeated search first gives the cached items tagged cached_response, then fresh ones', async () => {
    sb = await sandbox();
    const d = sb.sampleDocuments(30).find((x) => x.search_type === 'cnpj')!;
    const search = { search_type: 'cnpj', search_key: d.search_key, cache_ttl_in_days: 3 };
    const first = await runSearch(sb, search);
    expect(first.items.every((i) => i.tags.cached_response === false)).toBe(true);
    sb.advanceDays(1);
    const second = await runSearch(sb, search);
    const n = first.items.length;
    expect(second.items.length).toBe(2 * n);
    expect(second.items.slice(0, n).every((i) => i.tags.cached_response === true)).toBe(true);
    expect(second.items.slice(n).every((i) => i.tags.cached_response === false)).toBe(true);
    expect(second.items.slice(0, n).map((i) => keyOf(i.response_data))).toEqual(first.items.map((i) => keyOf(i.response_data)));
    expect(second.items.slice(0, n).map((i) => i.response_data)).toEqual(first.items.map((i) => i.response_data));
    // A cached answer is never cached again: only the fresh items of the latest answer within the TTL repeat.
    const third = await runSearch(sb, search);
    expect(third.items.filter((i) => i.tags.cached_response).length).toBe(n);
    sb.advanceDays(5);
    const expired = await runSearch(sb, search);
    expect(expired.items.some((i) => i.tags.cached_response)).toBe(false);
    const withoutTtl = await runSearch(sb, { search_type: 'cnpj', search_key: d.search_key });
    expect(withoutTtl.items.some((i) => i.tags.cached_response)).toBe(false);
  });
});
