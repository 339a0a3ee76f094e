import type { LawsuitApi } from '../api/client.js';
import { ASSUMED_DIALECT, judgePageSize, judgeSort, MAX_PAGE_SIZE, SORT_CANDIDATES, type Dialect, type SortJudgement, type SortNames } from '../api/dialect.js';
import type { Page } from '../api/paginate.js';
import type { ListingBase } from '../api/probe.js';
import type { Config, SweepParams } from '../shared/config.js';
import { codeOf, resolveFailure } from '../shared/failure-policy.js';
import { readDialect, writeDialect } from '../warehouse/dialect-store.js';
import type { RunContext } from './context.js';

// Learning the upstream's dialect with a handful of calls (src/api/dialect.ts judges what they show), and the
// dialect a night reads responses with: what configuration pins, else what was learned and remembered in the
// warehouse, else a probe at the start of the night. A night's own checks still decide: the sweep verifies every
// page, and what it finds broken is remembered for the next night (rememberSortBroken).

/** A remembered dialect older than this is probed again. */
const MAX_AGE_MS = 7 * 86_400_000;

/** One thing the probe saw, as `doctor` prints it. */
export interface Finding { topic: string; result: string }

interface ProbeReport { dialect: Dialect; calls: number; findings: Finding[] }

interface ProbeOptions {
  /** Also read the requests, tracking and transfer-file listings (doctor): which resources the plan refuses. */
  resources?: boolean;
}

const RATE_HEADER = /^(x-ratelimit-|retry-after$)/;

/** A 403: the probe reads one page of a listing, so one refusal is the listing's. */
const isForbidden = (e: unknown): boolean => codeOf(e) === 'API_FORBIDDEN' || codeOf(e) === 'API_FORBIDDEN_ONE';

/**
 * A probe under way: the dialect taking shape, what was seen, and `read`, through which every call goes (it
 * counts the calls and notes the rate headers each answer carries).
 */
interface Probe {
  d: Dialect;
  findings: Finding[];
  read(base: ListingBase, path: string, query: Record<string, string | number | undefined>): Promise<Page<Record<string, unknown>>>;
}

/** Probes the upstream behind `api`: at most 10 calls (6 without `resources`). */
export async function probeDialect(api: LawsuitApi, opts: ProbeOptions = {}): Promise<ProbeReport> {
  const findings: Finding[] = [];
  const d: Dialect = { ...ASSUMED_DIALECT, rateHeaders: [], refused: [] };
  let calls = 0;
  const headers = new Set<string>();
  const probe: Probe = {
    d, findings,
    async read(base, path, query) {
      calls++;
      const res = await api.probe.read(base, path, query);
      for (const h of Object.keys(res.headers)) if (RATE_HEADER.test(h.toLowerCase())) headers.add(h.toLowerCase());
      return res.body;
    },
  };
  const sorted = await probePageSize(probe);
  if (!d.refused.includes('responses')) await probeSort(probe, sorted);
  // Which resources the plan refuses: doctor only, a night finds out by using them.
  if (opts.resources) await probeResources(probe);
  d.rateHeaders = [...headers].sort();
  findings.push({ topic: 'rate headers', result: d.rateHeaders.length > 0 ? d.rateHeaders.join(', ') : 'none: the limiter paces from its own call log' });
  return { dialect: d, calls, findings };
}

type ProbePage = Page<Record<string, unknown>>;

/**
 * 1. The largest page: the documentation's 1000; a 400 or a page cut short teaches less. The envelope comes with it.
 * It is asked sorted by the first candidate's names (the documented ones): a first night on a new key finds the
 * listing empty, and then this one call is all a probe can learn (the size and the names accepted, nothing to
 * verify them by). A 400 may be the size's or the names': the size is asked alone, and the names in step 2.
 * Returns the page when it came sorted: step 2 takes it as that candidate's ascending page.
 */
