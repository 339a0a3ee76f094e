import type { Warehouse } from './warehouse.js';

// The ledger of what a night read of the webhook intake's spool (migration 110, schema/tables/deliveries.ts),
// applied by recordReads (read-ledger.ts) in the page sink's transaction with the responses it covers: how far each
// segment is read moves with the responses loaded from it, a parked delivery is recorded with the page that met it,
// and a request proved complete by its deliveries is marked loaded with nothing else to read.

/** A run of one of our trackings met among the deliveries, as tracking_runs records it (read-ledger.ts TrackingRunRead). */
interface RunDelivered { requestId: string; trackingId: string; searchType: string; searchKey: string; items: number }

/** A delivery of a request not known yet: where it is in the spool. */
export interface ParkedDelivery {
  responseId: string; requestId: string; referenceType: 'request' | 'tracking'; referenceId: string;
  segment: string; from: number; to: number; receivedAt: string;
}

export type DeliveryEntry =
  /** A stretch of a segment read, up to byte `to` (a line's end), and what its deliveries became. */
  | { kind: 'spool_read'; segment: string; to: number; closed: boolean; deliveries: number; loaded: number; parked: number; runId: string }
  | { kind: 'park'; rows: readonly ParkedDelivery[] }
  /** Parked deliveries loaded now that their request is known, or forgotten. */
  | { kind: 'unpark'; responseIds: readonly string[] }
  /** Requests whose deliveries proved them complete (`items` responses), with the status and completion the listing showed: fully loaded, nothing listed. */
  | { kind: 'delivered'; requests: ReadonlyArray<{ requestId: string; items: number; status: string; completedAt: string }> }
  /** Runs of our trackings among the deliveries loaded (a trackings night's tracking_runs). */
  | { kind: 'delivered_runs'; runId: string; runs: readonly RunDelivered[] };

const DELIVERY_KINDS = new Set(['spool_read', 'park', 'unpark', 'delivered', 'delivered_runs']);

export function isDeliveryEntry(e: { kind: string }): e is DeliveryEntry {
  return DELIVERY_KINDS.has(e.kind);
}

const json = (v: unknown): string => JSON.stringify(v);

export async function recordDelivery(wh: Warehouse, e: DeliveryEntry): Promise<void> {
  switch (e.kind) {
    case 'spool_read':
      return void await wh.run(`INSERT INTO spool_segments AS s (segment_id, bytes_read, closed, deliveries, loaded, parked, run_id, read_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, current_timestamp)
        ON CONFLICT (segment_id) DO UPDATE SET bytes_read = greatest(s.bytes_read, excluded.bytes_read), closed = excluded.closed,
          deliveries = s.deliveries + excluded.deliveries, loaded = s.loaded + excluded.loaded, parked = s.parked + excluded.parked,
          run_id = excluded.run_id, read_at = excluded.read_at`, [e.segment, e.to, e.closed, e.deliveries, e.loaded, e.parked, e.runId]);
    case 'park':
      if (e.rows.length === 0) return;
      return void await wh.run(`INSERT INTO deliveries_parked (response_id, request_id, reference_type, reference_id, segment_id, line_from, line_to, received_at, parked_at)
        SELECT t.responseId, t.requestId, t.referenceType, t.referenceId, t.segment, t."from", t."to", t.receivedAt::TIMESTAMPTZ, current_timestamp
        FROM (SELECT unnest(from_json($1::JSON, '[{"responseId":"VARCHAR","requestId":"VARCHAR","referenceType":"VARCHAR","referenceId":"VARCHAR","segment":"VARCHAR","from":"BIGINT","to":"BIGINT","receivedAt":"VARCHAR"}]'), recursive := true)) t
        ON CONFLICT DO NOTHING`, [json(e.rows)]);
    case 'unpark':
      if (e.responseIds.length === 0) return;
      return void await wh.run(`DELETE FROM deliveries_parked WHERE response_id IN (SELECT unnest(from_json($1::JSON, '["VARCHAR"]')))`, [json(e.responseIds)]);
    case 'delivered':
      if (e.requests.length === 0) return;
      return void await wh.run(`UPDATE requests SET loaded_at = coalesce(requests.loaded_at, current_timestamp), items_total = t.items,
          items_loaded = greatest(requests.items_loaded, t.items), status = t.status, completed_at = t.completedAt::TIMESTAMPTZ, last_polled_at = current_timestamp
        FROM (SELECT unnest(from_json($1::JSON, '[{"requestId":"VARCHAR","items":"INTEGER","status":"VARCHAR","completedAt":"VARCHAR"}]'), recursive := true)) t
        WHERE requests.request_id = t.requestId`, [json(e.requests)]);
    case 'delivered_runs':
      return recordTrackingRuns(wh, e.runs, null, e.runId);
  }
}

/**
 * Runs of our trackings met, added to tracking_runs (or their responses counted in): the one statement for the runs a
 * trackings night's listing meets (read-ledger.ts, `tracking_page`) and those met among the deliveries. `readId`: the
 * reading that met them (none for deliveries).
 */
export async function recordTrackingRuns(wh: Warehouse, runs: readonly RunDelivered[], readId: string | null, runId: string): Promise<void> {
  if (runs.length === 0) return;
  await wh.run(`INSERT INTO tracking_runs AS r (request_id, tracking_id, search_type, search_key, responses_loaded, read_id, run_id, first_read_at, last_read_at)
    SELECT t.requestId, t.trackingId, t.searchType, t.searchKey, t.items, $2, $3, current_timestamp, current_timestamp
    FROM (SELECT unnest(from_json($1::JSON, '[{"requestId":"VARCHAR","trackingId":"VARCHAR","searchType":"VARCHAR","searchKey":"VARCHAR","items":"INTEGER"}]'), recursive := true)) t
    ON CONFLICT (request_id) DO UPDATE SET responses_loaded = r.responses_loaded + excluded.responses_loaded, last_read_at = excluded.last_read_at`,
  [json(runs), readId, runId]);
}
