import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyDocuments } from '../../bench/documents.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { configFor, countOf, nightly, query, scratch } from '../support/pipeline.js';

// A night of two companies with thousands of lawsuits each, in the documented dialect (pages of up to 1000),
// while the sandbox appends their responses court by court: `npm run bench`'s companies mix, smaller. Their
// lawsuits are big, so a page is held by bytes (page-size.ts) long before it holds 1000 of them; DuckDB's memory
// limit is set low here (64 MB: pages of 2 MB, about 340 lawsuits) so that a few thousand responses take as many
// pages as the bench's tens of thousands at the production budget. Counted against the sandbox: the sweep reads
// them in the pages their bytes need, plus at most one, and is never judged costlier than per-request reading
// (which, counting pages by items alone, it was: the night switched after a few pages with nothing foreign on the
// key, and reading per request then ran this one out of DuckDB's 64 MB).

const tmp = scratch('companies-floor-');
let sb: Sandbox;
beforeAll(async () => { sb = await startSandbox({ seed: 7, lawsuits: 200_000, courtDelayMs: 40, rateLimit: 1_000_000, dialect: 'documented' }); });
afterAll(async () => { await sb.close(); tmp.cleanup(); });

describe('a companies night in the documented dialect', () => {
  it('reads its responses in the pages their bytes need, by the sweep to the end, and learns the dialect in one call', async () => {
    const docs = join(tmp.dir, 'companies.csv');
    writeFileSync(docs, companyDocuments(sb, 2, 1000).csv);
    const summary = await nightly(configFor(sb.url, tmp.dir, {
      LAWSUIT_DOCUMENTS: docs, LAWSUIT_DUCKDB_MEMORY_LIMIT: '64MB', LAWSUIT_SKIP_TRANSFER: 'true', LAWSUIT_SKIP_EXPORT: 'true',
      // the searches' headers only: their sweep is the subject, not the thousands of lawsuit-level reads after it
      LAWSUIT_DETAIL: 'header',
    }));
    expect(summary.status, JSON.stringify(summary.stages.map((s) => [s.name, s.status, (s as { error?: unknown }).error]))).toBe('ok');
    const [r] = await query<{ responses: number; bytes: number; probe: number }>(join(tmp.dir, 'warehouse.duckdb'), `SELECT (SELECT count(*) FROM responses_raw)::INTEGER AS responses,
      (SELECT sum(length(item::VARCHAR)) FROM v_responses_raw)::DOUBLE AS bytes, (SELECT probe_calls FROM upstream_dialects) AS probe`);
    // What the run holds a page to: half its batch budget, from DuckDB's own reading of the limit (61.0 MiB).
    const wh = await Warehouse.open(':memory:', { memoryLimit: '64MB' });
    const pageBytes = wh.budget.batchBytes / 2;
    await wh.close();
    const floorPages = Math.max(Math.ceil(r.responses / 1000), Math.ceil(r.bytes / pageBytes));
    expect(floorPages, JSON.stringify({ ...r, listing: Object.entries(summary.api.byRouteStatus ?? {}) })).toBeGreaterThan(Math.ceil(r.responses / 1000)); // held by bytes, not items
    const listing = Object.entries(summary.api.byRouteStatus ?? {}).filter(([k]) => k.startsWith('GET /responses ')).reduce((n, [, v]) => n + v, 0);
    // The first night on an empty key: the page size and the first sort names accepted, nothing more to learn.
    expect(r.probe).toBe(1);
    expect(countOf(summary, 'search', 'sweep_stopped')).toBe(0);
    expect(countOf(summary, 'search', 'per_request')).toBe(0);
    expect(listing - r.probe).toBeLessThanOrEqual(floorPages + 1);
  });
});
