// The `stale_listing` fault: the requests listing never shows the affected requests as finished (it shows them
// still running, and a status=completed filter leaves them out), while GET /requests/<id> tells the truth.
import { afterEach, describe, expect, test } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { call, sandbox, waitFinished } from './helpers.js';

describe('stale listing', () => {
  let sb: Sandbox | undefined;
  afterEach(async () => { await sb?.close(); sb = undefined; });

  test('finished requests are listed as started, never as completed; the single request is the truth', async () => {
    sb = await sandbox({ faults: 'stale_listing=1' });
    const ids: string[] = [];
    for (const d of sb.sampleDocuments(6).slice(0, 4)) {
      ids.push((await call(sb, 'POST', '/requests', { search: { search_type: d.search_type, search_key: d.search_key } })).body.request_id);
    }
    for (const id of ids) expect(await waitFinished(sb, id)).toBe('completed');
    const listed = await call(sb, 'GET', '/requests?page_size=100');
    expect(listed.body.page_data.map((r: any) => r.request_id).sort()).toEqual([...ids].sort());
    for (const r of listed.body.page_data) expect(r.status).toBe('started');
    expect((await call(sb, 'GET', '/requests?status=completed')).body.meta.all_count).toBe(0);
    expect((await call(sb, 'GET', '/requests?status=started')).body.meta.all_count).toBe(ids.length);
    for (const id of ids) expect((await call(sb, 'GET', `/requests/${id}`)).body.status).toBe('completed');
  });

  test('at a rate below 1 only some requests are affected, the same ones on every call', async () => {
    sb = await sandbox({ faults: 'stale_listing=0.5' });
    const ids: string[] = [];
    for (const d of sb.sampleDocuments(30).slice(0, 20)) {
      ids.push((await call(sb, 'POST', '/requests', { search: { search_type: d.search_type, search_key: d.search_key } })).body.request_id);
    }
    // every request finished (the single request is the truth), so the listing's only liar is the fault
    for (const id of ids) expect(await waitFinished(sb, id)).toBe('completed');
    const first = await call(sb, 'GET', '/requests?status=completed&page_size=100');
    const second = await call(sb, 'GET', '/requests?status=completed&page_size=100');
    expect(first.body.meta.all_count).toBeGreaterThan(2);
    expect(first.body.meta.all_count).toBeLessThan(18);
    expect(second.body.page_data.map((r: any) => r.request_id)).toEqual(first.body.page_data.map((r: any) => r.request_id));
    sb.setFaults('');
    expect((await call(sb, 'GET', '/requests?status=completed&page_size=100')).body.meta.all_count).toBe(20);
  });
});
