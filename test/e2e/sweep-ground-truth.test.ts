import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { readDocuments } from '../../src/input/documents.js';
import { searchFor } from '../../src/pipeline/plan.js';
import { waitFinished } from '../sandbox/helpers.js';
import { warehouseFingerprint } from '../support/cli.js';
import { configFor, countOf, nightly, query, scratch } from '../support/pipeline.js';

// The ground truth under the sweep across requests: the warehouse holds exactly the lawsuits the sandbox says
// each document finds, with every fault of the sandbox on, responses appended court by court while the sweep
// pages through them, and another client on the key whose responses are interleaved with ours (none of them may
// reach the warehouse). Against an upstream that ignores the listing's filters, the run falls back to
// per-request reading at once, says why, and ends with the warehouse of a clean run.

const FAULTS = '5xx=0.05,reset=0.03,reset_after=0.03,slow=0.05:300,truncate=0.03,storm=0.03:800,pending_long=0.2:800,cancel=0.1,post_after_store=0.1,foreign=0.3:300';

describe('the sweep against the ground truth', () => {
  const tmp = scratch();
  const documents = join(tmp.dir, 'documents.csv');
  const sandboxes: Sandbox[] = [];
  beforeAll(() => {
    writeFileSync(documents, readFileSync('config/documents.example.csv', 'utf8').split('\n').slice(0, 30).join('\n'));
  });
  afterAll(async () => {
    await Promise.all(sandboxes.map((s) => s.close()));
    tmp.cleanup();
  });
  const sandbox = async (faults?: string): Promise<Sandbox> => {
    const sb = await startSandbox({ seed: 1, courtDelayMs: 100, rateLimit: 100_000, faults });
    sandboxes.push(sb);
    return sb;
  };
  const config = (sb: Sandbox, name: string, extra: Record<string, string> = {}) => configFor(sb.url, join(tmp.dir, name), {
    LAWSUIT_DOCUMENTS: documents, LAWSUIT_WAREHOUSE: join(tmp.dir, `${name}.duckdb`), LAWSUIT_SKIP_TRANSFER: 'true', LAWSUIT_SKIP_EXPORT: 'true',
    LAWSUIT_REPORTS_DIR: join(tmp.dir, `${name}-reports`), ...extra,
  });
  // What each document's search finds (search_hits) is the first test's subject, the reading strategy the
  // second's: their nights keep the searches' headers only (the lawsuit level under every fault is faults.test.ts's).
  const HEADERS = { LAWSUIT_DETAIL: 'header' };

  it('every fault on and another client on the key: exactly the lawsuits each document finds, none of the other client\'s', async () => {
    const sb = await sandbox(FAULTS);
    const cfg = config(sb, 'faulty', HEADERS);
    const summary = await nightly(cfg);
    expect(summary.status, JSON.stringify(summary.failures)).toBe('ok');
    const list = await readDocuments(documents);
    expect(countOf(summary, 'search', 'completed')).toBe(list.documents.length);
    expect(countOf(summary, 'search', 'sweep_pages')).toBeGreaterThan(0);

    const hits = await query<{ search_type: string; search_key: string; on_demand: boolean; lawsuit_instance: number | null; code: string; instance: number }>(cfg.warehouse,
      `SELECT r.search_type, r.search_key, r.on_demand, r.lawsuit_instance, h.code, h.instance FROM search_hits h JOIN requests r USING (request_id)`);
    const expected = new Set<string>();
    for (const doc of list.documents) {
      const truth = new Set(sb.truth(searchFor(doc)).map((l) => `${l.code}#${l.instance}`));
      truth.forEach((k) => expected.add(k));
      const got = new Set(hits.filter((h) => h.search_type === doc.searchType && h.search_key === doc.searchKey && h.on_demand === doc.onDemand
        && (h.lawsuit_instance ?? undefined) === doc.lawsuitInstance).map((h) => `${h.code}#${h.instance}`));
      expect([...got].sort(), `line ${doc.line} ${doc.searchType} ${doc.searchKey}`).toEqual([...truth].sort());
    }
    const lawsuits = await query<{ k: string }>(cfg.warehouse, `SELECT code || '#' || instance AS k FROM lawsuits`);
    expect(new Set(lawsuits.map((r) => r.k))).toEqual(expected);

    const [f] = await query<{ foreign: number; skipped: number; loaded: number; unloaded: number }>(cfg.warehouse, `SELECT
      (SELECT count(*) FROM responses_raw WHERE request_id NOT IN (SELECT request_id FROM requests)) AS foreign,
      (SELECT sum(items_skipped) FROM response_sweeps) AS skipped,
      (SELECT count(*) FROM requests WHERE status = 'completed' AND loaded_at IS NOT NULL AND basis IS NULL) AS loaded,
      (SELECT count(*) FROM requests WHERE status = 'completed' AND loaded_at IS NULL) AS unloaded`);
    expect(f.skipped, 'the other client\'s responses were in the listing').toBeGreaterThan(0);
    expect(f.foreign).toBe(0);
    expect(f.loaded).toBe(list.documents.length);
    expect(f.unloaded).toBe(0);
  });

  it('an upstream ignoring the listing\'s filters: per-request reading at once, the check named, the clean run\'s warehouse', async () => {
    // the list's first 11 documents: the strategy is the subject, and read per request the 29 took 38 s
    const few = join(tmp.dir, 'few.csv');
    writeFileSync(few, readFileSync(documents, 'utf8').split('\n').slice(0, 12).join('\n'));
    const FEW = { ...HEADERS, LAWSUIT_DOCUMENTS: few };
    const clean = await sandbox();
    const cleanCfg = config(clean, 'clean', FEW);
    expect((await nightly(cleanCfg)).status).toBe('ok');

    const ignoring = await sandbox('ignore_filters=1');
    // the key has a history before tonight: its whole history answers responses before the night's first request
    const earlier = await fetch(`${ignoring.url}/requests`, {
      method: 'POST', headers: { 'api-key': 'sandbox-key', 'content-type': 'application/json' },
      body: JSON.stringify({ search: { search_type: 'cnpj', search_key: ignoring.sampleDocuments(40).find((d) => d.search_type === 'cnpj')!.search_key } }),
    });
    expect(earlier.ok, String(earlier.status)).toBe(true);
    expect(await waitFinished(ignoring, ((await earlier.json()) as { request_id: string }).request_id)).toBe('completed');
    const cfg = config(ignoring, 'ignoring', FEW);
    const summary = await nightly(cfg);
    expect(summary.status).toBe('ok');
    // The dialect probe finds the sort ignored before the night reads anything: no sweep is started at all.
    expect(countOf(summary, 'search', 'sweep_stopped')).toBe(0);
    expect(summary.notes?.join('\n')).toMatch(/responses read per request: the upstream honours no sort name/);
    expect(await warehouseFingerprint(cfg.warehouse)).toEqual(await warehouseFingerprint(cleanCfg.warehouse));
    const [r] = await query<{ swept: number; earlier: number }>(cfg.warehouse, `SELECT (SELECT count(*) FROM requests WHERE strategy = 'sweep') AS swept,
      (SELECT count(*) FROM responses_raw WHERE request_id NOT IN (SELECT request_id FROM requests)) AS earlier`);
    expect(r).toEqual({ swept: 0, earlier: 0 });
  });
});
