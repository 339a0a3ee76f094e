import { OPTIONS } from '../src/shared/options/table.js';
import { Warehouse } from '../src/warehouse/warehouse.js';
import { pipelineRun } from './pipeline-run.js';
import { round } from './round.js';

// Calls per document against the floor. A night is bounded by the key's rate limit (180 calls a minute, some
// 259,200 a day), not by CPU, so every call spent is a document not searched. The floor of a night is one
// POST /requests per document searched, the listing pages the responses need, and the polls completion needs
// (the batched requests listing and the single probes, as the run made them: the same for both strategies). A
// page holds at most the page size the run learned the upstream serves (1000 in the documented dialect, 100 in
// the spec's) and at most the bytes a run holds a page to (half the loader's batch budget, 4 MB at the
// production 128 MB: "always under the byte budget per page"), so the pages needed are the larger of
// ceil(responses / page size) and ceil(their bytes / 4 MB): big litigants' lawsuits of many steps fill 4 MB
// long before 1000 of them.
// `calls_vs_floor` = calls made / floor; `documents_per_key_day` = 259,200 / calls per document.

export const KEY_CALLS_PER_DAY = 180 * 60 * 24;

/**
 * The bytes a run holds a page to at the default memory limit (src/pipeline/stages/search.ts: half a batch of the
 * warehouse's budget), as a run computes it: from DuckDB's own reading of the limit. '128MB' is 128,000,000 bytes
 * to DuckDB (122.0 MiB), so a page is held to 4.00 MB; the floor counted pages of 4 MiB until 2026-11-28, 4.9% more
 * than any run reads, which put a night of big litigants' pages about 5% over its floor whatever it did.
 */
export async function pageBytes(): Promise<number> {
  const wh = await Warehouse.open(':memory:', { memoryLimit: String(OPTIONS.duckdbMemoryLimit.default) });
  try {
    return Math.floor(wh.budget.batchBytes / 2);
  } finally {
    await wh.close();
  }
}

export interface CallsFigures {
  mix: string;
  dialect: string;
  /** The page size the run learned (upstream_dialects), the floor's. */
  pageSize: number;
  /** Listing pages the floor counts: by items at pageSize, or by bytes at the page's byte budget, the larger. */
  floorPages: number;
  /** Characters of the responses' text (what the byte budget holds pages to). */
  responseBytes: number;
  strategy: 'sweep' | 'per-request';
  exitCode: number | null;
  documents: number;
  calls: number;
  submissions: number;
  polls: number;
  /** Listing calls of them (GET /responses), the probe's included. */
  listingCalls: number;
  /** Calls the night spent learning the upstream's dialect (the first night's probe). */
  probeCalls: number;
  responses: number;
  floor: number;
  callsVsFloor: number;
  documentsPerKeyDay: number;
  ms: number;
}

interface Inspected { calls: number; byRoute: Record<string, number>; responses: number; responseBytes: number; documents: number; pageSize: number; probeCalls: number }

async function inspect(path: string): Promise<Inspected> {
  const wh = await Warehouse.open(path, { readOnly: true });
  try {
    const [run] = await wh.all<{ summary: string }>(`SELECT summary::VARCHAR AS summary FROM runs WHERE command = 'run' ORDER BY started_at DESC LIMIT 1`);
    const summary = JSON.parse(run.summary) as { api: { calls: number; byRouteStatus?: Record<string, number> } };
    const byRoute: Record<string, number> = {};
    for (const [k, v] of Object.entries(summary.api.byRouteStatus ?? {})) {
      const route = k.replace(/ \S+$/, '');
      byRoute[route] = (byRoute[route] ?? 0) + v;
    }
    const [r] = await wh.all<{ responses: number; documents: number; bytes: number }>(`SELECT (SELECT count(*) FROM responses_raw) AS responses,
      (SELECT count(*) FROM requests) AS documents, (SELECT coalesce(sum(length(item::VARCHAR)), 0) FROM v_responses_raw)::DOUBLE AS bytes`);
    const [d] = await wh.all<{ dialect: string; probe_calls: number }>('SELECT dialect::VARCHAR AS dialect, probe_calls FROM upstream_dialects LIMIT 1');
    const pageSize = d ? (JSON.parse(d.dialect) as { pageSize: number }).pageSize : 100;
    return { calls: summary.api.calls, byRoute, responses: r.responses, responseBytes: Number(r.bytes), documents: r.documents, pageSize, probeCalls: Number(d?.probe_calls ?? 0) };
  } finally {
    await wh.close();
  }
}

/** One night of `csv` read with `strategy`, against a sandbox of its own speaking `dialect`, started with `sandboxArgs`. */
export async function callsRun(mix: string, csv: string, strategy: 'sweep' | 'per-request', sandboxArgs: string[], dialect = 'documented'): Promise<CallsFigures> {
  const r = await pipelineRun({ csv, sandboxArgs: [...sandboxArgs, '--dialect', dialect], env: { LAWSUIT_RESPONSES_STRATEGY: strategy }, inspect });
  const i = r.inspected!;
  const submissions = i.byRoute['POST /requests'] ?? 0;
  const polls = (i.byRoute['GET /requests'] ?? 0) + (i.byRoute['GET /requests/:id'] ?? 0);
  const floorPages = Math.max(Math.ceil(i.responses / i.pageSize), Math.ceil(i.responseBytes / await pageBytes()));
  const floor = submissions + floorPages + polls;
  return {
    mix, dialect, pageSize: i.pageSize, floorPages, responseBytes: i.responseBytes, strategy, exitCode: r.exitCode, documents: i.documents, calls: i.calls, submissions, polls,
    listingCalls: i.byRoute['GET /responses'] ?? 0, probeCalls: i.probeCalls, responses: i.responses, floor,
    callsVsFloor: round(i.calls / floor), documentsPerKeyDay: Math.round(KEY_CALLS_PER_DAY / (i.calls / Math.max(1, i.documents))), ms: r.ms,
  };
}
