// A tracking is made with its document's search as the list asks it — the filter, the credential — and the
// next night's reconciliation finds it by them in the sandbox's listing (which echoes the search as made): it is
// kept, not made again. The same document listed without the filter is another search; the provider keeps one
// tracking per key, so its creation meets the 409 and takes that tracking (docs/trackings.md).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LawsuitApi } from '../../src/api/client.js';
import { parseDocuments } from '../../src/input/documents.js';
import type { RunContext } from '../../src/pipeline/context.js';
import { reconcileTrackings } from '../../src/pipeline/tracking/reconcile.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { startRun } from '../../src/warehouse/ledger.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { configFor, scratch, silent } from '../support/pipeline.js';

let sb: Sandbox;
let api: LawsuitApi;
let wh: Warehouse;
const tmp = scratch('tracking-filters-');

beforeAll(async () => {
  sb = await startSandbox({ seed: 11, lawsuits: 3000, rateLimit: 100_000 });
  api = new LawsuitApi({ apiKey: 'sandbox-key', urls: { requests: sb.url, tracking: sb.url, lawsuits: sb.url, transfer: sb.url }, retries: 1, baseDelayMs: 10 });
  wh = await Warehouse.open(`${tmp.dir}/w.duckdb`);
});
afterAll(async () => { await api.close(); await wh.close(); await sb.close(); tmp.cleanup(); });

it('makes the tracking with the document\'s filter and credential, and keeps it the next night', async () => {
  const cnpj = sb.sampleDocuments(200).find((d) => d.search_type === 'cnpj')!.search_key;
  const filtered = parseDocuments(`search_key,side,tribunals,customer_key\n${cnpj},Passive,tjsp|TRT-2,sandbox-credential\n`).documents;
  const cfg = configFor(sb.url, tmp.dir);
  const night = async (docs: typeof filtered) => reconcileTrackings(
    { cfg, api, wh, log: silent, signal: new AbortController().signal, runId: await startRun(wh, { command: 'run' }) } satisfies RunContext,
    docs, { dryRun: false, allowPause: false, recurrenceDays: 1, now: new Date(sb.state.clock.now()) });

  const first = await night(filtered);
  expect(first.created).toBe(1);
  const [record] = await api.tracking.all();
  expect(record.search.search_params).toMatchObject({
    filter: { side: 'Passive', tribunals: { keys: ['TJSP', 'TRT2'], not_equal: false } }, credential: { customer_key: 'sandbox-credential' },
  });
  const second = await night(filtered);
  expect(second).toMatchObject({ created: 0, kept: 1, failures: [] });
  expect((await api.tracking.all()).map((t) => t.tracking_id)).toEqual([record.tracking_id]);

  // the same company without the filter: another search, whose tracking the provider answers 409 with the one it has
  const plain = parseDocuments(`search_key\n${cnpj}\n`).documents;
  const third = await night([...filtered, ...plain]);
  expect(third.failures).toEqual([]);
  expect(new Set(third.trackingOf.values())).toEqual(new Set([record.tracking_id]));
  expect(await api.tracking.all()).toHaveLength(1);
});
