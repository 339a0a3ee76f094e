// The key's trackings are listed at the largest page the upstream takes, whatever the night knows of its dialect:
// a night with no settled dialect (a first night probes an empty listing, which settles nothing) listed them at the
// spec's 100, 7 calls for a key's 633 trackings where 1 does. An upstream that refuses pages over 100 (the spec's
// reading) is listed again at 100, and a dialect learned at 100 lists at 100, every tracking read either way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LawsuitApi } from '../../src/api/client.js';
import type { RunContext } from '../../src/pipeline/context.js';
import { dialectBase, listingPageSize } from '../../src/pipeline/dialect.js';
import { reconcileTrackings } from '../../src/pipeline/tracking/reconcile.js';
import { ASSUMED_DIALECT } from '../../src/api/dialect.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { writeDialect } from '../../src/warehouse/dialect-store.js';
import { startRun } from '../../src/warehouse/ledger.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { configFor, scratch, silent } from '../support/pipeline.js';
import { sampledDocuments } from '../support/trackings.js';

const TRACKED = 150;
const T0 = new Date('2026-02-02T03:00:00Z');
const tmp = scratch('listing-page-');
const sandboxes: Sandbox[] = [];
const open: Array<{ close(): Promise<void> }> = [];

afterAll(async () => {
  for (const o of open.reverse()) await o.close();
  for (const s of sandboxes) await s.close();
  tmp.cleanup();
});

/** A key on a sandbox in `dialect` holding TRACKED trackings of ours, made by a first reconciliation. */
async function keyWithTrackings(dialect: 'documented' | 'spec', name: string) {
  const sandbox = await startSandbox({ seed: 5, lawsuits: 2000, now: T0, rateLimit: 100_000, dialect, bootId: `listing-${dialect}` });
  sandboxes.push(sandbox);
  const docs = sampledDocuments(sandbox, TRACKED);
  const api = new LawsuitApi({ apiKey: 'sandbox-key', urls: { requests: sandbox.url, tracking: sandbox.url, lawsuits: sandbox.url, transfer: sandbox.url }, retries: 1, baseDelayMs: 10 });
  const wh = await Warehouse.open(`${tmp.dir}/${name}.duckdb`);
  open.push(api, wh);
  const cfg = configFor(sandbox.url, tmp.dir);
  const ctx = async (): Promise<RunContext> => ({ cfg, api, wh, log: silent, signal: new AbortController().signal, runId: await startRun(wh, { command: 'run' }) });
  const first = await ctx();
  await reconcileTrackings(first, docs, { dryRun: false, allowPause: false, recurrenceDays: 1, pageSize: await listingPageSize(first) });
  /** A later night's reconciliation: the trackings it saw, and its calls to the listing. */
  const night = async () => {
    const c = await ctx();
    const before = api.stats().byRoute['GET /tracking'] ?? 0;
    const out = await reconcileTrackings(c, docs, { dryRun: false, allowPause: false, recurrenceDays: 1, pageSize: await listingPageSize(c) });
    return { listed: out.records.length, created: out.created, listingCalls: (api.stats().byRoute['GET /tracking'] ?? 0) - before };
  };
  return { night, wh, cfg };
}

describe('the listing of trackings', () => {
  let documented: Awaited<ReturnType<typeof keyWithTrackings>>;
  let spec: Awaited<ReturnType<typeof keyWithTrackings>>;
  beforeAll(async () => {
    documented = await keyWithTrackings('documented', 'documented');
    spec = await keyWithTrackings('spec', 'spec');
  });

  it('is read in one page where the upstream takes pages of 1000, though no dialect is settled', async () => {
    expect(await documented.night()).toEqual({ listed: TRACKED, created: 0, listingCalls: 1 });
  });

  it('is read again at 100 a page where the upstream refuses larger ones, every tracking listed', async () => {
    // one refused call, then two pages of 100
    expect(await spec.night()).toEqual({ listed: TRACKED, created: 0, listingCalls: 3 });
  });

  it('is read at the page size learned for the responses listing when one was', async () => {
    await writeDialect(documented.wh, dialectBase(documented.cfg), { ...ASSUMED_DIALECT, pageSize: 100, pageSizeVerified: true, sort: null }, { probeCalls: 0, source: 'probe' });
    expect(await documented.night()).toEqual({ listed: TRACKED, created: 0, listingCalls: 2 });
  });
});
