import { afterEach, beforeEach, expect, it } from 'vitest';
import { pino } from 'pino';
import { ASSUMED_DIALECT, SORT_CANDIDATES, type Dialect } from '../../src/api/dialect.js';
import type { RunContext } from '../../src/pipeline/context.js';
import { dialectBase, dialectOrAssumed, nightDialect, rememberSortBroken } from '../../src/pipeline/dialect.js';
import { errorForStatus } from '../../src/api/errors.js';
import { loadConfig } from '../../src/shared/config.js';
import { readDialect, writeDialect } from '../../src/warehouse/dialect-store.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';

// The sweep found tonight that the sort names it was asked by are not honoured (sweep/verify.ts): what the
// warehouse remembers changes so that the next night does not read by them as settled, unless they are pinned.

let wh: Warehouse;
beforeEach(async () => { wh = await Warehouse.open(':memory:'); });
afterEach(async () => { await wh.close(); });

const ctxOf = (flags: Record<string, unknown>, env: Record<string, string> = {}): RunContext =>
  ({ cfg: loadConfig({ env, flags: { sandbox: true, ...flags } }), wh, runId: 'run-1', log: pino({ level: 'silent' }), signal: new AbortController().signal, api: undefined as never }) as unknown as RunContext;

const learned: Dialect = { ...ASSUMED_DIALECT, pageSize: 1000, pageSizeVerified: true, sort: SORT_CANDIDATES[0], sortVerified: true };

it('remembers the next sort candidate, unverified, so that the next night does not take the failed one as settled', async () => {
  const ctx = ctxOf({});
  await writeDialect(wh, dialectBase(ctx.cfg), learned, { probeCalls: 4, source: 'probe' });
  expect((await nightDialect(ctx, { probe: false })).source).toBe('remembered');
  await rememberSortBroken(ctx, learned);
  const stored = (await readDialect(wh, dialectBase(ctx.cfg)))!;
  expect(stored.source).toBe('sweep');
  expect(stored.dialect).toMatchObject({ sort: SORT_CANDIDATES[1], sortVerified: false, pageSize: 1000 });
  // Not settled: a night that may not probe falls back to the assumed dialect rather than the broken names.
  expect((await nightDialect(ctx, { probe: false })).source).toBe('assumed');
});

it('after the last candidate, remembers that no sort name works', async () => {
  const ctx = ctxOf({});
  const last: Dialect = { ...learned, sort: SORT_CANDIDATES[SORT_CANDIDATES.length - 1] };
  await rememberSortBroken(ctx, last);
  expect((await readDialect(wh, dialectBase(ctx.cfg)))!.dialect).toMatchObject({ sort: null, sortVerified: false });
});

it('leaves names pinned by configuration alone', async () => {
  const ctx = ctxOf({}, { LAWSUIT_SWEEP_PARAMS: 'order_by=order_by:created_at,order=order:asc' });
  if (!ctx.cfg.sweepParams) return expect.unreachable('the sweep names are pinned by LAWSUIT_SWEEP_PARAMS');
  await rememberSortBroken(ctx, learned);
  expect(await readDialect(wh, dialectBase(ctx.cfg))).toBeUndefined();
});

it('is learned once a run, however many stages ask: a probe that found nothing is not sent again the same night', async () => {
  let calls = 0;
  // Any call of the client fails as an upstream that keeps failing would: the probe learns nothing, the night assumes.
  const failing = (): unknown => new Proxy(() => undefined, {
    get: (_t, name) => (name === 'then' ? undefined : failing()),
    apply: () => { calls++; return Promise.reject(errorForStatus(503, {}, 'GET /responses', (x) => x)); },
  });
  const ctx = { ...ctxOf({}), api: failing() } as unknown as RunContext;
  const first = await dialectOrAssumed(ctx);
  const sent = calls;
  expect(first.source).toBe('assumed');
  expect(sent).toBeGreaterThan(0);
  expect(await dialectOrAssumed(ctx)).toBe(first);
  expect(calls).toBe(sent);
});
