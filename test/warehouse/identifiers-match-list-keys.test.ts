import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { normaliseKey } from '../../src/input/normalise.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { loadResponseItems } from '../../src/warehouse/load.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { configFor, nightly, query, scratch } from '../support/pipeline.js';

// A lawyer's OAB, a party's CPF or CNPJ and a lawsuit's CNJ number in the warehouse have the very form a key of
// the documents list takes (one identifiers module, src/spec): a user who searches for what the warehouse shows
// gets that lawsuit, and a join of the warehouse on the list's keys finds it.

describe('identifiers in the warehouse take the documents list\'s form', () => {
  let sb: Sandbox;
  const tmp = scratch();
  const wh = join(tmp.dir, 'warehouse.duckdb');
  beforeAll(async () => {
    // the rate limit raised: the identifiers are the subject, not the pace (70 s of the suite at the sandbox's default)
    sb = await startSandbox({ seed: 5, rateLimit: 100_000 });
    const cfg = configFor(sb.url, tmp.dir, { LAWSUIT_SKIP_TRANSFER: 'true', LAWSUIT_SKIP_EXPORT: 'true' });
    expect((await nightly(cfg)).status).toBe('ok');
  }, 240_000);
  afterAll(async () => { await sb.close(); tmp.cleanup(); });

  it('OAB numbers: each is its own normal key, and searching it finds the lawsuit it is on', async () => {
    const lawyers = await query<{ oab: string; code: string; instance: number }>(wh, `SELECT DISTINCT oab, code, instance FROM lawyers WHERE oab IS NOT NULL ORDER BY oab LIMIT 300`);
    expect(lawyers.length).toBeGreaterThan(50);
    for (const l of lawyers) {
      const key = normaliseKey('oab', l.oab);
      expect(key.ok && key.key, l.oab).toBe(l.oab);
      const found = sb.truth({ search_type: 'oab', search_key: l.oab }).map((x) => `${x.code}#${x.instance}`);
      expect(found, `${l.oab} on ${l.code} #${l.instance}`).toContain(`${l.code}#${l.instance}`);
    }
  });

  it('CPF and CNPJ: each party document is its own normal key, and searching it finds the lawsuit', async () => {
    const parties = await query<{ document: string; document_type: string; code: string; instance: number }>(wh, `
      SELECT DISTINCT document, document_type, code, instance FROM parties WHERE document_type IN ('CPF', 'CNPJ') AND document IS NOT NULL ORDER BY document LIMIT 300`);
    expect(parties.length).toBeGreaterThan(50);
    for (const p of parties) {
      const type = p.document_type === 'CPF' ? 'cpf' : 'cnpj';
      const key = normaliseKey(type, p.document);
      expect(key.ok && key.key, p.document).toBe(p.document);
      expect(sb.truth({ search_type: type, search_key: p.document }).map((x) => `${x.code}#${x.instance}`), p.document).toContain(`${p.code}#${p.instance}`);
    }
  });

  it('CNJ numbers: every lawsuit code is its own normal key', async () => {
    const codes = await query<{ code: string }>(wh, 'SELECT DISTINCT code FROM lawsuits');
    expect(codes.length).toBeGreaterThan(50);
    for (const { code } of codes) {
      const key = normaliseKey('lawsuit_cnj', code);
      expect(key.ok && key.key, code).toBe(code);
    }
  });

  it('the spellings tribunals use take the list\'s form too (OAB/SP 123.456, SP00123456, a punctuated CNPJ, digits of a CNJ)', async () => {
    const mem = await Warehouse.open(':memory:');
    try {
      const spellings = ['OAB/SP 123.456', 'SP00123456', '123.456/SP', 'oab sp 123456', 'DF0012345A'];
      await loadResponseItems(mem, [{
        request_id: 'r', response_id: 'x', response_type: 'lawsuit', created_at: '2026-01-01T00:00:00Z',
        response_data: {
          code: '07108025520188020001', instance: 1,
          parties: [
            { name: 'Empresa', side: 'Passive', document: '11.222.333/0001-81', lawyers: spellings.map((oab) => ({ name: 'Adv', oab })) },
            { name: 'Pessoa', side: 'Active', document: '092.065.297-22' },
          ],
        },
      } as never], { runId: 'r1' });
      const oabs = (await mem.all<{ oab: string }>('SELECT oab FROM lawyers ORDER BY lawyer_index')).map((r) => r.oab);
      expect(oabs).toEqual(spellings.map((o) => { const k = normaliseKey('oab', o); return k.ok ? k.key : null; }));
      expect(oabs).toEqual(['123456SP', '123456SP', '123456SP', '123456SP', '12345DFA']);
      const docs = (await mem.all<{ document: string }>('SELECT document FROM parties ORDER BY party_index')).map((r) => r.document);
      expect(docs).toEqual(['11222333000181', '09206529722']);
      const [{ code }] = await mem.all<{ code: string }>('SELECT code FROM lawsuits');
      const key = normaliseKey('lawsuit_cnj', '0710802-55.2018.8.02.0001');
      expect(code).toBe(key.ok ? key.key : null);
    } finally {
      await mem.close();
    }
  });
});
