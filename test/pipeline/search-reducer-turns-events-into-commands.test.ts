import { describe, expect, it } from 'vitest';
import type { PlannedSearch } from '../../src/pipeline/plan.js';
import { reduce, type SearchCommand, type SearchEvent } from '../../src/pipeline/search/reduce.js';
import { reportOf } from '../../src/pipeline/search/report.js';
import { drainable, MAX_RESUBMITS, moreToCome, searching, searchState, type SearchState } from '../../src/pipeline/search/state.js';
import type { RequestObject } from '../../src/spec/types.js';

// The search stage's reducer (src/pipeline/search/reduce.ts), one transition a row: from the state a list of
// earlier events leaves, one event, the commands it asks for and what the state then says (its figures, whether
// the stage may go on). No HTTP, no warehouse, no clock.

const planned = (n: number): PlannedSearch => ({
  doc: { line: n + 1, searchType: 'cpf', searchKey: `k${n}`, rawKey: `k${n}`, onDemand: false } as PlannedSearch['doc'],
  search: { search_type: 'cpf', search_key: `k${n}` },
  searchHash: `s${n}`, where: `line ${n + 1} (cpf)`, line: n + 1,
});

/** The stage's figures as its report gives them. */
const countsOf = (s: SearchState, outside: Parameters<typeof reportOf>[1]) => reportOf(s, outside, 120).counts;

const err = (code: string, message = code): Error => Object.assign(new Error(message), { code });
const req = (id: string, status: RequestObject['status'] = 'completed'): RequestObject => ({
  request_id: id, status, created_at: '2026-11-21T03:00:00.000Z', search: { search_type: 'cpf', search_key: id },
});

/** s0 and s1 to submit tonight; s2 resumed with request r2 of an earlier run. */
function fresh(): SearchState {
  return searchState({ searches: [planned(0), planned(1), planned(2)], resumed: [{ requestId: 'r2', search: 's2', createdAt: 1_000 }], adopted: 0 });
}

const start: SearchEvent = { kind: 'start', submit: ['s0', 's1'] };
const submitted = (search: string, id: string, first = true): SearchEvent => ({ kind: 'submitted', search, first, request: req(id, 'pending') });

function after(events: readonly SearchEvent[]): { state: SearchState; commands: SearchCommand[] } {
  let state = fresh();
  let commands: SearchCommand[] = [];
  for (const e of events) ({ state, commands } = reduce(state, e));
  return { state, commands };
}

const kinds = (cs: readonly SearchCommand[]) => cs.map((c) => c.kind);

interface Row {
  name: string;
  given: SearchEvent[];
  event: SearchEvent;
  commands: Array<Partial<SearchCommand>>;
  then?: (s: SearchState) => void;
}

