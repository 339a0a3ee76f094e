// The provider's dialect: what the upstream actually accepts, learned and verified instead of assumed (README,
// "The provider's dialect"). The spec names the responses listing's sort and date filters by meaning only and
// caps pages at 100; the provider's documentation names the sort `orderField`/`orderDirection`, shows pages of
// up to 1000 and writes counts as strings. Which of these an upstream honours is found out on its own answers:
// the judgements here are pure, made from what a probe saw (src/pipeline/dialect.ts runs the probe).

/** The names that sort a listing by creation time, and their values. */
export interface SortNames {
  field: string;
  value: string;
  direction: string;
  asc: string;
  desc: string;
}

/** Sort names to try, in order: the documented ones, then those the spec gives for the transfer-file list. */
export const SORT_CANDIDATES: readonly SortNames[] = [
  { field: 'orderField', value: 'created_at', direction: 'orderDirection', asc: 'asc', desc: 'desc' },
  { field: 'order_by', value: 'created_at', direction: 'order', asc: 'asc', desc: 'desc' },
];

/** The largest page asked for: the documentation's maximum (the spec says 100). */
export const MAX_PAGE_SIZE = 1000;

/** What a probe of an upstream learned. Every field says what was seen, never what was hoped. */
export interface Dialect {
  /** Largest page GET /responses serves: 1000 asked, what came back taught (a 400 or a clamped page teaches less). */
  pageSize: number;
  /**
   * Whether a full page showed `pageSize` served. False: accepted on an empty listing, nothing to count by; the
   * readers learn a silent clamp from the first page cut short (PageSizer.clamped).
   */
  pageSizeVerified: boolean;
  /** Sort names the responses listing honours; null when none does (then responses are read per request). */
  sort: SortNames | null;
  /** Whether `sort` was seen honoured (false: too few responses to tell; the sweep's checks decide). */
  sortVerified: boolean;
  /** Which envelope the listings answer: counts (`page, page_count, ...`) or links (`links`, `meta`). */
  envelope: 'counts' | 'links' | 'unknown';
  /** Counts written as strings (`"page": "1"`). */
  countsAsStrings: boolean;
  /** The X-RateLimit-* and Retry-After headers seen on answers, lower case. */
  rateHeaders: string[];
  /** Resources that answered 403 to a read: not in the key's plan. */
  refused: string[];
}

/** Until a probe has run: the documented names, unverified, and the spec's page size. */
export const ASSUMED_DIALECT: Readonly<Dialect> = {
  pageSize: 100, pageSizeVerified: false, sort: SORT_CANDIDATES[0], sortVerified: false, envelope: 'unknown', countsAsStrings: false, rateHeaders: [], refused: [],
};

export type SortJudgement = 'honoured' | 'ignored' | 'unknown';

/**
 * Whether a sort was honoured, from the creation times (epoch ms) of the same first page asked ascending and
 * descending. Honoured: the first ascends, the second descends, and they differ where the listing holds two
 * different times. Ignored: either page goes the wrong way, or both come back the same though times differ.
 * Unknown: every time equal (or fewer than two), nothing to tell them apart.
 */
export function judgeSort(asc: readonly number[], desc: readonly number[]): SortJudgement {
  const ascending = (t: readonly number[]) => t.every((v, i) => i === 0 || v >= t[i - 1]);
  const descending = (t: readonly number[]) => t.every((v, i) => i === 0 || v <= t[i - 1]);
  const distinct = new Set([...asc, ...desc]).size;
  if (asc.some(Number.isNaN) || desc.some(Number.isNaN)) return 'unknown';
  if (distinct < 2) return 'unknown';
  if (!ascending(asc) || !descending(desc)) return 'ignored';
  // Both monotonic: asked ascending, the first page starts at the oldest time the listing holds.
  return asc[0] < desc[0] ? 'honoured' : 'ignored';
}

/**
 * The page size an upstream served when asked for `asked` items: `asked` when the page held as many as it
 * could (all it counted, or `asked`), the page's length when it held fewer though the listing counted more (a
 * clamp), undefined when nothing can be told (an empty listing).
 */
export function judgePageSize(asked: number, got: number, allCount: number): number | undefined {
  if (allCount <= 0 || got <= 0) return undefined;
  return got >= Math.min(asked, allCount) ? asked : got;
}
