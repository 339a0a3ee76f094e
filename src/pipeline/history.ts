import type { Search, SearchParams } from '../spec/types.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import { searchIdentity } from '../spec/identifiers.js';
import type { DocumentHistory } from './plan.js';

// The ledger read back as "what happened to each search", keyed like plan.ts keys searches. A request is
// outstanding until it is fully loaded (`loaded_at`, read-ledger.ts); cancelled ones are simply submitted again.
// The ledger keeps each key as it was sent, so one search may stand in several rows (a name sent as written one
// night, in another spelling on a later one): rows of one identity are merged, the newest of each fact winning.
// A search's filters, credential and options are part of its identity: they are read from the search as sent
// (requests.search), the rest from the columns, so that a row written before filters existed (its search JSON
// holding none, or missing) keeps the identity it always had. A search's last success is when we searched it, on
// our clock (submitted_at, or loaded_at for one adopted rather than submitted): LAWSUIT_FRESHNESS_DAYS is compared
// with our now, and the provider's completed_at, on its clock, made a search "fresh" as long as that clock ran ahead.

interface Row {
  search_type: string; search_key: string; on_demand: boolean | null; lawsuit_instance: number | null;
  params: string | null; with_attachments: boolean;
  outstanding: string | null; outstanding_at: Date | null; last_success: Date | null; last_items: number | null; last_took_ms: number | null;
}

/** The search a ledger row stands for, as the plan would send it. */
function searchOf(r: Row): Search {
  const search: Search = { search_type: r.search_type as Search['search_type'], search_key: r.search_key };
  if (r.on_demand) search.on_demand = true;
  const given: unknown = r.params === null ? null : JSON.parse(r.params);
  const params: SearchParams = typeof given === 'object' && given !== null && !Array.isArray(given) ? { ...given } : {};
  if (r.lawsuit_instance !== null) params.lawsuit_instance = r.lawsuit_instance;
  else delete params.lawsuit_instance;
  if (Object.keys(params).length > 0) search.search_params = params;
  return search;
}

export async function readHistory(wh: Warehouse): Promise<Map<string, DocumentHistory>> {
  const rows = await wh.all<Row>(`
    SELECT search_type, search_key, coalesce(on_demand, false) AS on_demand, lawsuit_instance,
      json_extract(search, '$.search_params')::VARCHAR AS params, coalesce(with_attachments, false) AS with_attachments,
      arg_max(request_id, created_at) FILTER (WHERE coalesce(status, '') NOT IN ('cancelled', 'failed') AND loaded_at IS NULL) AS outstanding,
      max(created_at) FILTER (WHERE coalesce(status, '') NOT IN ('cancelled', 'failed') AND loaded_at IS NULL) AS outstanding_at,
      max(coalesce(submitted_at, loaded_at)) FILTER (WHERE loaded_at IS NOT NULL) AS last_success,
      arg_max(coalesce(items_total, items_loaded), coalesce(completed_at, created_at)) FILTER (WHERE loaded_at IS NOT NULL) AS last_items,
      arg_max(epoch_ms(completed_at) - epoch_ms(created_at), created_at)
        FILTER (WHERE loaded_at IS NOT NULL AND status = 'completed' AND completed_at >= created_at) AS last_took_ms
    FROM requests GROUP BY ALL`);
  const out = new Map<string, DocumentHistory>();
  const outstandingAt = new Map<string, number>();
  for (const r of rows) {
    const hash = searchIdentity(searchOf(r), { withAttachments: r.with_attachments });
    const h = out.get(hash) ?? {};
    if (r.outstanding !== null) {
      const at = r.outstanding_at?.getTime() ?? 0;
      if (h.outstandingRequestId === undefined || at > (outstandingAt.get(hash) ?? 0)) {
        h.outstandingRequestId = r.outstanding;
        outstandingAt.set(hash, at);
      }
    }
    if (r.last_success !== null && (h.lastSuccessAt === undefined || r.last_success > h.lastSuccessAt)) {
      h.lastSuccessAt = r.last_success;
      h.lastResponses = r.last_items ?? undefined;
      h.lastTookMs = r.last_took_ms ?? undefined;
    }
    out.set(hash, h);
  }
  return out;
}