const rows: Row[] = [
  {
    name: 'start: the resumed request is waited for and tonight\'s searches are submitted',
    given: [], event: start,
    commands: [{ kind: 'wait', requestId: 'r2', createdAt: 1_000, resumed: true }, { kind: 'submit', search: 's0', first: true }, { kind: 'submit', search: 's1', first: true }],
    then: (s) => expect(moreToCome(s)).toBe(true),
  },
  {
    name: 'a submission answered while the plan is still being submitted: waited for, and the failing-upstream budget starts again',
    given: [start], event: submitted('s0', 'a0'),
    commands: [{ kind: 'wait', requestId: 'a0', createdAt: Date.parse('2026-11-21T03:00:00.000Z'), resumed: false }, { kind: 'restart-budget' }],
    then: (s) => expect(countsOf(s, { polls: 0, probes: 0 }).submitted).toBe(1),
  },
  {
    name: 'a resubmission answered once the plan is submitted: waited for, the budget runs on from the end of the submissions',
    given: [start, submitted('s0', 'a0'), submitted('s1', 'a1'), { kind: 'cancelled', request: req('a0', 'cancelled') }],
    event: submitted('s0', 'a0b', false),
    commands: [{ kind: 'wait', requestId: 'a0b' }],
    then: (s) => expect(moreToCome(s)).toBe(false),
  },
  {
    name: 'a request the sweep reads finished: the sweep is told',
    given: [start, submitted('s0', 'a0')], event: { kind: 'finished', request: req('a0'), member: true },
    commands: [{ kind: 'sweep' }],
    then: (s) => expect(countsOf(s, { polls: 0, probes: 0 }).per_request).toBe(0),
  },
  {
    name: 'a request the sweep does not read finished: read on its own, recorded completed first',
    given: [start, submitted('s0', 'a0')], event: { kind: 'finished', request: req('a0'), member: false },
    commands: [{ kind: 'read', recorded: false }],
    then: (s) => expect(countsOf(s, { polls: 0, probes: 0 }).per_request).toBe(1),
  },
  {
    name: 'every submission answered, one request read on its own: polling goes on, since the read may find it forgotten and submit again',
    given: [start, submitted('s0', 'a0'), submitted('s1', 'a1'), { kind: 'loaded', requestId: 'r2', pages: 1 }, { kind: 'finished', request: req('a1'), member: false }],
    event: { kind: 'finished', request: req('a0'), member: false },
    commands: [{ kind: 'read', recorded: false }],
    then: (s) => {
      expect(moreToCome(s)).toBe(true);
      reduce(s, { kind: 'loaded', requestId: 'a0', pages: 1 });
      expect(moreToCome(s)).toBe(true);
      reduce(s, { kind: 'loaded', requestId: 'a1', pages: 1 });
      expect(moreToCome(s)).toBe(false);
    },
  },
  {
    name: 'the sweep hands over a finished request: read on its own, already recorded',
    given: [start, submitted('s0', 'a0'), { kind: 'finished', request: req('a0'), member: true }], event: { kind: 'handed-over', request: req('a0') },
    commands: [{ kind: 'read', recorded: true }],
  },
  {
    name: 'loaded: one more document done, its pages counted',
    given: [start, submitted('s0', 'a0'), { kind: 'finished', request: req('a0'), member: false }], event: { kind: 'loaded', requestId: 'a0', pages: 3 },
    commands: [{ kind: 'progress' }],
    then: (s) => expect(countsOf(s, { polls: 0, probes: 0 })).toMatchObject({ completed: 1, pages: 3 }),
  },
  {
    name: 'cancelled: left by the sweep, marked, and submitted again',
    given: [start, submitted('s0', 'a0')], event: { kind: 'cancelled', request: req('a0', 'cancelled') },
    commands: [{ kind: 'forget', requestId: 'a0' }, { kind: 'mark', requestId: 'a0', status: 'cancelled' }, { kind: 'log', level: 'warn' }, { kind: 'submit', search: 's0', first: false }],
    then: (s) => expect(countsOf(s, { polls: 0, probes: 0 }).resubmitted_cancelled).toBe(1),
  },
  {
    name: `cancelled a ${MAX_RESUBMITS + 1}th time: the document fails instead`,
    given: [start, ...Array.from({ length: MAX_RESUBMITS }, (_, i): SearchEvent[] => [
      submitted('s0', `c${i}`, i === 0), { kind: 'cancelled', request: req(`c${i}`, 'cancelled') }]).flat(), submitted('s0', 'last', false)],
    event: { kind: 'cancelled', request: req('last', 'cancelled') },
    commands: [{ kind: 'forget' }, { kind: 'mark' }, { kind: 'log', level: 'error', message: `search failed: request last was cancelled by the provider ${MAX_RESUBMITS + 1} times` }],
    then: (s) => {
      expect(s.failures.map((f) => f.code)).toEqual(['REQUEST_CANCELLED']);
      expect(countsOf(s, { polls: 0, probes: 0 })).toMatchObject({ failed: 1, resubmitted_cancelled: MAX_RESUBMITS });
    },
  },
  {
    name: 'lost (404): marked with the reason, submitted again once',
    given: [start, submitted('s0', 'a0')], event: { kind: 'lost', requestId: 'a0', reason: 'gone' },
    commands: [{ kind: 'forget' }, { kind: 'mark', status: 'lost', error: 'the provider no longer knows this request (404): gone' }, { kind: 'log', level: 'warn' }, { kind: 'submit', first: false }],
  },
  {
    name: 'lost again after the resubmission: the document fails',
    given: [start, submitted('s0', 'a0'), { kind: 'lost', requestId: 'a0', reason: 'gone' }, submitted('s0', 'a0b', false)],
    event: { kind: 'lost', requestId: 'a0b', reason: 'gone again' },
    commands: [{ kind: 'forget' }, { kind: 'mark' }, { kind: 'log', level: 'error' }],
    then: (s) => expect(s.failures.map((f) => f.code)).toEqual(['REQUEST_LOST']),
  },
  {
    name: 'reading answered 404: the request is lost, its search submitted again',
    given: [start, submitted('s0', 'a0'), { kind: 'finished', request: req('a0'), member: false }],
    event: { kind: 'read-failed', requestId: 'a0', error: err('API_NOT_FOUND', 'no such request') },
    commands: [{ kind: 'forget' }, { kind: 'mark', status: 'lost' }, { kind: 'log' }, { kind: 'submit', search: 's0', first: false }],
  },
  {
    name: 'reading failed for that request alone: its document fails, the others go on',
    given: [start, submitted('s0', 'a0')], event: { kind: 'read-failed', requestId: 'a0', error: err('API_SERVER') },
    commands: [{ kind: 'log', level: 'error', fields: { where: 'line 1 (cpf)', search_type: 'cpf', code: 'API_SERVER' } }],
    then: (s) => expect(searching(s)).toBe(true),
  },
  {
    name: 'reading refused (403 after 403): searching stops for everyone, said once',
    given: [start, submitted('s0', 'a0')], event: { kind: 'read-failed', requestId: 'a0', error: err('API_FORBIDDEN', 'no') },
    commands: [{ kind: 'stop', code: 'API_FORBIDDEN', message: 'no' }],
    then: (s) => {
      expect(s.stop?.reach).toBe('stage');
      expect(searching(s)).toBe(false);
      expect(reduce(s, { kind: 'refused', error: err('API_FORBIDDEN') }).commands).toEqual([]);
    },
  },
  {
    name: 'reading failed on our own side (the warehouse): no command, the stage ends with it once settled',
    given: [start, submitted('s0', 'a0')], event: { kind: 'read-failed', requestId: 'a0', error: err('WAREHOUSE_SQL') },
    commands: [],
    then: (s) => { expect(searching(s)).toBe(false); expect(s.unexpected).toBeDefined(); },
  },
  {
    name: 'a submission whose turn came after the stage stopped: not searched, no failure',
    given: [start], event: { kind: 'submit-failed', search: 's0', first: true, error: err('REQUEST_NOT_SUBMITTED') },
    commands: [],
    then: (s) => expect(countsOf(s, { polls: 0, probes: 0 })).toMatchObject({ not_searched: 1, failed: 0 }),
  },
  {
    name: 'a submission cut off by SIGTERM (the client closed): not searched, no failure',
    given: [start, { kind: 'abort' }], event: { kind: 'submit-failed', search: 's0', first: true, error: err('API_CLOSED') },
    commands: [],
    then: (s) => expect(countsOf(s, { polls: 0, probes: 0 })).toMatchObject({ not_searched: 1, failed: 0 }),
  },
  {
    name: 'a submission failing for its document alone: the document fails, it counts as searched',
    given: [start], event: { kind: 'submit-failed', search: 's1', first: true, error: err('API_VALIDATION', 'bad key') },
    commands: [{ kind: 'log', level: 'error', message: 'search failed: bad key' }],
    then: (s) => {
      expect(s.failures).toEqual([{ what: 'document', where: 'line 2 (cpf)', code: 'API_VALIDATION', reason: 'bad key' }]);
      expect(countsOf(s, { polls: 0, probes: 0 }).not_searched).toBe(0);
    },
  },
  {
    name: 'a submission answered 401: not searched, and the run stops',
    given: [start], event: { kind: 'submit-failed', search: 's0', first: true, error: err('API_UNAUTHORIZED') },
    commands: [{ kind: 'stop', code: 'API_UNAUTHORIZED' }],
    then: (s) => {
      expect(s.stop?.reach).toBe('run');
      expect(countsOf(s, { polls: 0, probes: 0 }).not_searched).toBe(1);
      expect(moreToCome(s)).toBe(false);
    },
  },
  {
    name: 'an interrupted submission the listing could not settle: its document fails tonight',
    given: [], event: { kind: 'held', search: 's1', error: err('REQUEST_LOOKUP_UNPROVEN', 'unsettled') },
    commands: [{ kind: 'log', level: 'error' }],
    then: (s) => expect(s.failures.map((f) => f.where)).toEqual(['line 2 (cpf)']),
  },
  {
    name: 'asking for a request on its own failed for good: its document fails',
    given: [start], event: { kind: 'failed', requestId: 'r2', error: err('API_VALIDATION') },
    commands: [{ kind: 'log', level: 'error', fields: { where: 'line 3 (cpf)', search_type: 'cpf', code: 'API_VALIDATION' } }],
  },
  {
    name: 'polling refused by the key: the run stops',
    given: [start], event: { kind: 'poll-failed', error: err('API_UNAUTHORIZED') },
    commands: [{ kind: 'stop' }],
    then: (s) => expect(s.stop?.reach).toBe('run'),
  },
  {
    name: 'polling failed otherwise: the stage ends with it once settled',
    given: [start], event: { kind: 'poll-failed', error: err('SOMETHING') },
    commands: [],
    then: (s) => expect(s.unexpected).toBeDefined(),
  },
  {
    name: 'SIGTERM: nothing new starts, and the sweep does not drain',
    given: [start], event: { kind: 'abort' },
    commands: [],
    then: (s) => { expect(searching(s)).toBe(false); expect(drainable(s)).toBe(false); },
  },
  {
    name: 'the wait budget spent on a failing upstream: the sweep does not drain',
    given: [start], event: { kind: 'budget-out', error: err('API_OUT_OF_TIME') },
    commands: [],
    then: (s) => { expect(searching(s)).toBe(true); expect(drainable(s)).toBe(false); },
  },
];

