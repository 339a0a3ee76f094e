import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { loadTransferFile } from '../../src/warehouse/transfer-load.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { configFor, nightly, scratch } from '../support/pipeline.js';
import { startRewritingProxy, type RewritingProxy } from '../support/rewriting-proxy.js';

// The API key echoed by the upstream inside a payload — a lawsuit's name, a party's, the crawler's source name —
// landed in lawsuits, lawsuit_changes, responses_raw and the Parquet exports (a key echoed in an error body was
// already redacted). The upstream here is the sandbox behind a proxy that writes the caller's key into every
// name and source name of the responses; afterwards no table, export or report holds it.

const KEY = 'sandbox-key';

/** Every text (VARCHAR or JSON) column of every table of the warehouse at `path` whose values hold `needle`. */
async function columnsHolding(path: string, needle: string): Promise<string[]> {
  const wh = await Warehouse.open(path, { readOnly: true });
  try {
    const cols = await wh.all<{ t: string; c: string }>(`SELECT table_name AS t, column_name AS c FROM information_schema.columns
      WHERE table_schema = 'main' AND data_type IN ('VARCHAR', 'JSON') AND table_name IN (SELECT table_name FROM duckdb_tables())`);
    const out: string[] = [];
    for (const { t, c } of cols) {
      const [{ n }] = await wh.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM "${t}" WHERE contains(CAST("${c}" AS VARCHAR), $1)`, [needle]);
      if (n > 0) out.push(`${t}.${c} (${n})`);
    }
    return out;
  } finally {
    await wh.close();
  }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe('a key the upstream echoes inside its payloads', () => {
  let sb: Sandbox;
  let proxy: RewritingProxy;
  let echoed = 0;
  const tmp = scratch();
  beforeAll(async () => {
    // the provider's 180 calls a minute is not the subject: the night reads its lawsuits whole
    sb = await startSandbox({ courtDelayMs: 0, rateLimit: 100_000 });
    proxy = await startRewritingProxy(sb.url, (call, a) => {
      if (call.path !== '/responses') return a;
      const body = a.body.replace(/"(name|source_name)":"/g, (_m, field: string) => { echoed++; return `"${field}":"${KEY} `; });
      return { ...a, body };
    });
  });
  afterAll(async () => { await proxy.close(); await sb.close(); tmp.cleanup(); });

  it('is in no table, no Parquet export and no report, and the names are kept around it', async () => {
    // the example list's first 15 documents, read whole: every table a name can reach, at a third of the night
    const list = join(tmp.dir, 'documents.csv');
    writeFileSync(list, readFileSync('config/documents.example.csv', 'utf8').split('\n').slice(0, 16).join('\n'));
    const cfg = configFor(proxy.url, tmp.dir, { LAWSUIT_SKIP_TRANSFER: 'true', LAWSUIT_DOCUMENTS: list });
    const s = await nightly(cfg);
    expect(s.status).toBe('ok');
    expect(echoed).toBeGreaterThan(100);
    expect(await columnsHolding(cfg.warehouse, KEY)).toEqual([]);
    // the rest of each name is kept, the key replaced where it stood
    expect((await columnsHolding(cfg.warehouse, '[redacted] ')).filter((c) => /^(lawsuits\.name|responses_raw\.item|parties\.name) /.test(c))).toHaveLength(3);
    const exports = filesUnder(cfg.exportDir).filter((f) => f.endsWith('.parquet'));
    expect(exports.length).toBeGreaterThan(5);
    const wh = await Warehouse.open(':memory:');
    try {
      for (const f of exports) {
        const [{ n }] = await wh.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM read_parquet($1) x WHERE contains(CAST(to_json(x) AS VARCHAR), $2)`, [f, KEY]);
        expect(n, f).toBe(0);
      }
    } finally {
      await wh.close();
    }
    for (const f of filesUnder(cfg.reportsDir)) expect(readFileSync(f, 'utf8').includes(KEY), f).toBe(false);
  }, 120_000);

  it('is in no text column of a transfer file\'s rows', async () => {
    const csv = join(tmp.dir, 'lawsuits.csv');
    writeFileSync(csv, `code,instance,name,city\n0000001-02.2020.8.26.0100,1,"Fulano ${KEY} x Beltrano",São Paulo\n0000002-02.2020.8.26.0100,1,${KEY},Santos\n`);
    const wh = await Warehouse.open(join(tmp.dir, 'transfer.duckdb'));
    try {
      await loadTransferFile(wh, {
        meta: { transfer_file_id: 'f1', name: 'lawsuits.csv', file_type: 'csv' }, path: csv, runId: 'r1', attempts: 1, secrets: [KEY],
      });
      const rows = await wh.all<{ name: string; city: string }>('SELECT name, city FROM transfer_lawsuits ORDER BY code');
      expect(rows).toEqual([{ name: 'Fulano [redacted] x Beltrano', city: 'São Paulo' }, { name: '[redacted]', city: 'Santos' }]);
    } finally {
      await wh.close();
    }
  });
});
