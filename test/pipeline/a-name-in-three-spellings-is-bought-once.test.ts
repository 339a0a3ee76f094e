import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { bought } from '../support/cli.js';
import { configFor, countOf, nightly, query, scratch } from '../support/pipeline.js';

// A name the list writes three ways ("Ricardo Medeiros Viana", "ricardo medeiros viana", "RICARDO MEDEIROS
// VIANA") is one search: bought once, sent as first written, its lawsuits loaded once; the next night, the list
// writing it a fourth way, finds it fresh in the ledger and buys nothing. (Before: three searches, same lawsuits.)

describe('a name written in three spellings', () => {
  let sb: Sandbox;
  const tmp = scratch();
  beforeAll(async () => { sb = await startSandbox({ seed: 3 }); });
  afterAll(async () => { await sb.close(); tmp.cleanup(); });

  it('is one search, the first spelling sent, and stays one across nights', async () => {
    const name = sb.sampleDocuments(400).find((d) => d.search_type === 'name' && /\p{Lu}/u.test(d.search_key) && sb.truth(d).length > 0)!;
    expect(name, 'the sandbox has a name that finds lawsuits').toBeDefined();
    const found = sb.truth(name).length;
    const upper = name.search_key.toUpperCase();
    const lower = name.search_key.toLowerCase();
    const list = join(tmp.dir, 'names.csv');
    writeFileSync(list, `search_key,search_type\n${name.search_key},name\n${lower},name\n  ${upper.split(' ').join('   ')} ,name\n`);
    const cfg = configFor(sb.url, tmp.dir, { LAWSUIT_DOCUMENTS: list, LAWSUIT_SKIP_TRANSFER: 'true', LAWSUIT_SKIP_EXPORT: 'true',
      // the documents' wave is the subject: the lawsuit level has its own tests (two-levels-*)
      LAWSUIT_DETAIL: 'header' });

    const first = await nightly(cfg);
    expect(first.status).toBe('ok');
    expect(countOf(first, 'documents', 'duplicates')).toBe(2);
    expect(countOf(first, 'search', 'submitted')).toBe(1);
    expect(await bought(sb.url)).toBe(1);
    const requests = await query<{ search_key: string }>(cfg.warehouse, 'SELECT search_key FROM requests');
    expect(requests).toEqual([{ search_key: name.search_key }]);
    const [{ n }] = await query<{ n: number }>(cfg.warehouse, 'SELECT count(DISTINCT (code, instance))::INTEGER AS n FROM search_hits');
    expect(n).toBe(found);

    writeFileSync(list, `search_key,search_type\n${upper},name\n`);
    const second = await nightly(cfg);
    expect(second.status).toBe('ok');
    expect(countOf(second, 'documents', 'fresh')).toBe(1);
    expect(countOf(second, 'search', 'submitted')).toBe(0);
    expect(await bought(sb.url)).toBe(1);
  }, 120_000);
});