describe('the search stage\'s reducer', () => {
  for (const row of rows) {
    it(row.name, () => {
      const { state } = after(row.given);
      const { state: next, commands } = reduce(state, row.event);
      expect(kinds(commands)).toEqual(row.commands.map((c) => c.kind));
      commands.forEach((c, i) => expect(c).toMatchObject(row.commands[i]));
      row.then?.(next);
    });
  }
});

describe('the search stage\'s report, read off its state', () => {
  it('names the requests still running when the wait ended, and counts them', () => {
    const { state } = after([start, submitted('s0', 'a0'), submitted('s1', 'a1'), { kind: 'finished', request: req('a1'), member: false }, { kind: 'loaded', requestId: 'a1', pages: 1 }]);
    const report = reportOf(state, { polls: 4, probes: 1 }, 120);
    expect(report.counts).toMatchObject({ submitted: 2, resumed: 1, completed: 1, still_running: 2, polls: 4, probes: 1 });
    expect(report.failures!.map((f) => [f.code, f.where])).toEqual([
      ['REQUEST_STILL_RUNNING', 'line 3 (cpf), request r2'],
      ['REQUEST_STILL_RUNNING', 'line 1 (cpf), request a0'],
    ]);
    expect(report.finished).toBe(1);
  });

  it('a spent budget leaves each search neither loaded, failed nor running to the next run, once, by its latest request', () => {
    const { state } = after([
      start, submitted('s0', 'a0'), submitted('s1', 'a1'),
      { kind: 'finished', request: req('a0'), member: true }, { kind: 'cancelled', request: req('a1', 'cancelled') }, submitted('s1', 'a1b', false),
      { kind: 'finished', request: req('a1b'), member: true }, { kind: 'failed', requestId: 'r2', error: err('API_VALIDATION') },
      { kind: 'budget-out', error: err('API_OUT_OF_TIME', 'out of time') },
    ]);
    const report = reportOf(state, { polls: 0, probes: 0 }, 120);
    expect(report.failures!.map((f) => [f.code, f.where])).toEqual([
      ['API_VALIDATION', 'line 3 (cpf)'],
      ['API_OUT_OF_TIME', 'line 2 (cpf), request a1b'],
      ['API_OUT_OF_TIME', 'line 1 (cpf), request a0'],
    ]);
  });

  it('a 403 on every search, with nothing submitted or resumed, reaches the run', () => {
    let state = searchState({ searches: [planned(0)], resumed: [], adopted: 0 });
    state = reduce(state, { kind: 'start', submit: ['s0'] }).state;
    state = reduce(state, { kind: 'submit-failed', search: 's0', first: true, error: err('API_FORBIDDEN', 'not in the plan') }).state;
    expect(reportOf(state, { polls: 0, probes: 0 }, 120).ended).toEqual({ status: 'refused', code: 'API_FORBIDDEN', message: 'not in the plan', reach: 'run' });
    // with a resumed request there is still something to do: the refusal stays the stage's
    const { state: withResumed } = after([start, { kind: 'submit-failed', search: 's0', first: true, error: err('API_FORBIDDEN') }]);
    expect(reportOf(withResumed, { polls: 0, probes: 0 }, 120).ended?.reach).toBe('stage');
  });

  it('the sweep\'s figures join the counts: its pages among the pages', () => {
    const { state } = after([start]);
    const counts = countsOf(state, { polls: 0, probes: 0, sweep: { calls: 7, pages: 5, read: 400, skipped: 20, handedOver: 2, stopped: 0, sizeShown: 0 } });
    expect(counts).toMatchObject({ pages: 5, sweep_pages: 5, sweep_calls: 7, sweep_responses: 400, sweep_skipped: 20, handed_over: 2, sweep_stopped: 0 });
  });
});

