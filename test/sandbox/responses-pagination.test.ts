// GET /responses: pages are stable while a request still appends, counts are right, order and filters work;
// not-found answers of the spec (name: application_error; document: empty page, counts 0).
import { afterEach, describe, expect, test } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { call, sandbox, waitFinished } from './helpers.js';

describe('responses listing', () => {
  let sb: Sandbox | undefined;
  afterEach(async () => { await sb?.close(); sb = undefined; });

  /** The CNPJ with the most lawsuits among those found in at least two tribunals (so in two courts' turns). */
  function bigCnpj(s: Sandbox): string {
    const counts = new Map<string, number>();
    const tribunals = new Map<string, Set<string>>();
    for (let i = 0; i < s.universe.count; i++) {
      const l = s.universe.lawsuit(i, s.state.clock.now());
      if (l) for (const q of l.parties as any[]) if (q.document_type === 'CNPJ') {
        counts.set(q.document, (counts.get(q.document) ?? 0) + 1);
        tribunals.set(q.document, (tribunals.get(q.document) ?? new Set()).add(l.tribunal_acronym as string));
      }
    }
    return [...counts.entries()].filter(([d]) => tribunals.get(d)!.size >= 2).sort((a, b) => b[1] - a[1])[0][0];
  }

  test('a page once read never changes while later courts append; page counts are consistent', async () => {
    const HOUR = 3_600_000;
    sb = await sandbox({ courtDelayMs: HOUR });
    const post = await call(sb, 'POST', '/requests', { search: { search_type: 'cnpj', search_key: bigCnpj(sb) } });
    const id = post.body.request_id;
    // Queued for an hour, then the first court's items an hour later: half an hour after that, one court is in.
    sb.setNow(new Date(sb.state.clock.now() + 2.5 * HOUR));
    const early = await call(sb, 'GET', `/responses?request_id=${id}&page=1&page_size=5`);
    expect(early.body.request_status).toBe('started');
    expect(early.body.page_count).toBe(early.body.page_data.length);
    let done = early;
    for (let k = 0; k < 100 && done.body.request_status !== 'completed'; k++) {
      sb.setNow(new Date(sb.state.clock.now() + HOUR));
      done = await call(sb, 'GET', `/responses?request_id=${id}&page=1&page_size=5`);
    }
    expect(done.body.request_status).toBe('completed');
    const strip = (items: any[]) => items.map(({ request_status: _s, ...rest }) => rest);
    expect(early.body.page_data.length).toBeGreaterThan(0);
    expect(strip(done.body.page_data.slice(0, early.body.page_data.length))).toEqual(strip(early.body.page_data));
    const all = done.body.all_count;
    expect(done.body.all_pages_count).toBe(Math.ceil(all / 5));
    const ids: string[] = [];
    for (let p = 1; p <= done.body.all_pages_count; p++) {
      const r = await call(sb, 'GET', `/responses?request_id=${id}&page=${p}&page_size=5`);
      expect(r.body.page).toBe(p);
      ids.push(...r.body.page_data.map((x: any) => x.response_id));
    }
    expect(new Set(ids).size).toBe(all);
    const desc = await call(sb, 'GET', `/responses?request_id=${id}&page=1&page_size=100&order=desc`);
    expect(desc.body.page_data.map((x: any) => x.response_id)).toEqual([...ids].reverse().slice(0, 100));
    const past = await call(sb, 'GET', `/responses?request_id=${id}&page=${done.body.all_pages_count + 1}&page_size=5`);
    expect(past.body.page_data).toEqual([]);
    expect(past.body.page_count).toBe(0);
    const dates = ids.length > 1 ? (await call(sb, 'GET', `/responses?request_id=${id}&page_size=100`)).body.page_data.map((x: any) => x.created_at) : [];
    expect([...dates].sort()).toEqual(dates);
  });

  test('response_type and request_status filters; listing without request_id covers all the caller\'s requests', async () => {
    sb = await sandbox();
    const a = (await call(sb, 'POST', '/requests', { search: { search_type: 'cnpj', search_key: bigCnpj(sb) } })).body.request_id;
    const b = (await call(sb, 'POST', '/requests', { search: { search_type: 'name', search_key: 'Nome Inexistente da Silva' } })).body.request_id;
    await waitFinished(sb, a);
    await waitFinished(sb, b);
    const ra = (await call(sb, 'GET', `/responses?request_id=${a}`)).body.all_count;
    const all = await call(sb, 'GET', '/responses?page_size=100');
    expect(all.body.all_count).toBe(ra + 1);
    const errs = await call(sb, 'GET', '/responses?response_type=application_error');
    expect(errs.body.all_count).toBe(1);
    expect(errs.body.page_data[0].request_id).toBe(b);
    expect((await call(sb, 'GET', `/responses?request_id=${a}&response_type=steps`)).body.all_count).toBe(0);
    expect((await call(sb, 'GET', '/responses?request_status=pending')).body.all_count).toBe(0);
    expect((await call(sb, 'GET', '/responses?request_status=pending&request_status=completed')).body.all_count).toBe(ra + 1);
    expect((await call(sb, 'GET', '/responses?created_at_gte=2100-01-01T00:00:00Z')).body.all_count).toBe(0);
  });

  test('a name that finds nothing yields one application_error item; a document that finds nothing an empty page', async () => {
    sb = await sandbox();
    const name = await call(sb, 'POST', '/requests', { search: { search_type: 'name', search_key: 'Fulano Inexistente de Tal' } });
    await waitFinished(sb, name.body.request_id);
    const nr = await call(sb, 'GET', `/responses?request_id=${name.body.request_id}`);
    expect(nr.body).toMatchObject({ request_status: 'completed', page: 1, page_count: 1, all_pages_count: 1, all_count: 1 });
    expect(nr.body.page_data[0].response_type).toBe('application_error');
    expect(nr.body.page_data[0].response_data).toEqual({ code: 2, message: 'LAWSUIT_NOT_FOUND' });
    const nothing = sb.sampleDocuments(20).find((s) => s.label === 'finds nothing')!;
    const doc = await call(sb, 'POST', '/requests', { search: { search_type: nothing.search_type, search_key: nothing.search_key } });
    await waitFinished(sb, doc.body.request_id);
    const dr = await call(sb, 'GET', `/responses?request_id=${doc.body.request_id}`);
    expect(dr.body).toEqual({ request_status: 'completed', page: 1, page_count: 0, all_pages_count: 0, all_count: 0, page_data: [] });
  });
});
