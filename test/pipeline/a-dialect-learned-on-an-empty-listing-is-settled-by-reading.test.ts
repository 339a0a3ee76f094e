import { afterEach, beforeEach, expect, it } from 'vitest';
import { pino } from 'pino';
import { ASSUMED_DIALECT, SORT_CANDIDATES, type Dialect } from '../../src/api/dialect.js';
import type { RunContext } from '../../src/pipeline/context.js';
import { dialectBase, nightDialect, rememberReadBy, rememberSortBroken } from '../../src/pipeline/dialect.js';
import { pageSizeShown } from '../../src/pipeline/sweep/cursor.js';
import { loadConfig } from '../../src/shared/config.js';
import { readDialect, writeDialect } from '../../src/warehouse/dialect-store.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';

// A first night on a new key probes an empty listing: the page size and sort names are accepted, nothing verifies
// them, and the second night probed again (two calls of a floor of three on a trackings night that found nothing
// new, issue 32). The night's own reading settles them: its pages passed the sweep's checks in the order asked.

let wh: Warehouse;
beforeEach(async () => { wh = await Warehouse.open(':memory:'); });
afterEach(async () => { await wh.close(); });

const ctxOf = (): RunContext =>
  ({ cfg: loadConfig({ env: {}, flags: { sandbox: true } }), wh, runId: 'run-1', log: pino({ level: 'silent' }), signal: new AbortController().signal, api: undefined as never }) as unknown as RunContext;

/** What a probe of an empty listing learns: the largest page and the documented names, neither verified. */
const onAnEmptyListing: Dialect = { ...ASSUMED_DIALECT, pageSize: 1000, pageSizeVerified: false, sort: SORT_CANDIDATES[0], sortVerified: false };

async function probedTonight(ctx: RunContext) {
  await writeDialect(wh, dialectBase(ctx.cfg), onAnEmptyListing, { probeCalls: 1, source: 'probe' });
  return { dialect: onAnEmptyListing, source: 'probed' as const, calls: 1 };
}

it('is settled by a reading whose pages passed their checks, its first page showing the size asked: the next night does not probe', async () => {
  const ctx = ctxOf();
  expect((await nightDialect(ctx, { probe: false })).source).toBe('assumed');
  await rememberReadBy(ctx, await probedTonight(ctx), { items: 704, sizeShown: 1000, checked: true });
  const next = await nightDialect(ctxOf(), { probe: false });
  expect(next.source).toBe('remembered');
  expect(next.dialect).toMatchObject({ pageSize: 1000, pageSizeVerified: true, sort: SORT_CANDIDATES[0], sortVerified: true });
  expect((await readDialect(wh, dialectBase(ctx.cfg)))!.source).toBe('sweep');
  // the calls the probe made stay as it made them: the reading made none
  expect(await wh.all('SELECT probe_calls FROM upstream_dialects')).toEqual([{ probe_calls: 1 }]);
});

it('is not settled by too little to tell, by pages that failed their checks, or over a sort found broken tonight', async () => {
  for (const seen of [{ items: 1, sizeShown: 1000, checked: true }, { items: 0, sizeShown: 0, checked: true }, { items: 704, sizeShown: 1000, checked: false }]) {
    const ctx = ctxOf();
    await rememberReadBy(ctx, await probedTonight(ctx), seen);
    expect((await nightDialect(ctx, { probe: false })).source, JSON.stringify(seen)).toBe('assumed');
  }
  const ctx = ctxOf();
  const night = await probedTonight(ctx);
  await rememberSortBroken(ctx, onAnEmptyListing);
  await rememberReadBy(ctx, night, { items: 704, sizeShown: 1000, checked: true });
  expect((await readDialect(wh, dialectBase(ctx.cfg)))!.dialect).toMatchObject({ sort: SORT_CANDIDATES[1], sortVerified: false });
});

it('settles the sort alone when no page showed the size (pages held by bytes, or one the upstream cut short): the page size waits for a night that shows it', async () => {
  for (const sizeShown of [0, 500]) {
    const ctx = ctxOf();
    await rememberReadBy(ctx, await probedTonight(ctx), { items: 1_500, sizeShown, checked: true });
    expect((await readDialect(wh, dialectBase(ctx.cfg)))!.dialect, String(sizeShown)).toMatchObject({ sortVerified: true, pageSizeVerified: false });
    expect((await nightDialect(ctxOf(), { probe: false })).source).toBe('assumed');
  }
});

it('takes the size a page shows as the probe judges one: the first page at an anchor, as many as asked or all the listing counts', () => {
  const q = (page: number, size: number) => ({ from: 0, page, size });
  expect(pageSizeShown(q(1, 1000), 1000, 5_000)).toBe(1000);
  expect(pageSizeShown(q(1, 1000), 704, 704)).toBe(1000);
  // cut short though the listing counts more: what the probe reads as a clamp, no size shown
  expect(pageSizeShown(q(1, 1000), 500, 5_000)).toBe(0);
  // a later page's share of the count says nothing of the size
  expect(pageSizeShown(q(2, 1000), 300, 1_300)).toBe(0);
  expect(pageSizeShown(q(1, 1000), 0, 0)).toBe(0);
});

it('leaves a dialect pinned, assumed or remembered settled as it is', async () => {
  const ctx = ctxOf();
  for (const source of ['pinned', 'assumed'] as const) await rememberReadBy(ctx, { dialect: onAnEmptyListing, source, calls: 0 }, { items: 704, sizeShown: 1000, checked: true });
  expect(await readDialect(wh, dialectBase(ctx.cfg))).toBeUndefined();
  const settled: Dialect = { ...onAnEmptyListing, pageSizeVerified: true, sortVerified: true };
  await writeDialect(wh, dialectBase(ctx.cfg), settled, { probeCalls: 2, source: 'probe' });
  await rememberReadBy(ctx, { dialect: settled, source: 'remembered', calls: 0 }, { items: 704, sizeShown: 1000, checked: true });
  expect((await readDialect(wh, dialectBase(ctx.cfg)))!.source).toBe('probe');
});
