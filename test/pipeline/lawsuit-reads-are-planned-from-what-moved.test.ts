import { describe, expect, it } from 'vitest';
import { planLawsuitReads, type Decision, type LawsuitFacts, type LawsuitTrackings, type Level } from '../../src/pipeline/lawsuits/plan.js';
import type { LawsuitDetail } from '../../src/shared/options/values.js';

// The plan of lawsuit-level reads (docs/two-levels.md), as a table: for each combination of what is known of a
// lawsuit (new tonight or known before, whole, its header moved, unavailable with its backoff due or not, a read
// that lags its header), the depth the user chose, and whether it is archived or finished: read or not, and why.

const NOW = new Date('2026-11-28T03:00:00Z');
const DAY = 86_400_000;

/** What the night's plan decides for one lawsuit alone: whether it is read, and the one reason it counts. */
function decide(f: LawsuitFacts, detail: LawsuitDetail, now: Date, trackings?: LawsuitTrackings): Decision {
  const plan = planLawsuitReads([f], detail, now, trackings);
  const counted = Object.entries(plan.counts).filter(([, n]) => n > 0).map(([why]) => why);
  expect(counted).toHaveLength(1);
  if (plan.reads.length > 0) expect(plan.reads[0].why).toBe(counted[0]);
  return { read: plan.reads.length > 0, why: counted[0] } as Decision;
}

function facts(level: Level, o: Partial<LawsuitFacts> = {}): LawsuitFacts {
  return {
    code: '0710802-55.2018.8.02.0001', instance: 1, level, status: null, phase: null, lastStepId: 's9', stepsCount: 9,
    newTonight: false, readForHeader: false, nextReadAt: null, ...o,
  };
}
const archived = { status: 'Ativo', phase: 'Arquivado' };
const finished = { status: 'Finalizado', phase: 'Sentença' };
const due = { nextReadAt: new Date(NOW.getTime() - DAY) };
const notDue = { nextReadAt: new Date(NOW.getTime() + DAY) };

const CASES: Array<[string, LawsuitFacts, LawsuitDetail, Decision]> = [
  // new tonight, known by its header only
  ['new header', facts('header', { newTonight: true }), 'whole', { read: true, why: 'new' }],
  ['new header, active', facts('header', { newTonight: true }), 'active', { read: true, why: 'new' }],
  ['new header, headers only', facts('header', { newTonight: true }), 'header', { read: false, why: 'depth' }],
  // known before, never read whole (a night killed before its reads, a depth raised since)
  ['known header', facts('header'), 'whole', { read: true, why: 'incomplete' }],
  ['known header, headers only', facts('header'), 'header', { read: false, why: 'depth' }],
  // whole, its header did not move: never bought again, whatever the depth or its state
  ['whole', facts('whole'), 'whole', { read: false, why: 'whole' }],
  ['whole, active', facts('whole', archived), 'active', { read: false, why: 'whole' }],
  ['whole, headers only', facts('whole'), 'header', { read: false, why: 'whole' }],
  // its header moved past what is held
  ['moved', facts('stale', { status: 'Ativo', phase: 'Inicial' }), 'whole', { read: true, why: 'moved' }],
  ['moved, active', facts('stale', { status: 'Ativo', phase: 'Inicial' }), 'active', { read: true, why: 'moved' }],
  ['moved, archived, whole', facts('stale', archived), 'whole', { read: true, why: 'moved' }],
  ['moved, archived, active', facts('stale', archived), 'active', { read: false, why: 'ended' }],
  ['moved, finished, active', facts('stale', finished), 'active', { read: false, why: 'ended' }],
  ['moved, headers only', facts('stale'), 'header', { read: false, why: 'depth' }],
  // read for the header it has now, and the read lags it
  ['lags', facts('stale', { readForHeader: true }), 'whole', { read: false, why: 'lags' }],
  // unavailable: refused or not found, retried on a backoff in days
  ['unavailable, due', facts('unavailable', due), 'whole', { read: true, why: 'retry' }],
  ['unavailable, not due', facts('unavailable', notDue), 'whole', { read: false, why: 'backoff' }],
  ['unavailable, due now', facts('unavailable', { nextReadAt: NOW }), 'whole', { read: true, why: 'retry' }],
  ['unavailable, due, active', facts('unavailable', due), 'active', { read: true, why: 'retry' }],
  ['unavailable, due, archived, active', facts('unavailable', { ...due, ...finished }), 'active', { read: false, why: 'ended' }],
  ['unavailable, due, headers only', facts('unavailable', due), 'header', { read: false, why: 'depth' }],
];

