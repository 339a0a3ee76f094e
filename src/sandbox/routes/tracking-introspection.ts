// /_sandbox/ routes of the trackings: what tests need to act behind the client's back (another party pausing,
// resuming or deleting a tracking; another client on the key owning trackings of its own), to switch what runs
// send, and to see a tracking's runs. No key, no rate limit, not counted, like every introspection route.

import { notFound, validationError, type Reply, type RouteModule, type SandboxState } from '../context.js';
import type { StoredTracking } from '../tracking/records.js';
import { parseRunContent, RUN_CONTENTS } from '../tracking/run-content.js';
import { runInstant } from '../tracking/schedule.js';
import { renderTracking } from './tracking.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** The record as the API shows it, plus what only the sandbox knows: its owner, its runs held, its next run. */
function inside(state: SandboxState, t: StoredTracking, now: number): Record<string, unknown> {
  const store = state.store;
  const runs = store.listOf(t.apiKey).filter((r) => r.trackingId === t.id)
    .map((r) => ({ request_id: r.id, created_at: iso(r.createdMs), status: store.statusAt(r, now), lawsuits: r.fresh.length }));
  return {
    ...renderTracking(state, t, now),
    api_key: t.apiKey,
    foreign: t.foreign,
    runs_made: t.runs,
    next_run_at: t.state === 'running' ? iso(runInstant(t, t.nextRun)) : null,
    runs,
  };
}

export const trackingIntrospectionRoutes: RouteModule = (state) => {
  const trackings = state.trackings;
  /** The tracking of this id (any key), its key's due runs made first so that what is shown is current. */
  const withTracking = (id: string, now: number, act: (t: StoredTracking) => void): Reply => {
    const t = trackings.records.get(id);
    if (!t) return notFound('tracking');
    trackings.catchUp(t.apiKey, now);
    act(t);
    return { status: 200, body: inside(state, t, now) };
  };
  return [
    { method: 'GET', path: '/_sandbox/tracking/:id', api: false, handle: ({ params, now }) => withTracking(params.id, now, () => undefined) },
    // Another party (a colleague, the provider's support) acting on the key's tracking: the client learns it only by asking.
    { method: 'POST', path: '/_sandbox/tracking/:id/pause', api: false, handle: ({ params, now }) => withTracking(params.id, now, (t) => trackings.pause(t, now)) },
    { method: 'POST', path: '/_sandbox/tracking/:id/resume', api: false, handle: ({ params, now }) => withTracking(params.id, now, (t) => trackings.resume(t, now)) },
    { method: 'POST', path: '/_sandbox/tracking/:id/delete', api: false, handle: ({ params, now }) => withTracking(params.id, now, (t) => trackings.delete(t, now)) },
    { method: 'GET', path: '/_sandbox/tracking-runs', api: false, handle: () => ({ status: 200, body: { content: trackings.runContent() } }) },
    {
      method: 'POST', path: '/_sandbox/tracking-runs', api: false,
      handle: ({ body, now }) => {
        const problems: string[] = [];
        const content = parseRunContent((body as { content?: unknown } | undefined)?.content, 'content', problems);
        if (!content) return validationError(problems.length ? problems : [`body must be {content: ${RUN_CONTENTS.join(' | ')}}`]);
        trackings.setRunContent(content, now);
        return { status: 200, body: { content } };
      },
    },
    {
      method: 'POST', path: '/_sandbox/foreign/trackings', api: false,
      handle: ({ body, now }) => {
        const b = (body ?? {}) as { count?: unknown; recurrence?: unknown; api_key?: unknown };
        const count = b.count ?? 5;
        const recurrence = b.recurrence ?? 1;
        const apiKey = b.api_key ?? state.options.apiKeys[0];
        const problems: string[] = [];
        if (!Number.isInteger(count) || (count as number) < 1) problems.push('count must be a whole number >= 1');
        if (!Number.isInteger(recurrence) || (recurrence as number) < 1) problems.push('recurrence must be a whole number of days >= 1');
        if (typeof apiKey !== 'string' || !state.options.apiKeys.includes(apiKey)) problems.push('api_key must be a key the sandbox accepts');
        if (problems.length) return validationError(problems);
        const made = state.foreign.track(apiKey as string, count as number, recurrence as number, now);
        return { status: 200, body: { trackings: made.map((t) => inside(state, t, now)) } };
      },
    },
  ];
};