describe('a lawsuit-level read the provider refuses', () => {
  const read: PlannedSearch = {
    search: { search_type: 'lawsuit_cnj', search_key: '0710802-55.2018.8.02.0001' }, searchHash: 'L0',
    where: 'lawsuit 0710802-55.2018.8.02.0001 (new)', line: null, basis: { 1: { step_id: 's9', steps_count: 9 } },
  };
  it('makes its lawsuit unavailable, no failure of the night: a warning, and the documents\' refusal stays a failure', () => {
    let state = searchState({ searches: [read, planned(0)], resumed: [], adopted: 0 });
    ({ state } = reduce(state, { kind: 'start', submit: ['L0', 's0'] }));
    const refused = reduce(state, { kind: 'submit-failed', search: 'L0', first: true, error: err('API_SECRET_LAWSUIT', 'secret') });
    expect(refused.commands).toEqual([{ kind: 'log', level: 'warn', fields: { where: read.where, search_type: 'lawsuit_cnj', code: 'API_SECRET_LAWSUIT' }, message: 'lawsuit unavailable: secret; asked again on a backoff in days' }]);
    expect(state.searches.get('L0')).toMatchObject({ unavailable: true, failed: true, error: { code: 'API_SECRET_LAWSUIT', message: 'secret' } });
    expect(state.failures).toEqual([]);
    const doc = reduce(state, { kind: 'submit-failed', search: 's0', first: true, error: err('API_SECRET_LAWSUIT', 'secret') });
    expect(kinds(doc.commands)).toEqual(['log']);
    expect(state.failures).toEqual([{ what: 'document', where: 'line 1 (cpf)', code: 'API_SECRET_LAWSUIT', reason: 'secret' }]);
    expect(countsOf(state, { polls: 0, probes: 0 }).failed).toBe(1);
  });
});
