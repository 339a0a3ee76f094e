import { afterEach, describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import type { ListingMode, ProviderModel } from './support/provider-model.js';
import { harness as startHarness, ledger, loadedIds, T0, type Harness } from './support/sweep-harness.js';

// The sweep (src/pipeline/sweep/sweep.ts) driven against a provider model: it loads exactly its own requests'
// responses, once, while responses of others are interleaved and new ones keep coming; it refuses a listing
// that ignores its filters, answers nothing or ignores the order, loading nothing from it and handing every
// request to per-request reading with a warning that names the check; and it gives up for the night when
// another client's responses make it cost more than per-request reading.

let open: Warehouse | undefined;
afterEach(async () => { await open?.close(); open = undefined; });

async function harness(mode: ListingMode = 'honest', prepare?: (m: ProviderModel) => void): Promise<Harness> {
  const h = await startHarness(mode, prepare);
  open = h.wh;
  return h;
}

describe('the responses sweep', () => {
  it('loads each response of its requests once, skips everyone else\'s, while responses keep arriving, some late', async () => {
    const h = await harness();
    const ours: string[] = [];
    for (let i = 0; i < 30; i++) {
      const id = `m${String(i).padStart(2, '0')}`;
      const t = T0 + i * 100;
      expect(await h.submit(id, t)).toBe(true);
      ours.push(id);
      h.model.respond('foreign', t + 5, 4);
      // Half the requests' responses become visible only when they complete, after newer ones of others.
      h.model.respond(id, t + 10, i % 4 === 0 ? 0 : 20 + 3 * (i % 5), { late: i % 2 === 1 });
      if (i >= 2) h.finish(h.model.complete(`m${String(i - 2).padStart(2, '0')}`, t + 50));
      await h.sweep.idle();
      if (i === 20) expect(h.loaded.length, 'members loaded before the end of the night').toBeGreaterThan(5);
    }
    for (const id of ours.slice(-2)) h.finish(h.model.complete(id, T0 + 4_000));
    await h.sweep.finish({ drain: true });

    expect(await loadedIds(h.wh)).toEqual(h.model.responsesOf(ours));
    expect(h.loaded.sort()).toEqual(ours);
    const rows = await ledger(h.wh);
    expect(rows.every((r) => r.strategy === 'sweep' && r.loaded)).toBe(true);
    expect(rows.reduce((n, r) => n + r.items_loaded, 0)).toBe(h.model.responsesOf(ours).length);
    const [s] = await h.wh.all<{ status: string; items_skipped: number; items_ours: number }>('SELECT status, items_skipped, items_ours FROM response_sweeps');
    expect(s).toEqual({ status: 'done', items_skipped: 120, items_ours: h.model.responsesOf(ours).length });
    expect(h.perRequest).toEqual([]);
    expect(h.notes).toEqual([]);
    // it read as the night went (not all at the end), its pages nearly all full
    expect(h.model.calls.across).toBeLessThanOrEqual(Math.ceil(h.model.items.length / 100) + 2);
    expect(h.loaded.length).toBe(30);
  });

  it('reads nothing past a request still running: its responses may yet appear behind newer ones', async () => {
    const h = await harness();
    await h.submit('slow', T0);
    h.model.respond('slow', T0 + 1, 5, { late: true });
    const fast = ['fast0', 'fast1', 'fast2', 'fast3', 'fast4'];
    for (const [i, id] of fast.entries()) {
      await h.submit(id, T0 + 10 + i * 100);
      h.model.respond(id, T0 + 20 + i * 100, 40);
      h.finish(h.model.complete(id, T0 + 90 + i * 100));
    }
    await h.sweep.idle();
    expect(h.model.calls.across).toBe(0);
    h.finish(h.model.complete('slow', T0 + 1_000));
    await h.sweep.idle();
    expect(h.model.calls.across).toBeGreaterThan(0);
    await h.sweep.finish({ drain: true });
    expect(await loadedIds(h.wh)).toEqual(h.model.responsesOf(['slow', ...fast]));
    expect(h.loaded.sort()).toEqual([...fast, 'slow']);
  });

  it('a request created before the newest response it has read is not taken: it is read per request', async () => {
    const h = await harness();
    await h.submit('a', T0);
    h.model.respond('a', T0 + 10, 3);
    h.model.respond('other', T0 + 500, 1);
    h.finish(h.model.complete('a', T0 + 20));
    await h.sweep.finish({ drain: true });
    expect(await h.submit('late', T0 + 400)).toBe(false);
    expect(await h.submit('later', T0 + 501)).toBe(true);
    expect((await ledger(h.wh)).map((r) => [r.request_id, r.strategy])).toEqual([['a', 'sweep'], ['late', 'per_request'], ['later', 'sweep']]);
  });

  const misbehaving: Array<[ListingMode, RegExp]> = [
    ['ignore_filters', /before the lower bound asked for .*: the created_at filter is not honoured/],
    ['empty', /showed none of request m0's responses, which it has \(5\): its filters are not honoured/],
    ['newest_first', /not in creation order .*: the order is not honoured/],
  ];
  for (const [mode, why] of misbehaving) {
    it(`a listing that ${mode === 'empty' ? 'answers nothing' : mode === 'newest_first' ? 'ignores the order' : 'answers its whole history'}: nothing loaded from it, every request read per request, the check named`, async () => {
      const h = await harness(mode, (m) => m.respond('yesterday', T0 - 86_400_000, 3));
      for (let i = 0; i < 4; i++) {
        await h.submit(`m${i}`, T0 + i * 10);
        h.model.respond(`m${i}`, T0 + i * 10 + 1, 5);
      }
      for (let i = 0; i < 3; i++) h.finish(h.model.complete(`m${i}`, T0 + 100));
      await h.sweep.finish({ drain: true });
      expect(await loadedIds(h.wh)).toEqual([]);
      expect(h.notes).toHaveLength(1);
      expect(h.notes[0]).toMatch(why);
      expect(h.logs()).toMatch(why);
      // Only the order's failure tells the night that the sort names do not work (remembered for the next).
      expect(h.orderBroken).toBe(mode === 'newest_first' ? 1 : 0);
      // the three finished are handed over now; the fourth, still running, is read per request when it finishes
      expect(h.perRequest.sort()).toEqual(['m0', 'm1', 'm2']);
      expect(h.sweep.isMember('m3')).toBe(false);
      expect((await ledger(h.wh)).map((r) => r.strategy)).toEqual(['per_request', 'per_request', 'per_request', 'per_request']);
      const [s] = await h.wh.all<{ status: string; reason: string }>('SELECT status, reason FROM response_sweeps');
      expect(s.status).toBe('fallback');
      expect(s.reason).toMatch(why);
    });
  }

  it('another client\'s responses making it costlier than per-request reading: the rest of the night is read per request', async () => {
    const h = await harness();
    await h.submit('big-a', T0);
    await h.submit('big-b', T0 + 1);
    for (let k = 0; k < 1_500; k++) {
      h.model.respond('big-a', T0 + 10 + 4 * k, 1);
      h.model.respond('foreign', T0 + 11 + 4 * k, 1);
      h.model.respond('big-b', T0 + 12 + 4 * k, 1);
      h.model.respond('foreign', T0 + 13 + 4 * k, 1);
    }
    h.finish(h.model.complete('big-a', T0 + 7_000));
    h.finish(h.model.complete('big-b', T0 + 7_000));
    await h.sweep.finish({ drain: true });
    expect(h.notes[0]).toMatch(/responses of other requests on the key \(50% of those read\) made the sweep costlier than per-request reading/);
    expect(h.perRequest.sort()).toEqual(['big-a', 'big-b']);
    const calls = h.model.calls.across;
    expect(calls).toBeLessThan(20);
    expect(calls).toBeGreaterThanOrEqual(5);
    // handed over whole: per-request reading starts again from their first response
    expect((await ledger(h.wh)).map((r) => [r.strategy, r.items_loaded, r.loaded])).toEqual([['per_request', 0, false], ['per_request', 0, false]]);
    expect((await h.wh.all<{ status: string }>('SELECT status FROM response_sweeps'))[0].status).toBe('switched');
  });

  it('a refused listing (403) stops the stage, and the sweep waits in the ledger', async () => {
    const h = await harness('forbidden');
    await h.submit('a', T0);
    h.model.respond('a', T0 + 1, 2);
    h.finish(h.model.complete('a', T0 + 5));
    await h.sweep.finish({ drain: true });
    expect(h.refused).toHaveLength(1);
    expect((h.refused[0] as { code: string }).code).toBe('API_FORBIDDEN');
    expect((await h.wh.all<{ status: string }>('SELECT status FROM response_sweeps'))[0].status).toBe('active');
    expect((await ledger(h.wh))[0]).toMatchObject({ strategy: 'sweep', loaded: false });
  });
});