describe('a lawsuit-level read is planned only where something moved', () => {
  it.each(CASES)('%s (depth %s)', (_name, f, detail, want) => {
    expect(decide(f, detail, NOW)).toEqual(want);
  });

  it('reads each number once for every instance that needs it, with each instance\'s header as its basis, and counts every lawsuit', () => {
    const plan = planLawsuitReads([
      facts('header', { instance: 1, newTonight: true, lastStepId: 'a', stepsCount: 3 }),
      facts('stale', { instance: 2, lastStepId: 'b', stepsCount: 7 }),
      facts('whole', { code: '5059111-78.2025.4.02.5101' }),
      facts('unavailable', { code: '5059111-78.2025.4.02.5101', instance: 2, ...notDue }),
      facts('header', { code: '0001234-08.2023.8.26.0100', lastStepId: null, stepsCount: null }),
    ], 'whole', NOW);
    expect(plan.reads).toEqual([
      { code: '0710802-55.2018.8.02.0001', instances: [1, 2], why: 'new', basis: { 1: { step_id: 'a', steps_count: 3 }, 2: { step_id: 'b', steps_count: 7 } } },
      { code: '0001234-08.2023.8.26.0100', instances: [1], why: 'incomplete', basis: { 1: { step_id: null, steps_count: null } } },
    ]);
    expect(plan.counts).toEqual({ new: 1, incomplete: 1, moved: 1, retry: 0, tracking: 0, whole: 1, depth: 0, ended: 0, backoff: 1, lags: 0, tracked: 0 });
  });
});

// A trackings night (docs/trackings.md): a lawsuit whose own tracking runs is not bought for a header that moved
// before its tracking's run was read (the run carries it whole); one whose tracking may have missed runs (paused
// elsewhere, errored, silent) is read, whole or not; neither changes what the depth or a backoff decides.
const CODE = '0710802-55.2018.8.02.0001';
const running: LawsuitTrackings = { running: new Set([CODE]), missed: new Set() };
const missed: LawsuitTrackings = { running: new Set(), missed: new Set([CODE]) };
const other: LawsuitTrackings = { running: new Set(['5059111-78.2025.4.02.5101']), missed: new Set(['0001234-08.2023.8.26.0100']) };

const TRACKED: Array<[string, LawsuitFacts, LawsuitDetail, LawsuitTrackings, Decision]> = [
  ['moved, its tracking runs', facts('stale'), 'whole', running, { read: false, why: 'tracked' }],
  ['moved, lagging, its tracking runs', facts('stale', { readForHeader: true }), 'whole', running, { read: false, why: 'tracked' }],
  ['a new instance by its header, its number tracked', facts('header', { newTonight: true }), 'whole', running, { read: false, why: 'tracked' }],
  ['whole, its tracking runs', facts('whole'), 'whole', running, { read: false, why: 'whole' }],
  ['moved, another number tracked', facts('stale'), 'whole', other, { read: true, why: 'moved' }],
  ['new, another number tracked', facts('header', { newTonight: true }), 'whole', other, { read: true, why: 'new' }],
  ['whole, its tracking may have missed runs', facts('whole'), 'whole', missed, { read: true, why: 'tracking' }],
  ['moved, its tracking may have missed runs', facts('stale', { readForHeader: true }), 'whole', missed, { read: true, why: 'tracking' }],
  ['whole and archived, its tracking may have missed runs, active', facts('whole', archived), 'active', missed, { read: false, why: 'whole' }],
  ['moved and archived, its tracking runs, active', facts('stale', archived), 'active', running, { read: false, why: 'ended' }],
  ['whole, its tracking may have missed runs, headers only', facts('whole'), 'header', missed, { read: false, why: 'whole' }],
  ['unavailable not due, its tracking may have missed runs', facts('unavailable', notDue), 'whole', missed, { read: false, why: 'backoff' }],
  ['unavailable due, its number tracked', facts('unavailable', due), 'whole', running, { read: true, why: 'retry' }],
];

describe('on a trackings night, a lawsuit\'s own tracking carries its movements', () => {
  it.each(TRACKED)('%s (depth %s)', (_name, f, detail, trackings, want) => {
    expect(decide(f, detail, NOW, trackings)).toEqual(want);
  });

  it('reads a whole lawsuit whose tracking may have missed runs with its held header as the basis, and counts the tracked apart', () => {
    const plan = planLawsuitReads([
      facts('whole', { lastStepId: 'w', stepsCount: 4 }),
      facts('stale', { code: '5059111-78.2025.4.02.5101' }),
    ], 'whole', NOW, { running: new Set(['5059111-78.2025.4.02.5101']), missed: new Set([CODE]) });
    expect(plan.reads).toEqual([{ code: CODE, instances: [1], why: 'tracking', basis: { 1: { step_id: 'w', steps_count: 4 } } }]);
    expect(plan.counts).toMatchObject({ tracking: 1, tracked: 1, moved: 0, whole: 0 });
  });
});
