import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import type { Plan } from '../../src/sandbox/plan.js';
import { bought } from '../support/cli.js';
import { configFor, countOf, nightly, query, scratch } from '../support/pipeline.js';

// A documents list with the provider's documented filters and options (CONTRACT.md, "The documents list"),
// against the sandbox: each filter, the credential and masked_response reach the request as documented
// (search_params.filter, .credential.customer_key, .masked_response), with_attachments its top level; one
// document with two filter sets is two searches, the same set written another way none more; a line with a value
// the provider cannot take is rejected with its reason and never searched; the sandbox's answers honour the
// filters (its ground truth, and every lawsuit loaded meets them); and the next night buys nothing again.

const CREDENTIAL = 'sandbox-credential';

interface Chosen { cnpj: string; filter: { side: string; tribunals: string[]; amount_gte: number }; all: number; filtered: Array<{ code: string; instance: number }> }

function planOf(sb: Sandbox, l: { code: string; instance: number }): Plan {
  return sb.universe.lawsuitsOfCnj(l.code).map((i) => sb.universe.plan(i)).find((p) => p.instance === l.instance)!;
}

/** A company with lawsuits in several tribunals, and a filter that keeps some of them and not all. */
function choose(sb: Sandbox): Chosen {
  for (const d of sb.sampleDocuments(600).filter((x) => x.search_type === 'cnpj')) {
    const all = sb.truth(d);
    if (all.length < 6) continue;
    const plans = all.map((l) => planOf(sb, l));
    const tribunals = [...new Set(plans.map((p) => p.tribunal.acronym))].slice(0, 2);
    const amounts = plans.map((p) => p.amount).sort((a, b) => a - b);
    const amount_gte = Math.floor(amounts[Math.floor(amounts.length / 4)]);
    for (const side of ['Passive', 'Active']) {
      const filter = { side, tribunals, amount_gte };
      const filtered = sb.truth({ ...d, search_params: { filter: { side, amount_gte, tribunals: { keys: tribunals, not_equal: false } }, credential: { customer_key: CREDENTIAL } } });
      if (filtered.length > 0 && filtered.length < all.length) return { cnpj: d.search_key, filter, all: all.length, filtered };
    }
  }
  throw new Error('no company in the sandbox to filter');
}

