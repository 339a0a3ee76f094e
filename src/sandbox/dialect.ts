// The two dialects the sandbox speaks, as data. `spec` is the spec's literal reading (what the sandbox always
// spoke); `documented` follows the provider's own documentation (REFERENCE.md, "The provider's documented
// dialect"), which a client meets in production. Each row is one way they differ; the routes read their row
// and nothing else in the sandbox names a dialect, so a new difference is one new row here.

const DIALECT_NAMES = ['documented', 'spec'] as const;
export type DialectName = (typeof DIALECT_NAMES)[number];

/**
 * The dialect of a sandbox started without one (CLI, embedded sandbox, tests). `spec` while the client only
 * speaks the spec's reading; flipping it to `documented` is this one edit.
 */
export const DEFAULT_DIALECT: DialectName = 'documented';

export type Direction = 'asc' | 'desc';
/**
 * How searches divide the lawsuit (REFERENCE.md, "Two levels"): `one`, every search answers whole lawsuits (the
 * spec's reading); `two`, a search by document or name answers lawsuit headers and a lawsuit_cnj (or lawsuit_id)
 * search the whole lawsuit (levels.ts).
 */
export type Levels = 'one' | 'two';
/** The listings whose paging, order and envelope the dialect decides. */
export type Listing = 'responses' | 'requests' | 'tracking';

interface ListingSort {
  /** Names of the sort parameters the listing honours; none: it takes no sort (the names are unknown to it). */
  names?: { field: string; direction: string };
  /** Order of the listing when no honoured sort is given (by creation time). */
  byDefault: Direction;
}

export interface TransferDialect {
  /** The status a file shows for each state the sandbox keeps (the spec's three). */
  statuses: Record<'completed' | 'error' | 'downloaded', string>;
  /** Values a PATCH may set, and the state each one means. */
  patchStatuses: Record<string, 'downloaded' | 'error'>;
  /** `file_size` in bytes (an integer) or in megabytes (10^6 bytes, 3 decimals, as the documentation shows 0.038). */
  fileSize: 'bytes' | 'megabytes';
  /** Fields of GET /transfer-file/<id> carrying the download address and its expiry. */
  urlField: string;
  expiresField: string;
}

export interface Dialect {
  name: DialectName;
  /** A listing's query parameter it does not know: a 400 naming it (the validation convention), or ignored. */
  unknownParams: 'reject' | 'ignore';
  /** Largest page_size of the listings, and what a larger one earns: a 400, or a page of `max` items. */
  pageSize: { max: number; above: 'reject' | 'clamp' };
  /** Envelope fields sent as strings (the documentation's examples show "page": "1"); the counts stay numbers. */
  stringFields: readonly string[];
  /** Envelope of GET /requests and GET /tracking: the spec's links/meta form, or the flat form of GET /responses. */
  listEnvelope: 'links' | 'flat';
  sort: Record<Listing, ListingSort>;
  /** GET /requests filters beyond paging and sort (request-filters.ts reads them). */
  requestFilters: readonly string[];
  /** GET /tracking filters beyond paging and sort (routes/tracking.ts reads them). */
  trackingFilters: readonly string[];
  /** GET /responses filters beyond request_id, paging and sort (routes/responses.ts reads them). */
  responseFilters: readonly string[];
  /** Status of a successful POST /requests. */
  createdStatus: 200 | 201;
  /** Error bodies named by HTTP status, `{error: {name, message, data}}`; absent: the spec's bodies as they are. */
  errorNames?: Readonly<Record<number, string>>;
  /** Rate headers: whether X-RateLimit-Reset and a 429's Retry-After are sent, and whether error answers carry any. */
  rateHeaders: { reset: boolean; retryAfter: boolean; onErrors: boolean };
  /** A running request shows `status` instead of `started`, one request in `every` (chosen by its sequence number). */
  runningAlias?: { status: string; every: number };
  /** POST /requests for a lawsuit number whose lawsuit is secret to the caller (no lifting credential): 403. */
  refuseSecretSearch: boolean;
  /** What a tracking shows once it has run once and not yet re-run: the spec names `active` beside `updated`; the
   * documentation (which calls `active` an older name) shows `updated` after every run. */
  trackingRanOnce: 'active' | 'updated';
  /**
   * One level or two (levels.ts). Two: a document or name search answers headers (no steps, no attachments, phase
   * and status unfilled, `last_step` always); a lawsuit_cnj search the whole lawsuit, its instances most recent
   * first, and one `application_error` item when it finds nothing; a document's tracking announces only lawsuits
   * born since its last run, a lawsuit_cnj tracking sends its lawsuit whole whenever it moved. No tribunal leaves
   * out `last_step`. One: every search answers whole lawsuits, but some tribunals' document searches are sparse.
   */
  levels: Levels;
  transfer: TransferDialect;
}

