import type { RequestObject } from '../../../src/spec/types.js';
import type { RunContext } from '../../../src/pipeline/context.js';
import { PageSink } from '../../../src/pipeline/page-sink.js';
import { PageSizer } from '../../../src/pipeline/page-size.js';
import { ResponseSweep } from '../../../src/pipeline/sweep/sweep.js';
import { loadConfig } from '../../../src/shared/config.js';
import { upsertRequest } from '../../../src/warehouse/ledger.js';
import { Warehouse } from '../../../src/warehouse/warehouse.js';
import { captureLogger } from '../../api/stub.js';
import { MODEL_SWEEP_PARAMS, ProviderModel, type ListingMode } from './provider-model.js';

// The sweep (src/pipeline/sweep/sweep.ts) driven against a provider model, without HTTP: requests submitted and
// finished as the search stage would, the sweep's events recorded. Each test closes the warehouse it opens.

export const T0 = Date.parse('2026-11-21T03:00:00Z');

export interface Harness {
  model: ProviderModel; wh: Warehouse; sweep: ResponseSweep; logs: () => string;
  loaded: string[]; perRequest: string[]; notes: string[]; refused: unknown[]; orderBroken: number;
  submit(id: string, t: number): Promise<boolean>;
  finish(req: RequestObject): void;
}

export async function harness(mode: ListingMode = 'honest', prepare?: (m: ProviderModel) => void): Promise<Harness> {
  const model = new ProviderModel();
  prepare?.(model);
  model.mode = mode;
  const wh = await Warehouse.open(':memory:');
  const cap = captureLogger();
  const cfg = loadConfig({ env: {}, flags: { sandbox: true } });
  const api = { responses: { listAcross: async (q: Record<string, string | number | undefined>) => model.listAcross(q), list: async (q: object) => model.listAlone(q) } };
  const ctx = { cfg, wh, runId: 'run-1', log: cap.logger, signal: new AbortController().signal, api } as unknown as RunContext;
  const sink = new PageSink(wh, { runId: 'run-1' });
  const h = { model, wh, logs: cap.text, loaded: [] as string[], perRequest: [] as string[], notes: [] as string[], refused: [] as unknown[], orderBroken: 0 } as Harness;
  h.sweep = await ResponseSweep.open(ctx, sink, new PageSizer({ max: 100, targetBytes: 4e6 }), { params: MODEL_SWEEP_PARAMS, pageSize: 100, wave: 'documents' }, {
    loaded: (id) => h.loaded.push(id), perRequest: (r) => h.perRequest.push(r.request_id), note: (t) => h.notes.push(t), refused: (e) => h.refused.push(e),
    orderBroken: () => { h.orderBroken++; },
  });
  h.submit = async (id, t) => {
    await upsertRequest(wh, { request_id: id, status: 'pending', created_at: new Date(t) });
    const token = h.sweep.submitting();
    const joined = await h.sweep.admit(model.request(id, t));
    h.sweep.settled(token);
    return joined;
  };
  h.finish = (req) => h.sweep.finished(req);
  return h;
}

export const loadedIds = async (wh: Warehouse) => (await wh.all<{ id: string }>('SELECT response_id AS id FROM responses_raw ORDER BY 1')).map((r) => r.id);
export const ledger = async (wh: Warehouse) => wh.all<{ request_id: string; strategy: string; loaded: boolean; items_loaded: number }>(
  'SELECT request_id, strategy, loaded_at IS NOT NULL AS loaded, items_loaded FROM requests ORDER BY 1');
