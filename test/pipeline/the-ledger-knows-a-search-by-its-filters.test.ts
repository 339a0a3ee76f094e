import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocuments } from '../../src/input/documents.js';
import { readHistory } from '../../src/pipeline/history.js';
import { planRun, plannedDocument } from '../../src/pipeline/plan.js';
import { upsertRequest } from '../../src/warehouse/ledger.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { scratch } from '../support/pipeline.js';

// The ledger read back for the plan (history.ts) knows each request by its search's whole identity: the filters,
// credential and masked_response of the search as sent (requests.search), with_attachments from its column. A
// request written before filters existed — its search holding none, or no search JSON at all — keeps the identity
// it had, so the plan of an old warehouse finds it fresh and buys nothing again.

describe('the ledger read back for the plan', () => {
  const tmp = scratch();
  let wh: Warehouse;
  beforeAll(async () => { wh = await Warehouse.open(join(tmp.dir, 'w.duckdb')); });
  afterAll(async () => { await wh.close(); tmp.cleanup(); });

  it('finds each search by its filters and options, and an old row by the identity it always had', async () => {
    const list = parseDocuments([
      'search_key,search_type,side,tribunals,customer_key,with_attachments',
      '11222333000181,cnpj,,,,',
      '11222333000181,cnpj,Passive,TJSP|TRT2,,',
      '11222333000181,cnpj,Passive,TJSP|TRT2,vault,',
      '0710802-55.2018.8.02.0001,lawsuit_cnj,,,,true',
      '0710802-55.2018.8.02.0001,lawsuit_cnj,,,,',
      '09206529722,cpf,,,,',
    ].join('\n'));
    expect(list.documents).toHaveLength(6);
    const planned = list.documents.map(plannedDocument);
    const at = new Date('2026-01-10T00:00:00Z');
    // Rows as tonight's submissions write them, for the filtered CNPJ and the CNJ with attachments...
    for (const [n, p] of [[1, planned[1]], [2, planned[3]]] as const) {
      await upsertRequest(wh, {
        request_id: `r-${n}`, search_type: p.search.search_type, search_key: p.search.search_key, status: 'completed', created_at: at,
        search: p.search, with_attachments: p.withAttachments ? true : null,
      });
    }
    // ...and one as a warehouse made before filters holds it: a plain search, without its JSON.
    await upsertRequest(wh, { request_id: 'r-old', search_type: 'cpf', search_key: '09206529722', status: 'completed', created_at: at });
    await wh.run(`UPDATE requests SET loaded_at = $1::TIMESTAMPTZ, completed_at = $1::TIMESTAMPTZ`, [at]);

    const history = await readHistory(wh);
    const plan = planRun(list.documents, history, { now: new Date('2026-01-10T12:00:00Z'), freshnessDays: 1, force: false, pageSize: 100 });
    expect(plan.fresh.map((p) => p.doc.line).sort()).toEqual([3, 5, 7]);
    // the same company unfiltered, or with a credential, and the same lawsuit without attachments, are other searches
    expect(plan.submit.map((p) => p.doc.line).sort()).toEqual([2, 4, 6]);
    expect([...history.keys()].sort()).toEqual([planned[1].searchHash, planned[3].searchHash, 'cpf|09206529722|db|*'].sort());
  });
});