async function probePageSize({ d, findings, read }: Probe): Promise<ProbePage | undefined> {
  const c = SORT_CANDIDATES[0];
  const largest = (sorted: boolean) => read('requests', '/responses', { page: 1, page_size: MAX_PAGE_SIZE, ...(sorted ? { [c.field]: c.value, [c.direction]: c.asc } : {}) });
  let first: ProbePage | undefined;
  let sorted = true;
  try {
    try {
      first = await largest(true);
    } catch (e) {
      if (resolveFailure(e, { plainer: true }).action !== 'ask-plainer') throw e;
      sorted = false;
      first = await largest(false);
    }
    const judged = judgePageSize(MAX_PAGE_SIZE, first.items.length, first.allCount);
    // Accepted on an empty listing: taken, unverified (the readers learn a silent clamp from the first short page).
    d.pageSize = judged ?? (first.allCount === 0 ? MAX_PAGE_SIZE : ASSUMED_DIALECT.pageSize);
    d.pageSizeVerified = judged !== undefined;
  } catch (e) {
    if (isForbidden(e)) {
      d.refused.push('responses');
      findings.push({ topic: 'GET /responses', result: 'refused (403): responses cannot be read with this key' });
    } else if (resolveFailure(e, { plainer: true }).action === 'ask-plainer') {
      // Refused: the spec's maximum, read once to see the envelope.
      first = await read('requests', '/responses', { page: 1, page_size: ASSUMED_DIALECT.pageSize });
      d.pageSize = ASSUMED_DIALECT.pageSize;
      d.pageSizeVerified = true;
    } else throw e;
  }
  if (first) {
    d.envelope = first.form ?? 'unknown';
    d.countsAsStrings = first.countsAsStrings === true;
    findings.push({ topic: 'page size', result: d.pageSize === MAX_PAGE_SIZE
      ? `${d.pageSize} (asked ${MAX_PAGE_SIZE}, got ${first.items.length} of ${first.allCount}${d.pageSizeVerified ? '' : ': accepted, not verified on an empty listing'})`
      : `${d.pageSize} (${MAX_PAGE_SIZE} refused or cut short)` });
    findings.push({ topic: 'envelope', result: `${d.envelope} form${d.countsAsStrings ? ', counts written as strings' : ''}` });
  }
  return sorted ? first : undefined;
}

/**
 * 2. Sort names, documented first: the same first page asked ascending and descending (the first candidate's
 * ascending page is step 1's when it came sorted). On an empty listing there is nothing to sort: the first names
 * the upstream accepts are taken, unverified, since the descending page and every other candidate would be as
 * empty. Asking them all cost a first night four calls for what one tells (five for step 1 and 2 together: a night
 * of five companies 5% over its floor for them alone; one now, in the documented dialect).
 */
async function probeSort({ d, findings, read }: Probe, firstAscending?: ProbePage): Promise<void> {
  d.sort = null;
  let unknown: SortNames | undefined;
  for (const s of SORT_CANDIDATES) {
    const page = (dir: string) => read('requests', '/responses', { page: 1, page_size: 100, [s.field]: s.value, [s.direction]: dir });
    const times = (p: ProbePage) => p.items.map((i) => (typeof i.created_at === 'string' ? Date.parse(i.created_at) : Number.NaN));
    let judged: SortJudgement | 'refused' | 'empty';
    try {
      const asc = s === SORT_CANDIDATES[0] && firstAscending ? firstAscending : await page(s.asc);
      judged = asc.allCount === 0 && asc.items.length === 0 ? 'empty' : judgeSort(times(asc), times(await page(s.desc)));
    } catch (e) {
      if (resolveFailure(e, { plainer: true }).action !== 'ask-plainer') throw e;
      judged = 'refused';
    }
    findings.push({ topic: `sort ${s.field}/${s.direction}`, result: judged === 'refused' ? 'refused (400): the upstream does not know these names'
      : judged === 'empty' ? 'accepted; the listing is empty, nothing to judge it by (the sweep\'s checks do)' : judged });
    if (judged === 'honoured') { d.sort = s; d.sortVerified = true; break; }
    if (judged === 'empty') { d.sort = s; break; }
    if (judged === 'unknown') unknown ??= s;
  }
  // Too few responses to tell: the first candidate not refused, unverified; the sweep's checks decide.
  if (!d.sort && unknown) d.sort = unknown;
}

/** 3. One page of each other listing: a 403 is a resource the key's plan leaves out. */
async function probeResources({ d, findings, read }: Probe): Promise<void> {
  for (const [base, path] of [['requests', '/requests'], ['tracking', '/tracking'], ['transfer', '/transfer-file']] as const) {
    try {
      await read(base, path, { page: 1, page_size: 1 });
      findings.push({ topic: `GET ${path}`, result: 'answered' });
    } catch (e) {
      if (!isForbidden(e)) throw e;
      d.refused.push(path.slice(1));
      findings.push({ topic: `GET ${path}`, result: 'refused (403): not in the plan of this key' });
    }
  }
}

