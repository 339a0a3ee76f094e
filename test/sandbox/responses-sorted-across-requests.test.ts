// GET /responses without request_id, as a sweep over "every response of the key created since T" reads it:
// ordered by the response's created_at across all requests (ties by response_id), only items already created
// (created_at <= now), inclusive bounds, and stable while responses keep arriving court by court: every item
// has one created_at, never in the future and never rewritten.
import { afterEach, describe, expect, test } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { call, sandbox } from './helpers.js';

const HOUR = 3_600_000;

describe('responses sorted across requests', () => {
  let sb: Sandbox | undefined;
  afterEach(async () => { await sb?.close(); sb = undefined; });

  /** Requests for documents with lawsuits in several tribunals, created a few minutes apart. */
  async function night(s: Sandbox, n: number): Promise<string[]> {
    const counts = new Map<string, Set<string>>();
    for (let i = 0; i < s.universe.count; i++) {
      const l = s.universe.lawsuit(i, s.state.clock.now()) as any;
      if (!l || l.secrecy_level >= 5) continue;
      for (const q of l.parties) if (q.document_type === 'CNPJ') counts.set(q.document, (counts.get(q.document) ?? new Set()).add(l.tribunal_acronym));
    }
    const docs = [...counts.entries()].filter(([, t]) => t.size >= 2).map(([d]) => d).slice(0, n);
    const ids: string[] = [];
    for (const d of docs) {
      ids.push((await call(s, 'POST', '/requests', { search: { search_type: 'cnpj', search_key: d } })).body.request_id);
      s.setNow(new Date(s.state.clock.now() + 7 * 60_000));
    }
    return ids;
  }

  const ordered = (items: any[]) => {
    for (let k = 1; k < items.length; k++) {
      const [a, b] = [items[k - 1], items[k]];
      const ok = a.created_at < b.created_at || (a.created_at === b.created_at && a.response_id < b.response_id);
      expect(ok, `${a.created_at} ${a.response_id} before ${b.created_at} ${b.response_id}`).toBe(true);
    }
  };

  test('ordered by created_at then response_id over every request; desc is the exact reverse; nothing from the future', async () => {
    sb = await sandbox({ courtDelayMs: HOUR });
    const ids = await night(sb, 8);
    sb.setNow(new Date(sb.state.clock.now() + 3 * HOUR));
    const now = sb.state.clock.now();
    const asc = (await call(sb, 'GET', '/responses?page_size=100&order_by=created_at&order=asc')).body;
    expect(asc.all_count).toBeGreaterThan(10);
    const items = asc.page_data;
    ordered(items);
    for (const i of items) expect(Date.parse(i.created_at)).toBeLessThanOrEqual(now);
    expect(new Set(items.map((i: any) => i.request_id)).size).toBeGreaterThan(3);
    // Interleaved: requests do not come one after the other.
    const firstOf = new Map<string, number>();
    const lastOf = new Map<string, number>();
    items.forEach((i: any, k: number) => { if (!firstOf.has(i.request_id)) firstOf.set(i.request_id, k); lastOf.set(i.request_id, k); });
    expect(ids.some((a) => ids.some((b) => a !== b && firstOf.has(a) && firstOf.has(b) && firstOf.get(a)! < firstOf.get(b)! && lastOf.get(a)! > firstOf.get(b)!))).toBe(true);
    const desc = (await call(sb, 'GET', `/responses?page_size=100&order=desc`)).body.page_data;
    expect(desc.map((i: any) => i.response_id)).toEqual([...items].reverse().map((i: any) => i.response_id));
  });

  test('bounds are inclusive and request_status filters the items by their request', async () => {
    sb = await sandbox({ courtDelayMs: HOUR });
    await night(sb, 6);
    sb.setNow(new Date(sb.state.clock.now() + 2 * HOUR));
    const items = (await call(sb, 'GET', '/responses?page_size=100')).body.page_data;
    const mid = items[Math.floor(items.length / 2)];
    const gte = (await call(sb, 'GET', `/responses?page_size=100&created_at_gte=${mid.created_at}`)).body.page_data;
    expect(gte[0].created_at).toBe(mid.created_at);
    expect(gte.map((i: any) => i.response_id)).toContain(mid.response_id);
    expect(gte.every((i: any) => i.created_at >= mid.created_at)).toBe(true);
    const lte = (await call(sb, 'GET', `/responses?page_size=100&created_at_lte=${mid.created_at}`)).body.page_data;
    expect(lte.map((i: any) => i.response_id)).toContain(mid.response_id);
    expect(lte.length + gte.length).toBe(items.length + items.filter((i: any) => i.created_at === mid.created_at).length);
    const running = (await call(sb, 'GET', '/responses?page_size=100&request_status=started,pending')).body.page_data;
    const done = (await call(sb, 'GET', '/responses?page_size=100&request_status=completed')).body.page_data;
    expect(running.length + done.length).toBe(items.length);
    for (const i of done) expect(i.request_status).toBe('completed');
  });

  test('a sweep with a creation-time cursor reads every item exactly once while courts keep appending', async () => {
    sb = await sandbox({ courtDelayMs: HOUR });
    const since = new Date(sb.state.clock.now()).toISOString();
    await night(sb, 8);
    const seen = new Map<string, string>();
    let cursor = since;
    for (let round = 0; round < 60; round++) {
      sb.setNow(new Date(sb.state.clock.now() + HOUR / 2));
      const now = sb.state.clock.now();
      for (;;) {
        const page = (await call(sb, 'GET', `/responses?page_size=7&created_at_gte=${cursor}&order_by=created_at&order=asc`)).body.page_data;
        let fresh = 0;
        for (const i of page) {
          expect(Date.parse(i.created_at)).toBeLessThanOrEqual(now);
          const before = seen.get(i.response_id);
          if (before !== undefined) { expect(i.created_at).toBe(before); continue; }
          seen.set(i.response_id, i.created_at);
          fresh++;
        }
        if (page.length > 0) cursor = page[page.length - 1].created_at;
        if (fresh === 0 || page.length < 7) break;
      }
    }
    sb.setNow(new Date(sb.state.clock.now() + 48 * HOUR));
    const all: any[] = [];
    for (let page = 1; ; page++) {
      const body = (await call(sb, 'GET', `/responses?page=${page}&page_size=100&created_at_gte=${since}`)).body;
      all.push(...body.page_data);
      if (page >= body.all_pages_count) break;
    }
    expect(all.length).toBeGreaterThan(50);
    expect([...seen.keys()].sort()).toEqual(all.map((i: any) => i.response_id).sort());
    for (const i of all) expect(seen.get(i.response_id)).toBe(i.created_at);
  });
});
