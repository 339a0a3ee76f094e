// GET /transfer-file's query: parsed and checked in one pass (every problem reported at once), then applied to
// the records. Pure: no clock, no I/O.

const TIMESTAMP_FIELDS = ['created_at', 'updated_at', 'completed_at', 'downloaded_at', 'error_at', 'failed_at', 'started_at'] as const;
type TimestampField = (typeof TIMESTAMP_FIELDS)[number];
const ORDER_FIELDS = [...TIMESTAMP_FIELDS, 'name', 'description', 'file_type', 'status', 'file_size', 'lawsuits_count', 'transfer_file_id'];
const FILE_TYPES = ['csv', 'json', 'parquet'];
/** Statuses a file can have: the spec's, those REFERENCE.md quotes from the provider, and `started` (being prepared). */
const STATUSES = ['pending', 'started', 'completed', 'available', 'error', 'downloaded', 'consumed'];

interface TransferListQuery {
  /** Case-insensitive substring of the description. */
  description?: string;
  /** Exact name. */
  name?: string;
  /** Any of these types. */
  file_type?: string[];
  /** Any of these statuses. */
  status?: string[];
  /** Inclusive bounds, epoch ms. A record whose field is null fails any bound on it. */
  bounds: Array<{ field: TimestampField; op: 'gte' | 'lte'; ms: number }>;
  page: number;
  page_size: number;
  order_by: string;
  order: 'asc' | 'desc';
}

type Parsed = { ok: true; query: TransferListQuery } | { ok: false; reasons: string[] };

/** Values of a key given as `k=a&k=b`, `k=a,b` or `k[]=a`. */
function multi(params: URLSearchParams, key: string): string[] | undefined {
  const raw = [...params.getAll(key), ...params.getAll(`${key}[]`)];
  if (raw.length === 0) return undefined;
  return raw.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
}

/** `unknown`: a parameter the listing does not know is a 400 (the spec's reading) or ignored (the documented dialect). */
export function parseListQuery(params: URLSearchParams, unknownParams: 'reject' | 'ignore' = 'reject'): Parsed {
  const reasons: string[] = [];
  const known = new Set(['description', 'name', 'file_type', 'file_type[]', 'status', 'status[]', 'page', 'page_size', 'order_by', 'order',
    ...TIMESTAMP_FIELDS.flatMap((f) => [`${f}_gte`, `${f}_lte`])]);
  const unknown = [...new Set(params.keys())].filter((k) => !known.has(k));
  if (unknown.length && unknownParams === 'reject') reasons.push(`unknown query parameter(s): ${unknown.join(', ')}`);

  const int = (key: string, dflt: number, min: number, max: number): number => {
    const v = params.get(key);
    if (v === null) return dflt;
    const n = Number(v);
    if (!/^\d+$/.test(v) || n < min) reasons.push(`${key} must be a whole number of at least ${min} (got ${JSON.stringify(v)})`);
    else if (n > max) reasons.push(`${key} must be at most ${max} (got ${n})`);
    else return n;
    return dflt;
  };
  const page = int('page', 1, 1, Number.MAX_SAFE_INTEGER);
  const page_size = int('page_size', 10, 1, 100);

  const order_by = params.get('order_by') ?? 'created_at';
  if (!ORDER_FIELDS.includes(order_by)) reasons.push(`order_by must be one of ${ORDER_FIELDS.join(', ')} (got ${JSON.stringify(order_by)})`);
  const order = params.get('order') ?? 'desc';
  if (order !== 'asc' && order !== 'desc') reasons.push(`order must be asc or desc (got ${JSON.stringify(order)})`);

  const file_type = multi(params, 'file_type');
  for (const t of file_type ?? []) if (!FILE_TYPES.includes(t)) reasons.push(`file_type must be one of ${FILE_TYPES.join(', ')} (got ${JSON.stringify(t)})`);
  const status = multi(params, 'status');
  for (const st of status ?? []) if (!STATUSES.includes(st)) reasons.push(`status must be one of ${STATUSES.join(', ')} (got ${JSON.stringify(st)})`);

  const bounds: TransferListQuery['bounds'] = [];
  for (const field of TIMESTAMP_FIELDS) {
    for (const op of ['gte', 'lte'] as const) {
      const v = params.get(`${field}_${op}`);
      if (v === null) continue;
      const ms = Date.parse(v);
      if (Number.isNaN(ms)) reasons.push(`${field}_${op} must be an ISO 8601 date-time (got ${JSON.stringify(v)})`);
      else bounds.push({ field, op, ms });
    }
  }
  if (reasons.length) return { ok: false, reasons };
  return {
    ok: true,
    query: {
      description: params.get('description') ?? undefined, name: params.get('name') ?? undefined,
      file_type, status, bounds, page, page_size, order_by, order: order as 'asc' | 'desc',
    },
  };
}

interface ListPage<T> { page: number; page_count: number; all_count: number; all_pages_count: number; page_data: T[] }

type Rec = Record<string, unknown>;

export function applyListQuery<T extends Rec>(records: readonly T[], q: TransferListQuery): ListPage<T> {
  const desc = q.description?.toLowerCase();
  const kept = records.filter((r) => {
    if (desc !== undefined && !String(r.description ?? '').toLowerCase().includes(desc)) return false;
    if (q.name !== undefined && r.name !== q.name) return false;
    if (q.file_type && !q.file_type.includes(String(r.file_type))) return false;
    if (q.status && !q.status.includes(String(r.status))) return false;
    for (const b of q.bounds) {
      const v = r[b.field];
      if (typeof v !== 'string') return false;
      const ms = Date.parse(v);
      if (b.op === 'gte' ? ms < b.ms : ms > b.ms) return false;
    }
    return true;
  });
  const sign = q.order === 'asc' ? 1 : -1;
  kept.sort((a, b) => {
    const c = compare(a[q.order_by], b[q.order_by]);
    if (c !== 0) return c === 2 || c === -2 ? c / 2 : c * sign; // nulls last in both directions
    return String(a.transfer_file_id).localeCompare(String(b.transfer_file_id));
  });
  const start = (q.page - 1) * q.page_size;
  const page_data = kept.slice(start, start + q.page_size);
  return { page: q.page, page_count: page_data.length, all_count: kept.length, all_pages_count: Math.ceil(kept.length / q.page_size), page_data };
}

/** -1/0/1 for ordered values; ±2 when exactly one side is null (that side goes last whatever the order). */
function compare(a: unknown, b: unknown): number {
  const an = a === null || a === undefined;
  const bn = b === null || b === undefined;
  if (an && bn) return 0;
  if (an) return 2;
  if (bn) return -2;
  if (typeof a === 'number' && typeof b === 'number') return Math.sign(a - b);
  const s = String(a);
  const t = String(b);
  return s < t ? -1 : s > t ? 1 : 0;
}
