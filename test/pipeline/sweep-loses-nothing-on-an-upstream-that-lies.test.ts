import fc from 'fast-check';
import { afterEach, expect, it } from 'vitest';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import type { ListingMode } from './support/provider-model.js';
import { harness, T0 } from './support/sweep-harness.js';

// Whatever the upstream does with the sweep's sort and bounds — honours them, ignores the sort and lists newest
// first, stamps a court's responses in one millisecond, appends while pages are read — a request the sweep calls
// loaded has every one of its responses loaded, and one it could not account for is handed to per-request
// reading: what the ledger says is loaded is what the upstream holds. (docs/dialect-and-spec-gaps.md, "The provider's dialect".)

let open: Warehouse | undefined;
afterEach(async () => { await open?.close(); open = undefined; });

const requestArb = fc.record({
  responses: fc.nat(130),
  tied: fc.boolean(),
  late: fc.boolean(),
  foreign: fc.nat(40),
});

it('a request marked loaded has all of its responses loaded, whatever order the upstream lists in', async () => {
  await fc.assert(fc.asyncProperty(
    fc.constantFrom<ListingMode>('honest', 'newest_first', 'newest_first_stable'),
    fc.array(requestArb, { minLength: 1, maxLength: 12 }),
    fc.nat(3),
    async (mode, requests, lag) => {
      await open?.close();
      const h = await harness(mode);
      open = h.wh;
      const ids = requests.map((_, i) => `r${String(i).padStart(2, '0')}`);
      for (const [i, r] of requests.entries()) {
        const t = T0 + i * 1_000;
        await h.submit(ids[i], t);
        h.model.respond('someone-else', t + 3, r.foreign, { tied: r.tied });
        h.model.respond(ids[i], t + 10, r.responses, { tied: r.tied, late: r.late });
        // Requests finish `lag` submissions later: the sweep reads while others still append.
        if (i >= lag) h.finish(h.model.complete(ids[i - lag], t + 500));
        await h.sweep.idle();
      }
      for (const id of ids.slice(Math.max(0, ids.length - lag))) h.finish(h.model.complete(id, T0 + ids.length * 1_000 + 500));
      await h.sweep.finish({ drain: true });

      const loaded = new Set((await h.wh.all<{ id: string }>('SELECT response_id AS id FROM responses_raw')).map((r) => r.id));
      const rows = await h.wh.all<{ request_id: string; loaded: boolean; strategy: string }>(
        'SELECT request_id, loaded_at IS NOT NULL AS loaded, strategy FROM requests ORDER BY 1');
      for (const row of rows) {
        const theirs = h.model.responsesOf([row.request_id]);
        if (row.loaded) expect(theirs.filter((id) => !loaded.has(id)), `${row.request_id} is marked loaded (${mode})`).toEqual([]);
        else expect(h.perRequest.includes(row.request_id) || row.strategy === 'per_request', `${row.request_id} is neither loaded nor handed over (${mode})`).toBe(true);
      }
      expect([...loaded].filter((id) => id.startsWith('someone-else'))).toEqual([]);
    },
  ), { numRuns: Number(process.env.LAWSUIT_PROPERTY_RUNS ?? 25) });
}, 120_000);
