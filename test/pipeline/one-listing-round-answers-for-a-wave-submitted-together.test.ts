import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import type { RunContext } from '../../src/pipeline/context.js';
import { pollUntilFinished, type Waiting } from '../../src/pipeline/poll.js';

// Polling costs calls (issue 32: a later night's calls within 1.1 × its floor, one completion listing a wave).
// A wave's requests are submitted one after the other over some milliseconds; a round sent at the first one's
// answer found that one finished and needed a second round for the rest. On a fake clock: three requests
// submitted 20 ms apart, all finished as soon as made, are answered for by one listing round.

beforeEach(() => { vi.useFakeTimers(); });
afterEach(() => { vi.useRealTimers(); });

const requestObject = (id: string, at: number) => ({ request_id: id, status: 'completed', created_at: new Date(at).toISOString(), search: { search_type: 'cpf', search_key: id } });

function fakeContext(made: Map<string, number>): { ctx: RunContext; listings: () => number } {
  let listings = 0;
  const api = {
    requests: {
      async *walkSince() {
        listings++;
        yield { items: [...made].map(([id, at]) => requestObject(id, at)) };
      },
      get: (id: string) => Promise.resolve(requestObject(id, made.get(id) ?? Date.now())),
    },
  };
  const ctx = { log: pino({ level: 'silent' }), signal: new AbortController().signal, api } as unknown as RunContext;
  return { ctx, listings: () => listings };
}

it('sends one listing round for requests submitted together, once the first is old enough, not at its answer', async () => {
  const made = new Map<string, number>();
  const { ctx, listings } = fakeContext(made);
  const waiting = new Map<string, Waiting>();
  const submit = (id: string): void => {
    made.set(id, Date.now());
    waiting.set(id, { requestId: id, createdAt: Date.now() });
  };
  const finished: string[] = [];
  submit('r1');
  const polled = pollUntilFinished(ctx, waiting, {
    finished: (r) => finished.push(r.request_id), lost: () => undefined, failed: () => undefined, more: () => made.size < 3,
  }, { minIntervalMs: 500 });
  await vi.advanceTimersByTimeAsync(20);
  submit('r2');
  await vi.advanceTimersByTimeAsync(20);
  submit('r3');
  await vi.advanceTimersByTimeAsync(2_000);
  await polled;
  expect(finished.sort()).toEqual(['r1', 'r2', 'r3']);
  expect(listings()).toBe(1);
});

it('asks at once for a request an earlier run submitted, even while submissions go on', async () => {
  const made = new Map<string, number>([['old', Date.now() - 3_600_000]]);
  const { ctx, listings } = fakeContext(made);
  const waiting = new Map<string, Waiting>([['old', { requestId: 'old', createdAt: made.get('old')!, resumed: true }]]);
  let more = true;
  const finished: string[] = [];
  const polled = pollUntilFinished(ctx, waiting, {
    finished: (r) => finished.push(r.request_id), lost: () => undefined, failed: () => undefined, more: () => more,
  }, { minIntervalMs: 500 });
  await vi.advanceTimersByTimeAsync(0);
  expect(finished).toEqual(['old']);
  expect(listings()).toBe(1);
  more = false;
  await vi.advanceTimersByTimeAsync(1_000);
  await polled;
});
