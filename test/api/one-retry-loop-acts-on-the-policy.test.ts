import { describe, expect, it } from 'vitest';
import { API_CODES, ApiError, errorForNetwork, errorForStatus } from '../../src/api/errors.js';
import { retrying, type RetryLoop } from '../../src/api/retry-loop.js';
import type { CallRole, ResponseAction } from '../../src/shared/failure-policy.js';

// The one retry loop, on a fake clock: each row scripts what the attempts meet, and the loop's sends, waits and
// outcome are read back. No timer runs: `sleep` moves the fake clock.

const noRedact = (s: string) => s;
const status = (n: number) => errorForStatus(n, {}, 'GET /x', noRedact);
const reset = () => errorForNetwork(Object.assign(new Error('x'), { code: 'ECONNRESET' }), 'POST /requests');
const exhaustedServer = () => Object.assign(status(503), { exhausted: true });
const expired = () => new ApiError(API_CODES.downloadExpired, 'expired', { statusCode: 403 });
const tooLarge = () => new ApiError(API_CODES.tooLarge, 'too large', { statusCode: 200 });

type Step = 'ok' | (() => unknown);

interface Row {
  what: string;
  script: Step[];
  call?: CallRole;
  acts: RetryLoop<string>['acts'];
  retries?: number;
  stop?: boolean;
  giveUpWaits?: boolean;
  /** The outcome: the result, or the code thrown. */
  outcome: string;
  sends: number;
  waits: number[];
  actions: ResponseAction[];
  /** Whether the thrown failure is marked as retried out (an outer caller then gives up on it). */
  exhausted?: boolean;
}

const RETRY = { retry: 'again', 'wait-rate-limit': 'again' } as const;

const rows: Row[] = [
  { what: 'a 5xx twice, then an answer: waits its backoff before each retry', script: [() => status(503), () => status(500), 'ok'], acts: RETRY,
    outcome: 'result', sends: 3, waits: [100, 200], actions: ['retry', 'retry'] },
  { what: 'a 429, then an answer: waits for the rate limit', script: [() => status(429), 'ok'], acts: RETRY,
    outcome: 'result', sends: 2, waits: [100], actions: ['wait-rate-limit'] },
  { what: 'a 5xx past the retries: thrown, marked retried out', script: [() => status(503), () => status(503), () => status(503)], acts: RETRY, retries: 2,
    outcome: 'API_SERVER', sends: 3, waits: [100, 200], actions: ['retry', 'retry'], exhausted: true },
  { what: 'no retry allowed: the first failure is the caller\'s, unmarked', script: [() => status(503)], acts: RETRY, retries: 0,
    outcome: 'API_SERVER', sends: 1, waits: [], actions: [], exhausted: false },
  { what: 'a 400: given up at once', script: [() => status(400)], acts: RETRY,
    outcome: 'API_VALIDATION', sends: 1, waits: [], actions: [], exhausted: false },
  { what: 'a failure an inner loop retried out: not sent again', script: [exhaustedServer], acts: RETRY,
    outcome: 'API_SERVER', sends: 1, waits: [], actions: [] },
  { what: 'an unsafe call reset after sending, no look-up here: thrown for the caller to look up', script: [reset], call: { safety: 'unsafe' }, acts: RETRY,
    outcome: 'API_NETWORK', sends: 1, waits: [], actions: [], exhausted: false },
  { what: 'an unsafe call reset after sending: the look-up finds what it made', script: [reset, 'ok'], call: { safety: 'unsafe' }, acts: { lookup: () => ({ result: 'found' }) },
    outcome: 'found', sends: 1, waits: [100], actions: ['lookup'] },
  { what: 'an unsafe call reset after sending: the look-up finds nothing, it is sent again', script: [reset, 'ok'], call: { safety: 'unsafe' }, acts: { lookup: () => 'again' },
    outcome: 'result', sends: 2, waits: [100], actions: ['lookup'] },
  { what: 'a look-up that cannot help gives up', script: [reset], call: { safety: 'unsafe' }, acts: { lookup: () => 'give-up' },
    outcome: 'API_NETWORK', sends: 1, waits: [100], actions: ['lookup'] },
  { what: 'an expired address: the next attempt fetches a fresh one', script: [expired, 'ok'], acts: { ...RETRY, 'refresh-address': 'again' },
    outcome: 'result', sends: 2, waits: [100], actions: ['refresh-address'] },
  { what: 'an expired address where no one can refresh it: thrown', script: [expired], acts: RETRY,
    outcome: 'API_DOWNLOAD_EXPIRED', sends: 1, waits: [], actions: [] },
  { what: 'a page too large on a call whose page can shrink: asked again smaller', script: [tooLarge, 'ok'], call: { pageSized: true }, acts: { 'shrink-page': () => 'again' },
    outcome: 'result', sends: 2, waits: [100], actions: ['shrink-page'] },
  { what: 'a body too large on a call of fixed size: given up', script: [tooLarge], acts: { ...RETRY, 'shrink-page': () => 'again' },
    outcome: 'API_TOO_LARGE', sends: 1, waits: [], actions: [] },
  { what: 'the client closed, or the budget spent by this failure: no wait, marked', script: [() => status(503)], acts: RETRY, stop: true,
    outcome: 'API_SERVER', sends: 1, waits: [], actions: [], exhausted: true },
  { what: 'a wait the backoff declines (a Retry-After too long, past the budget): marked', script: [() => status(429)], acts: RETRY, giveUpWaits: true,
    outcome: 'API_RATE_LIMITED', sends: 1, waits: [], actions: [], exhausted: true },
];