/**
 * Whose dialect is remembered: the requests base address, or for the embedded sandbox (a new port each run)
 * the sandbox itself.
 */
export function dialectBase(cfg: Config): string {
  return cfg.sandbox ? `sandbox:${cfg.sandboxDialect ?? 'default'}` : cfg.urls.requests;
}

/** The dialect a night reads responses with, and where it came from. */
interface NightDialect {
  dialect: Dialect;
  /** `pinned` (configuration), `remembered` (the warehouse), `probed` (tonight), `assumed` (a dry run, nothing known). */
  source: 'pinned' | 'remembered' | 'probed' | 'assumed';
  calls: number;
}

/** The sweep's query names under `d`, or those configuration pins; undefined when no sort is honoured. */
export function sweepParamsOf(d: Dialect, pinned: SweepParams | undefined): SweepParams | undefined {
  if (pinned) return pinned;
  if (!d.sort) return undefined;
  return { createdGte: 'created_at_gte', createdLte: 'created_at_lte', orderBy: d.sort.field, orderByValue: d.sort.value, order: d.sort.direction, orderAsc: d.sort.asc };
}

/**
 * The night's dialect: remembered in the warehouse when recent, else learned now (`probe`: false reads only what
 * is remembered, as a dry run must). Configuration pins the page size and the sweep's names over it.
 */
export async function nightDialect(ctx: RunContext, opts: { probe: boolean }): Promise<NightDialect> {
  const { pageSize, sweepParams: p } = ctx.cfg;
  // Both pinned: nothing left to learn, nothing sent to learn it.
  if (pageSize !== undefined && p) {
    const sort: SortNames = { field: p.orderBy, value: p.orderByValue, direction: p.order, asc: p.orderAsc, desc: 'desc' };
    return { dialect: { ...ASSUMED_DIALECT, pageSize, pageSizeVerified: true, sort, sortVerified: false }, source: 'pinned', calls: 0 };
  }
  const base = dialectBase(ctx.cfg);
  const stored = await readDialect(ctx.wh, base);
  let out: NightDialect;
  // A dialect learned when too few responses were there to tell the sort is probed again.
  const settled = (d: Dialect): boolean => (d.sortVerified || d.sort === null) && d.pageSizeVerified;
  if (stored && Date.now() - stored.learnedAt.getTime() < MAX_AGE_MS && settled({ ...ASSUMED_DIALECT, ...(stored.dialect as Dialect) })) out = { dialect: { ...ASSUMED_DIALECT, ...(stored.dialect as Dialect) }, source: 'remembered', calls: 0 };
  else if (!opts.probe) out = { dialect: { ...ASSUMED_DIALECT }, source: 'assumed', calls: 0 };
  else {
    const r = await probeDialect(ctx.api);
    await writeDialect(ctx.wh, base, r.dialect, { probeCalls: r.calls, runId: ctx.runId, source: 'probe' });
    ctx.log.info({ dialect: r.dialect, calls: r.calls }, 'learned what the upstream accepts');
    out = { dialect: r.dialect, source: 'probed', calls: r.calls };
  }
  if (ctx.cfg.pageSize !== undefined) out = { ...out, dialect: { ...out.dialect, pageSize: ctx.cfg.pageSize }, source: 'pinned' };
  return out;
}

/**
 * The night's dialect for reading: as nightDialect, but a probe that fails for any reason but a refusal (a 401 or
 * 403 the stage must hear) leaves the night on the assumed dialect, which the sweep's checks then verify.
 */
export function dialectOrAssumed(ctx: RunContext): Promise<NightDialect> {
  // Once a run: a trackings night's reading and its search stage both ask, and a first night on an empty key
  // learns nothing it could settle, so a second asking probed again (up to 9 more calls).
  let learned = learnedThisRun.get(ctx);
  if (!learned) learnedThisRun.set(ctx, (learned = learnOrAssume(ctx)));
  return learned;
}

const learnedThisRun = new WeakMap<RunContext, Promise<NightDialect>>();
/** The runs that have written what they learned of the dialect by reading (settled by use, or a sort broken). */
const rememberedThisRun = new WeakSet<RunContext>();

