// /_sandbox/: what tests and benchmarks need to know about the emulator. No key, no rate limit, not counted.
// The universe's answers (truth, lawsuit, samples, changes) are as of now, or of `?day=d` (d days from the
// sandbox's start: day 0 is the universe every test compares with) or `?at=<instant>` (as-of.ts).

import { asOfParams } from '../as-of.js';
import { changedLawsuits } from '../changes.js';
import { DAY_MS } from '../days.js';
import { validationError, type CallContext, type Reply, type RouteModule, type SandboxState } from '../context.js';
import { asksGroundTruth, groundTruth, parseTruthQuery } from '../ground-truth.js';
import { phaseOf, statusOf } from '../timeline.js';
import { parseResources } from '../resource-plan.js';
import { sampleDocuments } from '../samples.js';
import { runSearch } from '../search.js';
import { validateSearchBody } from '../search-validation.js';

export const introspectionRoutes: RouteModule = (state) => [
  { method: 'GET', path: '/_sandbox/counters', api: false, handle: () => ({ status: 200, body: state.counters.snapshot() }) },
  { method: 'POST', path: '/_sandbox/counters/reset', api: false, handle: () => { state.counters.reset(); return { status: 200, body: { ok: true } }; } },
  { method: 'POST', path: '/_sandbox/truth', api: false, handle: (ctx) => truth(state, ctx) },
  { method: 'GET', path: '/_sandbox/samples', api: false, handle: (ctx) => samples(state, ctx) },
  { method: 'POST', path: '/_sandbox/faults', api: false, handle: (ctx) => setFaults(state, ctx) },
  // The dialect is fixed for the sandbox's life (a request's statuses and a listing's order must not change under
  // a client); this shows which one, and its whole table of differences, so that a test can print what it met.
  { method: 'GET', path: '/_sandbox/dialect', api: false, handle: () => ({ status: 200, body: { dialect: state.dialect.name, rules: state.dialect } }) },
  { method: 'GET', path: '/_sandbox/faults', api: false, handle: () => ({ status: 200, body: { faults: state.faults.get() } }) },
  { method: 'GET', path: '/_sandbox/plan', api: false, handle: () => ({ status: 200, body: { forbid: state.plan.get() } }) },
  { method: 'POST', path: '/_sandbox/plan', api: false, handle: (ctx) => setPlan(state, ctx) },
  {
    method: 'GET', path: '/_sandbox/stats', api: false,
    handle: () => ({
      status: 200,
      body: { requests_held: state.store.size(), boot_id: state.options.bootId, retention_ms: state.options.retentionMs, rss_mb: Math.round(process.memoryUsage().rss / 1048576) },
    }),
  },
  { method: 'POST', path: '/_sandbox/clock', api: false, handle: (ctx) => setClock(state, ctx) },
  { method: 'GET', path: '/_sandbox/clock', api: false, handle: () => ({ status: 200, body: clockView(state) }) },
  { method: 'GET', path: '/_sandbox/lawsuit', api: false, handle: (ctx) => lawsuitOf(state, ctx) },
  { method: 'GET', path: '/_sandbox/changes', api: false, handle: (ctx) => changes(state, ctx) },
  // What the pushing to callback_urls did: deliveries made, delivered, retried, given up (with their response ids).
  { method: 'GET', path: '/_sandbox/callbacks', api: false, handle: () => ({ status: 200, body: state.callbacks.stats }) },
];

const iso = (ms: number) => new Date(ms).toISOString();

function clockView(state: SandboxState) {
  const now = state.clock.now();
  return { now: iso(now), day: state.clock.dayOf(now), started_at: iso(state.clock.startMs), day_ms: state.clock.dayMs };
}

/**
 * The lawsuits a search body finds, by key: what a test compares the client's results with. A body of
 * `documents` and `cnj` asks instead for every lawsuit they find whole, as lawsuit-level reads at that instant
 * would answer them (ground-truth.ts).
 */
function truth(state: SandboxState, { body, url, now }: CallContext): Reply {
  const reasons: string[] = [];
  const at = asOfParams(state.clock, url, reasons) ?? now;
  if (asksGroundTruth(body)) {
    const q = parseTruthQuery(body as Record<string, unknown>, reasons);
    return reasons.length ? validationError(reasons) : { status: 200, body: groundTruth(state, q, at) };
  }
  if (reasons.length) return validationError(reasons);
  const v = validateSearchBody(body);
  if (!v.ok) return validationError(v.reasons, v.status);
  const hits = runSearch(state.universe, v.search, at);
  return { status: 200, body: { lawsuits: hits.map((h) => ({ code: h.code, instance: h.instance })), count: hits.length } };
}

