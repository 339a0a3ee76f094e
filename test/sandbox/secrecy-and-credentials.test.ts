// Secrecy: level 3+ lawsuits hide party documents and step content (private steps); level 5 is reachable
// only by its number; a stored credential (customer_key) lifts levels 1 to 4.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { runSearch, sandbox, scan } from './helpers.js';

describe('secrecy', () => {
  let sb: Sandbox;
  let all: any[];
  beforeAll(async () => { sb = await sandbox(); all = scan(sb); });
  afterAll(async () => sb.close());

  test('a level 3-4 lawsuit is masked unless the search names a stored credential', async () => {
    const l = all.find((x) => (x.secrecy_level === 3 || x.secrecy_level === 4) && x.steps.length > 0)!;
    const masked = (await runSearch(sb, { search_type: 'lawsuit_cnj', search_key: l.code })).items.find((i) => i.response_data.instance === l.instance).response_data;
    for (const p of masked.parties) { expect(p.document).toBe(''); expect(p.documents).toEqual([]); }
    for (const s of masked.steps) { expect(s.private).toBe(true); expect(s).not.toHaveProperty('content'); }
    const open = (await runSearch(sb, { search_type: 'lawsuit_cnj', search_key: l.code, search_params: { credential: { customer_key: 'sandbox-credential' } } }))
      .items.find((i) => i.response_data.instance === l.instance).response_data;
    expect(open.parties.some((p: any) => p.document !== '')).toBe(true);
    expect(open.steps.every((s: any) => s.private === false && typeof s.content === 'string')).toBe(true);
    const other = (await runSearch(sb, { search_type: 'lawsuit_cnj', search_key: l.code, search_params: { credential: { customer_key: 'unknown' } } }))
      .items.find((i) => i.response_data.instance === l.instance).response_data;
    expect(other.parties.every((p: any) => p.document === '')).toBe(true);
  });

  test('a level-5 lawsuit is found by its number but not by its parties\' documents', async () => {
    const l = all.find((x) => x.secrecy_level === 5)!;
    const byCnj = await runSearch(sb, { search_type: 'lawsuit_cnj', search_key: l.code });
    expect(byCnj.items.some((i) => i.response_data.instance === l.instance && i.response_data.secrecy_level === 5)).toBe(true);
    const doc = sb.universe.parties(sb.universe.lawsuitsOfCnj(l.code).find((i) => sb.universe.plan(i).instance === l.instance)!)[0];
    const type = doc.documentType === 'CPF' ? 'cpf' : 'cnpj';
    const byDoc = await runSearch(sb, { search_type: type, search_key: doc.document });
    expect(byDoc.items.some((i) => i.response_data.code === l.code && i.response_data.instance === l.instance)).toBe(false);
  });
});