async function run(row: Row) {
  let now = 0;
  const sends: number[] = [];
  const waits: number[] = [];
  const actions: ResponseAction[] = [];
  try {
    const result = await retrying<string>({
      attempt: async (n) => {
        sends.push(now);
        const step = row.script[n];
        if (step === undefined) throw new Error(`attempt ${n} not scripted`);
        if (step === 'ok') return 'result';
        throw step();
      },
      call: row.call,
      acts: row.acts,
      retries: row.retries ?? 6,
      backoff: (n) => ({ ms: 100 * 2 ** n, giveUp: row.giveUpWaits === true }),
      stop: () => row.stop === true,
      sleep: async (ms) => { waits.push(ms); now += ms; },
      onRetry: (_e, _n, _ms, action) => { actions.push(action); },
    });
    return { outcome: result, sends: sends.length, waits, actions, thrown: undefined };
  } catch (e) {
    return { outcome: (e as ApiError).code, sends: sends.length, waits, actions, thrown: e as ApiError };
  }
}

describe('the one retry loop', () => {
  for (const row of rows) {
    it(row.what, async () => {
      const r = await run(row);
      expect({ outcome: r.outcome, sends: r.sends, waits: r.waits, actions: r.actions }).toEqual(
        { outcome: row.outcome, sends: row.sends, waits: row.waits, actions: row.actions });
      if (row.exhausted !== undefined) expect((r.thrown as { exhausted?: boolean } | undefined)?.exhausted === true).toBe(row.exhausted);
    });
  }

  it('sends nothing more once a retry wait was cut short by a stop, whatever the retries left', async () => {
    let closed = false;
    let sends = 0;
    const e = await retrying({
      attempt: async () => {
        sends++;
        if (closed) throw new ApiError(API_CODES.closed, 'not sent', { notProcessed: true });
        throw status(503);
      },
      acts: RETRY, retries: 6, backoff: () => ({ ms: 1000, giveUp: false }),
      sleep: async () => { closed = true; },
    }).catch((x: unknown) => x as ApiError);
    expect(e.code).toBe('API_CLOSED');
    expect(sends).toBe(2);
  });
});