/**
 * The page size the key's trackings are listed at: the one learned (or pinned) for the responses listing, else the
 * largest (listTrackings reads again at the spec's 100 should the listing refuse it, and the walk follows the
 * listing's own count should it cut pages short). Nothing is probed for it: the spec's 100 for want of a settled
 * dialect (a first night's probe of an empty listing settles none) listed a second trackings night's 633 trackings
 * in 7 calls where 1 does.
 */
export async function listingPageSize(ctx: RunContext): Promise<number> {
  const night = await nightDialect(ctx, { probe: false });
  return night.source === 'assumed' ? MAX_PAGE_SIZE : night.dialect.pageSize;
}

async function learnOrAssume(ctx: RunContext): Promise<NightDialect> {
  try {
    return await nightDialect(ctx, { probe: true });
  } catch (e) {
    if (resolveFailure(e).reach !== 'item') throw e;
    // Nothing learned: the spec's page size, and no sort name sent at all (an upstream may refuse one it does not
    // know): requests are read one by one in the upstream's own order, which holds still once they completed.
    ctx.log.warn({ code: codeOf(e) }, `could not learn what the upstream accepts (${(e as Error).message}): reading responses per request, in pages of the spec's size`);
    return { dialect: { ...ASSUMED_DIALECT, pageSize: ctx.cfg.pageSize ?? ASSUMED_DIALECT.pageSize, sort: null }, source: 'assumed', calls: 0 };
  }
}

/**
 * The sweep found tonight that the sort it used is not honoured after all: the next candidate is remembered for
 * the next night (or none, and responses are read per request), unless configuration pins the names.
 */
export async function rememberSortBroken(ctx: RunContext, d: Dialect): Promise<void> {
  if (ctx.cfg.sweepParams) return;
  rememberedThisRun.add(ctx);
  const i = d.sort ? SORT_CANDIDATES.findIndex((s) => s.field === d.sort!.field) : -1;
  const next: Dialect = { ...d, sort: i >= 0 && i + 1 < SORT_CANDIDATES.length ? SORT_CANDIDATES[i + 1] : null, sortVerified: false };
  await writeDialect(ctx.wh, dialectBase(ctx.cfg), next, { runId: ctx.runId, source: 'sweep' });
}

/** What a reader of the responses listing saw tonight by the night's dialect: the items in its pages, checked. */
interface ReadBy {
  /** Items its pages held (ours and others'). */
  items: number;
  /** The largest page size a page showed the upstream serves, as the probe judges one (sweep/cursor.ts, pageSizeShown). */
  sizeShown: number;
  /** Every page passed the reader's checks (verify.ts), the order as asked among them. */
  checked: boolean;
}

/**
 * A dialect a probe could not settle (it met an empty listing: a first night on a new key) is settled by the
 * night that read by it: pages its checks passed, in the order asked, settle the sort (whether the upstream sorts
 * or its own order already ascends, the sweep reads alike, and its checks on every page catch the night it does
 * not: rememberSortBroken); a first page at the dialect's size that held as many or all the listing counts settles
 * the page size, as it would the probe's (judgePageSize). Without it the second
 * night probed again, two calls of a floor of three on a trackings night that found nothing new (issue 32). A
 * dialect pinned, assumed, or settled already is left as it is; nothing is sent.
 */
export async function rememberReadBy(ctx: RunContext, night: NightDialect, seen: ReadBy): Promise<void> {
  const d = night.dialect;
  if (night.source === 'pinned' || night.source === 'assumed' || !seen.checked || seen.items < 2) return;
  // Once a night, and never over a break another reader found tonight (its record stands).
  if (rememberedThisRun.has(ctx)) return;
  const settled: Dialect = {
    ...d,
    sortVerified: d.sortVerified || d.sort !== null,
    pageSizeVerified: d.pageSizeVerified || seen.sizeShown >= d.pageSize,
  };
  if (settled.sortVerified === d.sortVerified && settled.pageSizeVerified === d.pageSizeVerified) return;
  rememberedThisRun.add(ctx);
  // Not remembered costs the next night a probe, never tonight's reading.
  await writeDialect(ctx.wh, dialectBase(ctx.cfg), settled, { runId: ctx.runId, source: 'sweep' })
    .catch((e: unknown) => ctx.log.warn({ code: codeOf(e) }, 'could not record that tonight\'s reading settled the dialect: the next night probes it again'));
}

