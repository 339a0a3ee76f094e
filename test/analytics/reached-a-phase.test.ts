import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENTITIES } from '../../src/sandbox/public-entities.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { configFor, nightly, query, scratch } from '../support/pipeline.js';

// Query 6 of docs/warehouse.md, "Which lawsuits reached Sentença this week?", on a sandbox whose data moves: a lawsuit first
// seen already in Sentença has not been seen reaching it; one whose recorded phase changed to Sentença has.

function docQuery(question: string): string {
  const doc = readFileSync('docs/warehouse.md', 'utf8');
  const at = doc.indexOf(question);
  const m = /```sql\n([\s\S]*?)```/.exec(doc.slice(at));
  if (at < 0 || !m) throw new Error(`no query under "${question}" in docs/warehouse.md`);
  return m[1];
}

describe('the analysts\' query 6 on data that moves', () => {
  let sb: Sandbox;
  const tmp = scratch();
  const wh = join(tmp.dir, 'warehouse.duckdb');
  // two nights back to back would otherwise wait out the key's rate window between them
  beforeAll(async () => { sb = await startSandbox({ seed: 1, rateLimit: 100_000 }); });
  afterAll(async () => { await sb.close(); tmp.cleanup(); });

  it('returns lawsuits whose phase changed to Sentença, never those first seen in it', async () => {
    // the example list and a municipality's tax enforcements besides: enough lawsuits that a year moves some to Sentença
    const list = join(tmp.dir, 'documents.csv');
    const campinas = ENTITIES.find((e) => e.name === 'Município de Campinas')!;
    writeFileSync(list, `${readFileSync('config/documents.example.csv', 'utf8')}${campinas.document},cnpj,,,,${campinas.name}\n`);
    const cfg = configFor(sb.url, tmp.dir, { LAWSUIT_DOCUMENTS: list, LAWSUIT_SKIP_TRANSFER: 'true', LAWSUIT_SKIP_EXPORT: 'true' }, { force: true });
    expect((await nightly(cfg)).status).toBe('ok');
    sb.advanceDays(400); // a year on: lawsuits move through their phases, new ones are distributed
    const second = await nightly(cfg);
    expect(second.status, JSON.stringify(second.failures.slice(0, 3))).toBe('ok');

    const reached = await query<{ code: string; instance: number; previous_phase: string | null }>(wh, docQuery('Which lawsuits reached Sentença this week?'));
    const firstSeenInSentenca = await query<{ code: string; instance: number }>(wh, `
      SELECT code, instance FROM lawsuit_status_history h
      WHERE phase = 'Sentença' AND previous_phase IS NULL AND NOT EXISTS (
        SELECT 1 FROM lawsuit_status_history e WHERE e.code = h.code AND e.instance = h.instance AND e.valid_from < h.valid_from)`);
    const moved = await query<{ n: number }>(wh, `SELECT count(*)::INTEGER AS n FROM lawsuit_status_history WHERE phase = 'Sentença' AND previous_phase IS NOT NULL AND previous_phase <> 'Sentença'`);

    // the data did move both ways, so the query has something to tell apart
    expect(firstSeenInSentenca.length).toBeGreaterThan(0);
    expect(moved[0].n).toBeGreaterThan(0);
    expect(reached).toHaveLength(moved[0].n);
    for (const r of reached) expect(r.previous_phase, `${r.code} #${r.instance}`).not.toBeNull();
    const reachedKeys = new Set(reached.map((r) => `${r.code}#${r.instance}`));
    for (const f of firstSeenInSentenca) expect(reachedKeys.has(`${f.code}#${f.instance}`), `${f.code} #${f.instance} was first seen in Sentença`).toBe(false);
  });
});
