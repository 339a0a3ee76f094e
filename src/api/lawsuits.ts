import type { HttpClient } from './http.js';
import type { CountResult, GroupedResult, Lawsuit, Search, SearchParams, SyncResult } from '../spec/types.js';
import { ShapeError, arr, bool, num, obj, str } from './validate.js';

// The synchronous endpoints, read from the datalake. They create nothing, so they are retried like reads —
// except the true/false check with create_complete_request, which starts a (possibly billed) request and is
// therefore retried only where the service surely did not act.

export interface SyncQuery {
  search: Pick<Search, 'search_type' | 'search_key' | 'response_type'> & { search_params?: Pick<SearchParams, 'lawsuit_instance' | 'filter' | 'credential'> };
  /** true adds phase and status to each lawsuit. */
  process_status?: boolean;
}

export interface TrueFalseQuery {
  search: Pick<Search, 'search_type' | 'search_key'> & { search_params: Pick<SearchParams, 'lawsuit_instance' | 'filter' | 'create_complete_request'> };
}

function parseLawsuit(v: unknown, i: number): Lawsuit {
  const o = obj(v, `response_data[${i}]`);
  str(o, 'code', `response_data[${i}]`);
  return o as Lawsuit;
}

function parseSync(v: unknown): SyncResult {
  const o = obj(v, 'result');
  bool(o, 'has_lawsuits', 'result');
  const data = arr(o, 'response_data', 'result');
  data.forEach(parseLawsuit);
  return o as unknown as SyncResult;
}

function parseCount(v: unknown): CountResult {
  const o = obj(v, 'count');
  num(o, 'total', 'count');
  return o as unknown as CountResult;
}

const GROUPS = ['classifications', 'subjects', 'areas', 'tribunals', 'justices', 'phases', 'states', 'instances', 'sides', 'person_types'] as const;

function parseGrouped(v: unknown): GroupedResult {
  const o = obj(v, 'grouped');
  for (const g of GROUPS) {
    if (o[g] === undefined) continue;
    arr(o, g, 'grouped').forEach((e, i) => num(obj(e, `grouped.${g}[${i}]`), 'count', `grouped.${g}[${i}]`));
  }
  if (o.lawsuits_count !== undefined && typeof o.lawsuits_count !== 'number') throw new ShapeError('grouped.lawsuits_count is not a number');
  return o as unknown as GroupedResult;
}

export class LawsuitsResource {
  constructor(private readonly http: HttpClient) {}

  /** POST /lawsuits: the lawsuits already held for a search. */
  async historical(q: SyncQuery, opts: { priority?: number } = {}): Promise<SyncResult> {
    return (await this.http.call({ base: 'lawsuits', method: 'POST', path: '/lawsuits', route: 'POST /lawsuits', body: q, safety: 'idempotent', priority: opts.priority, parse: parseSync })).body;
  }

  /** POST /requests/count. */
  async count(q: SyncQuery, opts: { priority?: number } = {}): Promise<CountResult> {
    return (await this.http.call({ base: 'lawsuits', method: 'POST', path: '/requests/count', route: 'POST /requests/count', body: q, safety: 'idempotent', priority: opts.priority, parse: parseCount })).body;
  }

  /** POST /requests/create/grouped. */
  async grouped(q: SyncQuery, opts: { priority?: number } = {}): Promise<GroupedResult> {
    return (await this.http.call({ base: 'lawsuits', method: 'POST', path: '/requests/create/grouped', route: 'POST /requests/create/grouped', body: q, safety: 'idempotent', priority: opts.priority, parse: parseGrouped })).body;
  }

  /** POST /requests/create: the true/false check (has_lawsuits). */
  async exists(q: TrueFalseQuery, opts: { priority?: number } = {}): Promise<SyncResult> {
    const creates = q.search.search_params.create_complete_request === true;
    return (await this.http.call({
      base: 'lawsuits', method: 'POST', path: '/requests/create', route: 'POST /requests/create', body: q,
      safety: creates ? 'unsafe' : 'idempotent', priority: opts.priority, parse: parseSync,
    })).body;
  }
}