describe('a filtered portfolio', () => {
  let sb: Sandbox;
  const tmp = scratch();
  beforeAll(async () => { sb = await startSandbox({ seed: 7 }); });
  afterAll(async () => { await sb.close(); tmp.cleanup(); });

  it('sends each filter as documented, buys one search per filter set, rejects what the provider cannot take, and gets only what it asked', async () => {
    const c = choose(sb);
    const cnj = c.filtered[0].code;
    const punctuated = c.cnpj.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, '$1.$2.$3/$4-$5');
    const header = 'search_key,search_type,side,amount_gte,tribunals,customer_key,masked_response,with_attachments';
    const list = join(tmp.dir, 'portfolio.csv');
    writeFileSync(list, [
      header,
      `${c.cnpj},cnpj,,,,,,`,
      `${c.cnpj},cnpj,${c.filter.side},${c.filter.amount_gte},${c.filter.tribunals.join('|')},${CREDENTIAL},true,`,
      // the same filter set written another way: a duplicate, not bought
      `${punctuated},,${c.filter.side.toUpperCase()},${c.filter.amount_gte}.00,${[...c.filter.tribunals].reverse().map((t) => ` ${t.toLowerCase()} `).join('|')},${CREDENTIAL},sim,`,
      // a tribunal the provider does not have: rejected, never searched
      `${c.cnpj},cnpj,${c.filter.side},,TJSP|TJXYZ,,,`,
      `${cnj},lawsuit_cnj,,,,,,true`,
    ].join('\n'));
    // Headers only: what the searches themselves buy and find (docs/two-levels.md); a whole night reads each lawsuit
    // found besides, the filtered portfolio's fewer.
    const cfg = configFor(sb.url, tmp.dir, { LAWSUIT_DOCUMENTS: list, LAWSUIT_SKIP_TRANSFER: 'true', LAWSUIT_SKIP_EXPORT: 'true', LAWSUIT_DETAIL: 'header' });

    const first = await nightly(cfg);
    expect(first.status).toBe('ok');
    expect(countOf(first, 'documents', 'duplicates')).toBe(1);
    expect(countOf(first, 'documents', 'rejected')).toBe(1);
    expect(countOf(first, 'search', 'submitted')).toBe(3);
    expect(await bought(sb.url)).toBe(3);
    const [rejected] = await query<{ line: number; reason: string }>(cfg.warehouse, 'SELECT line, reason FROM rejected_inputs');
    expect(rejected.line).toBe(5);
    expect(rejected.reason).toMatch(/tribunals: unknown acronym "TJXYZ"/);

    // The bodies as sent: the ledger keeps the search, the sandbox echoes it, and names what it did not honour.
    const requests = await query<{ request_id: string; search: string; with_attachments: boolean | null }>(cfg.warehouse,
      'SELECT request_id, search::VARCHAR AS search, with_attachments FROM requests ORDER BY document_line');
    const [plain, filtered, lawsuit] = requests.map((r) => ({ ...r, search: JSON.parse(r.search) as Record<string, unknown> }));
    expect(plain.search).toEqual({ search_type: 'cnpj', search_key: c.cnpj, response_type: 'lawsuit' });
    expect(filtered.search.search_params).toEqual({
      masked_response: true,
      filter: { side: c.filter.side, amount_gte: c.filter.amount_gte, tribunals: { keys: c.filter.tribunals, not_equal: false } },
      credential: { customer_key: CREDENTIAL },
    });
    expect([plain.with_attachments, filtered.with_attachments, lawsuit.with_attachments]).toEqual([null, null, true]);
    const echo = async (id: string) => (await (await fetch(`${sb.url}/requests/${id}`, { headers: { 'api-key': 'sandbox-key' } })).json()) as Record<string, unknown>;
    const [filteredEcho, lawsuitEcho, plainEcho] = [await echo(filtered.request_id), await echo(lawsuit.request_id), await echo(plain.request_id)];
    expect((filteredEcho.search as { search_params: unknown }).search_params).toMatchObject(filtered.search.search_params as object);
    expect(filteredEcho.sandbox_ignored).toEqual([expect.stringMatching(/^search\.search_params\.masked_response/)]);
    expect(lawsuitEcho.sandbox_ignored).toEqual([expect.stringMatching(/^with_attachments/)]);
    expect(plainEcho.sandbox_ignored).toBeUndefined();

    // What the filtered search found is the sandbox's truth for it, a part of the company's lawsuits, and each meets the filter.
    const hits = (id: string) => query<{ code: string; instance: number }>(cfg.warehouse, `SELECT code, instance FROM search_hits WHERE request_id = '${id}' ORDER BY ALL`);
    const key = (l: { code: string; instance: number }) => `${l.code}#${l.instance}`;
    expect((await hits(filtered.request_id)).map(key)).toEqual(c.filtered.map(key).sort());
    expect(await hits(plain.request_id)).toHaveLength(c.all);
    const found = await query<{ tribunal_acronym: string; amount: number; side: string | null }>(cfg.warehouse, `
      SELECT l.tribunal_acronym, l.amount::DOUBLE AS amount, (SELECT any_value(p.side) FROM parties p
        WHERE p.code = l.code AND p.instance = l.instance AND p.document = '${c.cnpj}') AS side
      FROM search_hits h JOIN lawsuits l USING (code, instance) WHERE h.request_id = '${filtered.request_id}'`);
    for (const l of found) {
      expect(c.filter.tribunals).toContain(l.tribunal_acronym);
      expect(l.amount).toBeGreaterThanOrEqual(c.filter.amount_gte);
      expect(l.side).toBe(c.filter.side);
    }

    // The next night: every search known in the ledger by its whole identity, filters included; nothing bought.
    const second = await nightly(cfg);
    expect(countOf(second, 'documents', 'fresh')).toBe(3);
    expect(countOf(second, 'search', 'submitted')).toBe(0);
    expect(await bought(sb.url)).toBe(3);
  }, 180_000);
});
