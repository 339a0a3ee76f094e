// Validation of the synchronous endpoints' bodies. They take the search object of POST /requests (same
// filters, same 400/422 rules) plus `process_status`, and `create_complete_request` on the true/false endpoint
// only. They always answer from the datalake, so `on_demand` and `cache_ttl_in_days` have no effect there.

import { validateSearchBody, type NormalizedSearch } from '../search-validation.js';

export type SyncKind = 'historical' | 'count' | 'grouped' | 'truefalse';

export interface SyncBody {
  search: NormalizedSearch;
  /** true adds phase and status to each lawsuit (POST /lawsuits). */
  processStatus: boolean;
  /** true also creates an asynchronous request (POST /requests/create). */
  createCompleteRequest: boolean;
}

type SyncValidation = { ok: true; body: SyncBody } | { ok: false; status: 400 | 422; reasons: string[] };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function validateSyncBody(body: unknown, kind: SyncKind): SyncValidation {
  const extra: string[] = [];
  let processStatus = false;
  let createCompleteRequest = false;
  if (isObj(body)) {
    if (body.process_status !== undefined) {
      if (typeof body.process_status !== 'boolean') extra.push('process_status must be a boolean');
      else processStatus = body.process_status;
    }
    const sp = isObj(body.search) && isObj(body.search.search_params) ? body.search.search_params : undefined;
    if (sp && sp.create_complete_request !== undefined) {
      if (kind !== 'truefalse') extra.push('search_params.create_complete_request is accepted only by POST /requests/create');
      else if (typeof sp.create_complete_request !== 'boolean') extra.push('search_params.create_complete_request must be a boolean');
      else createCompleteRequest = sp.create_complete_request;
    }
  }
  const v = validateSearchBody(body);
  if (!v.ok) {
    const reasons = [...v.reasons, ...extra];
    return { ok: false, status: extra.length === 0 ? v.status : 400, reasons };
  }
  if (extra.length > 0) return { ok: false, status: 400, reasons: extra };
  // The datalake is the service database: the lagging view whatever the caller asked.
  const search: NormalizedSearch = { ...v.search, onDemand: false, cacheTtlDays: undefined };
  return { ok: true, body: { search, processStatus, createCompleteRequest } };
}