const SPEC: Dialect = {
  name: 'spec',
  unknownParams: 'reject',
  pageSize: { max: 100, above: 'reject' },
  stringFields: [],
  listEnvelope: 'links',
  sort: {
    responses: { names: { field: 'order_by', direction: 'order' }, byDefault: 'asc' },
    requests: { byDefault: 'desc' },
    tracking: { byDefault: 'asc' },
  },
  requestFilters: ['status'],
  trackingFilters: ['status'],
  responseFilters: ['response_type', 'request_status', 'request_created_at_gte', 'request_created_at_lte', 'created_at_gte', 'created_at_lte'],
  createdStatus: 200,
  rateHeaders: { reset: true, retryAfter: true, onErrors: true },
  refuseSecretSearch: false,
  trackingRanOnce: 'active',
  levels: 'one',
  transfer: {
    statuses: { completed: 'completed', error: 'error', downloaded: 'downloaded' },
    patchStatuses: { downloaded: 'downloaded', error: 'error' },
    fileSize: 'bytes',
    urlField: 'download_url',
    expiresField: 'download_url_expires_at',
  },
};

const DOCUMENTED_SORT = { field: 'orderField', direction: 'orderDirection' };

const DOCUMENTED: Dialect = {
  name: 'documented',
  unknownParams: 'ignore',
  pageSize: { max: 1000, above: 'clamp' },
  stringFields: ['page'],
  listEnvelope: 'flat',
  sort: {
    // Newest first for responses and oldest first for requests, as the documented examples list them.
    responses: { names: DOCUMENTED_SORT, byDefault: 'desc' },
    requests: { names: DOCUMENTED_SORT, byDefault: 'asc' },
    tracking: { names: DOCUMENTED_SORT, byDefault: 'asc' },
  },
  requestFilters: ['status', 'created_at_gte', 'created_at_lte', 'origin', 'origin_id', 'search_type', 'search_key', 'lawsuit_instance'],
  trackingFilters: ['status', 'search_type', 'search_key', 'created_at_gte', 'created_at_lte'],
  responseFilters: ['created_at_gte', 'created_at_lte'],
  createdStatus: 201,
  errorNames: {
    400: 'HttpBadRequestError', 401: 'HttpUnauthorizedError', 403: 'HttpForbiddenError', 404: 'HttpNotFoundError',
    405: 'HttpMethodNotAllowedError', 409: 'HttpConflictError', 422: 'HttpUnprocessableEntityError',
    429: 'HttpTooManyRequestsError', 500: 'HttpInternalServerError', 502: 'HttpBadGatewayError', 503: 'HttpServiceUnavailableError',
  },
  rateHeaders: { reset: false, retryAfter: false, onErrors: false },
  runningAlias: { status: 'processing', every: 3 },
  refuseSecretSearch: true,
  trackingRanOnce: 'updated',
  levels: 'two',
  transfer: {
    // A file the provider failed to prepare, or one a client reported failing, is back with the provider.
    statuses: { completed: 'available', error: 'pending', downloaded: 'consumed' },
    // The documentation shows no PATCH body: the spec's values are taken, and `consumed` as `downloaded`.
    patchStatuses: { consumed: 'downloaded', downloaded: 'downloaded', error: 'error' },
    fileSize: 'megabytes',
    urlField: 'url',
    expiresField: 'expires_at',
  },
};

export const DIALECTS: Readonly<Record<DialectName, Dialect>> = { documented: DOCUMENTED, spec: SPEC };

/** The dialect of a name, collecting a problem (not throwing) so that callers report every bad option at once. */
export function parseDialect(value: unknown, field: string, problems: string[]): DialectName | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (DIALECT_NAMES as readonly string[]).includes(value)) return value as DialectName;
  problems.push(`${field} must be one of ${DIALECT_NAMES.join(', ')} (got ${JSON.stringify(value)})`);
  return undefined;
}
