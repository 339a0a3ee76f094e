// /_sandbox/: what tests and benchmarks need to know about the emulator. No key, no rate limit, not counted.

import { validationError, type RouteModule } from '../context.js';
import { parseResources } from '../resource-plan.js';
import { sampleDocuments } from '../samples.js';
import { runSearch } from '../search.js';
import { validateSearchBody } from '../search-validation.js';

export const introspectionRoutes: RouteModule = (state) => [
  { method: 'GET', path: '/_sandbox/counters', api: false, handle: () => ({ status: 200, body: state.counters.snapshot() }) },
  { method: 'POST', path: '/_sandbox/counters/reset', api: false, handle: () => { state.counters.reset(); return { status: 200, body: { ok: true } }; } },
  {
    method: 'POST', path: '/_sandbox/truth', api: false,
    handle: ({ body, now }) => {
      const v = validateSearchBody(body);
      if (!v.ok) return validationError(v.reasons, v.status);
      const hits = runSearch(state.universe, v.search, now);
      return { status: 200, body: { lawsuits: hits.map((h) => ({ code: h.code, instance: h.instance })), count: hits.length } };
    },
  },
  {
    method: 'GET', path: '/_sandbox/samples', api: false,
    handle: ({ url, now }) => {
      const n = Math.min(1000, Math.max(1, Number(url.searchParams.get('n') ?? 50) || 50));
      const offset = Number(url.searchParams.get('offset') ?? 0) || 0;
      return { status: 200, body: { samples: sampleDocuments(state.universe, now, n, offset) } };
    },
  },
  {
    method: 'POST', path: '/_sandbox/faults', api: false,
    handle: ({ body }) => {
      const b = body as { spec?: unknown } | undefined;
      const spec = b && typeof b === 'object' && 'spec' in b ? b.spec : body;
      try {
        state.faults.set(typeof spec === 'string' ? spec : (spec ?? {}) as Record<string, number>);
      } catch (e) {
        return validationError([(e as Error).message]);
      }
      return { status: 200, body: { faults: state.faults.get() } };
    },
  },
  // The dialect is fixed for the sandbox's life (a request's statuses and a listing's order must not change under
  // a client); this shows which one, and its whole table of differences, so that a test can print what it met.
  { method: 'GET', path: '/_sandbox/dialect', api: false, handle: () => ({ status: 200, body: { dialect: state.dialect.name, rules: state.dialect } }) },
  { method: 'GET', path: '/_sandbox/faults', api: false, handle: () => ({ status: 200, body: { faults: state.faults.get() } }) },
  { method: 'GET', path: '/_sandbox/plan', api: false, handle: () => ({ status: 200, body: { forbid: state.plan.get() } }) },
  {
    method: 'POST', path: '/_sandbox/plan', api: false,
    handle: ({ body }) => {
      const problems: string[] = [];
      const forbid = parseResources((body as { forbid?: unknown } | undefined)?.forbid ?? [], 'forbid', problems);
      if (problems.length) return validationError(problems);
      state.plan.set(forbid);
      return { status: 200, body: { forbid: state.plan.get() } };
    },
  },
  {
    method: 'GET', path: '/_sandbox/stats', api: false,
    handle: () => ({
      status: 200,
      body: { requests_held: state.store.size(), boot_id: state.options.bootId, retention_ms: state.options.retentionMs, rss_mb: Math.round(process.memoryUsage().rss / 1048576) },
    }),
  },
  {
    method: 'POST', path: '/_sandbox/clock', api: false,
    handle: ({ body }) => {
      const b = (body ?? {}) as { now?: unknown; advance_days?: unknown };
      if (typeof b.now === 'string' && !Number.isNaN(Date.parse(b.now))) state.clock.set(b.now);
      else if (typeof b.advance_days === 'number' && Number.isFinite(b.advance_days)) state.clock.advanceDays(b.advance_days);
      else return validationError(['body must be {now: ISO date-time} or {advance_days: number}']);
      return { status: 200, body: { now: new Date(state.clock.now()).toISOString() } };
    },
  },
  { method: 'GET', path: '/_sandbox/clock', api: false, handle: () => ({ status: 200, body: { now: new Date(state.clock.now()).toISOString() } }) },
  {
    method: 'GET', path: '/_sandbox/lawsuit', api: false,
    handle: ({ url, now }) => {
      const code = url.searchParams.get('code') ?? '';
      const instance = url.searchParams.get('instance');
      const found = state.universe.lawsuitsOfCnj(code)
        .map((i) => state.universe.lawsuit(i, now, { onDemand: true, shape: 'full', privileged: true }))
        .filter((l): l is Record<string, unknown> => l !== undefined && (instance === null || l.instance === Number(instance)));
      if (found.length === 0) return { status: 404, body: { error: { name: 'NotFound', message: 'lawsuit not found', data: [] } } };
      return { status: 200, body: instance === null ? { lawsuits: found } : found[0] };
    },
  },
];
