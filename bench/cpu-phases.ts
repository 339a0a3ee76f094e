import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseResponsesPage } from '../src/api/responses.js';
import { rawTextOf } from '../src/shared/raw-json.js';
import type { Lawsuit, ResponseItem, Search } from '../src/spec/types.js';
import { detectChanges } from '../src/warehouse/changes.js';
import { flattenLawsuit } from '../src/warehouse/flatten.js';
import { startRun } from '../src/warehouse/ledger.js';
import { loadResponseItems } from '../src/warehouse/load.js';
import type { FlatLawsuit } from '../src/warehouse/rows.js';
import { openWorkCopy } from '../src/warehouse/publish.js';
import { resetStaging, stageRows } from '../src/warehouse/stage.js';
import type { Warehouse } from '../src/warehouse/warehouse.js';
import { BenchClient } from './client.js';
import { sandboxChild } from './sandbox-child.js';

// Where a night's own CPU goes, phase by phase: the responses of big litigants' searches, read from the sandbox
// as page texts, then taken through each phase of a night one after the other in this process, each phase's
// process CPU (user and system, every thread: DuckDB's and the garbage collector's included) measured alone, the
// sandbox's apart (its own process). The phases are the night's own code: the client's page parsing, the
// flattening, the staging tables' appends, the load (whose merge is what the load costs beyond the two before),
// DuckDB's checkpoint of the night, change detection, and the publish of the work copy, under the production
// budget (DuckDB's 128MB, one thread). What a whole night costs besides (HTTP, polling, the sweep, the ledger, the
// run's start and reports) is the night's process CPU (parts/memory.ts) less the sum.

export interface CpuPhases {
  lawsuits: number;
  /** CPU seconds of each phase. */
  seconds: { parse: number; flatten: number; staging: number; merge: number; checkpoint: number; changes: number; publish: number };
}

/** Process CPU seconds of `fn`, run alone. */
async function cpu(fn: () => unknown): Promise<number> {
  const before = process.cpuUsage();
  await fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1e6;
}

/** The pages (as texts) of the responses of `searches`, made in a sandbox started with `sandboxArgs`. */
async function pagesOf(searches: ReadonlyArray<{ search_type: string; search_key: string }>, sandboxArgs: string[]): Promise<string[]> {
  const sb = await sandboxChild([...sandboxArgs, '--rate-limit', '100000000']);
  const client = new BenchClient(sb.url);
  try {
    const texts: string[] = [];
    for (const search of searches) {
      // The sandbox's documents, of its own reading of the search types: the spec's names.
      const r = await client.api.requests.create(search as Pick<Search, 'search_type' | 'search_key'>);
      while ((await client.api.requests.get(r.request_id)).status !== 'completed') await new Promise((res) => setTimeout(res, 100));
      // Pages of about 4 MB, as a night reads big litigants' responses.
      for (let page = 1; ; page++) {
        const sent = await client.send('GET', '/responses', { request_id: r.request_id, page, page_size: 700 });
        if (sent.status !== 200) throw new Error(`GET /responses answered ${sent.status}`);
        texts.push(sent.text);
        if (parseResponsesPage(sent.text).items.length < 700) break;
      }
    }
    return texts;
  } finally {
    await client.close();
    sb.stop();
  }
}

/** Each phase's CPU over the responses of `searches` (big litigants) in a sandbox started with `sandboxArgs`. */
export async function cpuPhases(searches: ReadonlyArray<{ search_type: string; search_key: string }>, sandboxArgs: string[]): Promise<CpuPhases> {
  const texts = await pagesOf(searches, sandboxArgs);
  let items: ResponseItem[] = [];
  const parse = await cpu(() => { items = texts.flatMap((t) => parseResponsesPage(t).items); });
  const lawsuits = items.filter((i) => i.response_type === 'lawsuit');
  let flats: FlatLawsuit[] = [];
  const flatten = await cpu(() => {
    flats = lawsuits.map((i) => flattenLawsuit(i.response_data as Lawsuit, { responseId: i.response_id, responseCreatedAt: i.created_at, source: 'async', runId: 'bench', rawText: rawTextOf(i.response_data) }));
  });
  const dir = mkdtempSync(join(tmpdir(), 'lawsuit-bench-cpu-'));
  try {
    const work = await openWorkCopy(join(dir, 'w.duckdb'), { memoryLimit: '128MB', threads: 1 });
    const wh = work.wh;
    const runId = await startRun(wh, { command: 'run' });
    const staging = await cpu(() => stageAll(wh, lawsuits, flats, runId));
    flats = [];
    // As the page sink commits them: a transaction for about a page of items (the night's are 4 MB pages).
    const load = await cpu(async () => {
      for (let at = 0; at < items.length; at += 700) await wh.transaction(() => loadResponseItems(wh, items.slice(at, at + 700), { runId }));
    });
    const checkpoint = await cpu(() => wh.run('CHECKPOINT'));
    const changes = await cpu(() => detectChanges(wh, runId, { now: new Date() }));
    const publish = await cpu(() => work.publish());
    return { lawsuits: lawsuits.length, seconds: { parse, flatten, staging, merge: Math.max(0, load - flatten - staging), checkpoint, changes, publish } };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The staging tables' appends of a night's rows (`flats`, of `items`), in batches of about a page, as the loader makes them. */
async function stageAll(wh: Warehouse, items: readonly ResponseItem[], all: readonly FlatLawsuit[], runId: string): Promise<void> {
  for (let at = 0; at < items.length; at += 700) {
    const batch = items.slice(at, at + 700);
    const flats = all.slice(at, at + 700);
    await wh.transaction(async () => {
      await resetStaging(wh);
      await stageRows(wh, 'responses', batch.map((i) => ({ response_id: i.response_id, request_id: i.request_id, response_type: i.response_type, created_at: i.created_at, item: rawTextOf(i), run_id: runId })));
      for (const t of ['lawsuits', 'parties', 'lawyers', 'steps', 'subjects', 'classifications', 'courts', 'attachments'] as const) {
        await stageRows(wh, t, flats.flatMap((f) => (t === 'lawsuits' ? [f.lawsuit] : f[t]) as object[]));
      }
    });
  }
}
