import type { Search } from '../api/types.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import { searchHash, type DocumentHistory } from './plan.js';

// The ledger read back as "what happened to each search", keyed like plan.ts keys searches. A request is
// outstanding until it is completed with every page loaded; cancelled ones are simply submitted again.

interface Row {
  search_type: string; search_key: string; on_demand: boolean | null; lawsuit_instance: number | null;
  outstanding: string | null; last_success: Date | null;
}

export async function readHistory(wh: Warehouse): Promise<Map<string, DocumentHistory>> {
  const rows = await wh.all<Row>(`
    SELECT search_type, search_key, coalesce(on_demand, false) AS on_demand, lawsuit_instance,
      arg_max(request_id, created_at) FILTER (WHERE coalesce(status, '') NOT IN ('cancelled', 'failed')
        AND (coalesce(status, '') <> 'completed' OR all_pages_count IS NULL OR pages_loaded < greatest(all_pages_count, 1))) AS outstanding,
      max(coalesce(completed_at, created_at)) FILTER (WHERE status = 'completed' AND all_pages_count IS NOT NULL
        AND pages_loaded >= greatest(all_pages_count, 1)) AS last_success
    FROM requests GROUP BY ALL`);
  const out = new Map<string, DocumentHistory>();
  for (const r of rows) {
    const search: Search = { search_type: r.search_type as Search['search_type'], search_key: r.search_key };
    if (r.on_demand) search.on_demand = true;
    if (r.lawsuit_instance !== null) search.search_params = { lawsuit_instance: r.lawsuit_instance };
    out.set(searchHash(search), {
      outstandingRequestId: r.outstanding ?? undefined,
      lastSuccessAt: r.last_success ?? undefined,
    });
  }
  return out;
}