function samples(state: SandboxState, { url, now }: CallContext): Reply {
  const reasons: string[] = [];
  const at = asOfParams(state.clock, url, reasons) ?? now;
  if (reasons.length) return validationError(reasons);
  const n = Math.min(1000, Math.max(1, Number(url.searchParams.get('n') ?? 50) || 50));
  const offset = Number(url.searchParams.get('offset') ?? 0) || 0;
  return { status: 200, body: { samples: sampleDocuments(state.universe, at, n, offset) } };
}

function setFaults(state: SandboxState, { body }: CallContext): Reply {
  const b = body as { spec?: unknown } | undefined;
  const spec = b && typeof b === 'object' && 'spec' in b ? b.spec : body;
  try {
    state.faults.set(typeof spec === 'string' ? spec : (spec ?? {}) as Record<string, number>);
  } catch (e) {
    return validationError([(e as Error).message]);
  }
  return { status: 200, body: { faults: state.faults.get() } };
}

function setPlan(state: SandboxState, { body }: CallContext): Reply {
  const problems: string[] = [];
  const forbid = parseResources((body as { forbid?: unknown } | undefined)?.forbid ?? [], 'forbid', problems);
  if (problems.length) return validationError(problems);
  state.plan.set(forbid);
  return { status: 200, body: { forbid: state.plan.get() } };
}

function setClock(state: SandboxState, { body }: CallContext): Reply {
  const b = (body ?? {}) as { now?: unknown; advance_days?: unknown; day?: unknown };
  if (typeof b.now === 'string' && !Number.isNaN(Date.parse(b.now))) state.clock.set(b.now);
  else if (typeof b.advance_days === 'number' && Number.isFinite(b.advance_days)) state.clock.advanceDays(b.advance_days);
  else if (typeof b.day === 'number' && Number.isFinite(b.day)) state.clock.set(state.clock.dayStart(b.day));
  else return validationError(['body must be {now: ISO date-time}, {advance_days: number} or {day: number}']);
  return { status: 200, body: clockView(state) };
}

/**
 * A lawsuit's every instance (or the one asked) as a privileged caller sees it on demand: no masking, no lag; in
 * the dialect's level model (a whole lawsuit always carries last_step in two levels).
 */
function lawsuitOf(state: SandboxState, { url, now }: CallContext): Reply {
  const reasons: string[] = [];
  const at = asOfParams(state.clock, url, reasons) ?? now;
  if (reasons.length) return validationError(reasons);
  const code = url.searchParams.get('code') ?? '';
  const instance = url.searchParams.get('instance');
  const found = state.universe.lawsuitsOfCnj(code)
    .map((i) => state.universe.lawsuit(i, at, { onDemand: true, shape: 'full', privileged: true, levels: state.dialect.levels }))
    .filter((l): l is Record<string, unknown> => l !== undefined && (instance === null || l.instance === Number(instance)));
  if (found.length === 0) return { status: 404, body: { error: { name: 'NotFound', message: 'lawsuit not found', data: [] } } };
  return { status: 200, body: instance === null ? { lawsuits: found } : found[0] };
}

/**
 * The lawsuits whose content a search sees changed between two instants (changes.ts): new ones, or with new steps.
 * It scans the universe: `limit` bounds the answer, `from_index` pages on (`next_index`).
 */
function changes(state: SandboxState, { url, now }: CallContext): Reply {
  const reasons: string[] = [];
  const param = (name: string) => url.searchParams.get(name);
  const to = asOfParams(state.clock, url, reasons, { day: 'to_day', at: 'to' }) ?? now;
  const from = asOfParams(state.clock, url, reasons, { day: 'from_day', at: 'from' }) ?? to - DAY_MS;
  const limit = Number(param('limit') ?? 100);
  const fromIndex = Number(param('from_index') ?? 0);
  if (!(Number.isInteger(limit) && limit >= 1 && limit <= 10_000)) reasons.push('limit must be a whole number within 1-10000');
  if (!(Number.isInteger(fromIndex) && fromIndex >= 0)) reasons.push('from_index must be a whole number >= 0');
  if (from > to) reasons.push('from must not be after to');
  if (reasons.length) return validationError(reasons);
  const onDemand = param('on_demand') === 'true';
  const u = state.universe;
  const { changed, nextIndex } = changedLawsuits(u, from, to, { onDemand, fromIndex, limit });
  const lawsuits = changed.map(({ index, change }) => {
    const o = u.observe(index, to, onDemand)!;
    const last = o.steps[o.steps.length - 1];
    const before = change === 'steps' ? u.observe(index, from, onDemand)!.steps.length : 0;
    return {
      code: o.plan.code, instance: o.plan.instance, change, steps_before: before, steps: o.steps.length,
      phase: phaseOf(last), status: statusOf(last), secrecy_level: o.plan.secrecy,
      documents: o.parties.flatMap((q) => [{ document_type: q.documentType, document: q.document }, ...q.lawyers.map((l) => ({ document_type: 'OAB', document: l.oab }))]),
    };
  });
  return { status: 200, body: { from: iso(from), to: iso(to), lawsuits, next_index: nextIndex ?? null } };
}
