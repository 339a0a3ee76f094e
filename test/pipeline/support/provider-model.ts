import type { Page } from '../../../src/api/paginate.js';
import type { RequestObject, ResponseItem } from '../../../src/spec/types.js';
import type { SweepParams } from '../../../src/shared/config.js';
import { cnj, lawsuitItem, richLawsuit } from '../../warehouse/fixtures.js';

// A provider's responses in memory, for driving the sweep (src/pipeline/sweep/sweep.ts) without HTTP: requests
// whose responses are appended at chosen instants, the listing across requests with the sandbox's filter names,
// and the listing of one request. `mode` makes the listing across requests misbehave as an upstream might.

/** The listing's filter and sort names the model honours: the sandbox's, which are the spec-like ones. */
export const MODEL_SWEEP_PARAMS: Readonly<SweepParams> = {
  createdGte: 'created_at_gte', createdLte: 'created_at_lte', orderBy: 'order_by', orderByValue: 'created_at', order: 'order', orderAsc: 'asc',
};

export type ListingMode = 'honest' | 'ignore_filters' | 'empty' | 'newest_first' | 'newest_first_stable' | 'forbidden';

let codes = 0;

export class ProviderModel {
  readonly items: Array<ResponseItem & { t: number; late?: boolean }> = [];
  readonly requests = new Map<string, { created: number; done?: number }>();
  mode: ListingMode = 'honest';
  calls = { across: 0, alone: 0 };

  /** A request created at `t` (provider clock, ms). */
  request(id: string, t: number): RequestObject {
    this.requests.set(id, { created: t });
    return { request_id: id, status: 'pending', created_at: iso(t), search: { search_type: 'cpf', search_key: id } };
  }

  /**
   * `n` responses of request `id`, created from `t` on, one millisecond apart (`tied`: all in the millisecond
   * `t`, as a provider that stamps a court's batch at once does). `late`: they are listed only once the request
   * completes (a provider that commits a court's responses after newer ones are visible).
   */
  respond(id: string, t: number, n = 1, opts: { late?: boolean; tied?: boolean } = {}): void {
    for (let k = 0; k < n; k++) {
      const at = opts.tied ? t : t + k;
      const item = lawsuitItem(richLawsuit({ code: cnj(++codes) }), { request_id: id, response_id: `${id}-resp-${this.items.length}`, created_at: iso(at) });
      this.items.push({ ...item, t: at, late: opts.late === true });
    }
  }

  private visible(i: ResponseItem & { late?: boolean }): boolean {
    return !i.late || this.requests.get(i.request_id)?.done !== undefined;
  }

  /** The request's completion, at `t`: the request object the requests listing would show. */
  complete(id: string, t: number): RequestObject {
    const r = this.requests.get(id)!;
    r.done = t;
    return { request_id: id, status: 'completed', created_at: iso(r.created), updated_at: iso(t), search: { search_type: 'cpf', search_key: id } };
  }

  /** GET /responses without request_id. */
  listAcross(q: Record<string, string | number | undefined>): Page<ResponseItem> {
    this.calls.across++;
    if (this.mode === 'forbidden') throw Object.assign(new Error('GET /responses: forbidden'), { code: 'API_FORBIDDEN' });
    const p = MODEL_SWEEP_PARAMS;
    const honour = this.mode !== 'ignore_filters';
    const from = honour && q[p.createdGte] !== undefined ? Date.parse(String(q[p.createdGte])) : -Infinity;
    const until = honour && q[p.createdLte] !== undefined ? Date.parse(String(q[p.createdLte])) : Infinity;
    let all = this.items.filter((i) => this.visible(i) && i.t >= from && i.t <= until).sort((a, b) => a.t - b.t || (a.response_id < b.response_id ? -1 : 1));
    if (this.mode === 'newest_first') all = all.reverse();
    // Ignores the sort asked for and lists newest first, ties in the order they were written.
    if (this.mode === 'newest_first_stable') all = [...all].sort((a, b) => b.t - a.t);
    if (this.mode === 'empty') all = [];
    return envelope(all, Number(q.page ?? 1), Number(q.page_size ?? 20));
  }

  /** GET /responses?request_id=. */
  listAlone(q: { request_id?: string; page?: number; page_size?: number }): Page<ResponseItem> {
    this.calls.alone++;
    const all = this.items.filter((i) => i.request_id === q.request_id).sort((a, b) => a.t - b.t);
    return envelope(all, q.page ?? 1, q.page_size ?? 20);
  }

  /** What the ledger must hold: our requests' responses (those of `ids`). */
  responsesOf(ids: readonly string[]): string[] {
    return this.items.filter((i) => ids.includes(i.request_id)).map((i) => i.response_id).sort();
  }
}

function envelope(all: ResponseItem[], page: number, size: number): Page<ResponseItem> {
  // Items leave with a copy, as a parsed page would be: the loader never sees the model's objects.
  const items = all.slice((page - 1) * size, page * size).map((i) => {
    const { t: _t, late: _late, ...rest } = i as ResponseItem & { t?: number; late?: boolean };
    return structuredClone(rest) as ResponseItem;
  });
  return { items, page, pageCount: items.length, allPagesCount: Math.ceil(all.length / size), allCount: all.length };
}

const iso = (ms: number): string => new Date(ms).toISOString();
