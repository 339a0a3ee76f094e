import type { LawsuitDetail } from '../../shared/options/values.js';
import type { ReadBasis } from '../../warehouse/ledger.js';

// Which lawsuits tonight reads at the lawsuit level, and why: pure, from what the warehouse knows of each lawsuit
// (v_lawsuit_levels, read by levels.ts) and the depth the user chose. Headers and trackings tell what moved; only
// that is read, so a night's cost follows what changed: a whole lawsuit whose header did not move is never bought
// again, a lawsuit whose read was refused or found nothing is asked for again on a backoff in days, and a read
// bought for the header a lawsuit has now is not bought again until the header moves. A lawsuit_cnj search answers
// every instance of a number, so one read serves all the instances of a number that need one.

export type Level = 'whole' | 'header' | 'stale' | 'unavailable';

/** What the plan needs to know of one lawsuit instance. */
export interface LawsuitFacts {
  code: string;
  instance: number;
  level: Level;
  status: string | null;
  phase: string | null;
  /** How far its newest header says it has gone: the read's basis. */
  lastStepId: string | null;
  stepsCount: number | null;
  /** First loaded by tonight's run. */
  newTonight: boolean;
  /** The last read that found it was bought for the header it has now (it lags its header). */
  readForHeader: boolean;
  /** An unavailable lawsuit: when its next read is due (its backoff). */
  nextReadAt: Date | null;
}

/**
 * Why a lawsuit is read tonight: `new` (first found tonight, known by its header), `incomplete` (known before,
 * never read whole), `moved` (a newer header moved past what is held), `retry` (unavailable, its backoff due),
 * `tracking` (a trackings night: its own tracking may have missed runs — paused elsewhere, errored, silent).
 */
const READ_REASONS = ['new', 'incomplete', 'moved', 'retry', 'tracking'] as const;
type ReadReason = (typeof READ_REASONS)[number];

/**
 * Why it is left: `whole` (held as its newest header says), `depth` (LAWSUIT_DETAIL=header), `ended` (`active`:
 * archived or finished), `backoff` (unavailable, not due yet), `lags` (read for its header already; it lags),
 * `tracked` (a trackings night: its number's own tracking runs, and its runs carry the lawsuit whole: a header that
 * moved before the run was read is no reason to buy it).
 */
const LEAVE_REASONS = ['whole', 'depth', 'ended', 'backoff', 'lags', 'tracked'] as const;
type LeaveReason = (typeof LEAVE_REASONS)[number];

export type Decision = { read: true; why: ReadReason } | { read: false; why: LeaveReason };

/** An archived or finished lawsuit: `active` leaves it as it stands. */
export function ended(f: Pick<LawsuitFacts, 'status' | 'phase'>): boolean {
  return f.status === 'Finalizado' || f.phase === 'Arquivado';
}

/**
 * What a trackings night knows of the lawsuits' own trackings (pipeline/tracking/), by number as the warehouse holds
 * it: those whose tracking runs tonight (its runs carry the lawsuit's movements, whole), and those whose tracking may
 * have missed runs (read tonight, whole or not).
 */
export interface LawsuitTrackings { running: ReadonlySet<string>; missed: ReadonlySet<string> }

/** Whether one lawsuit is read tonight, and why; `trackings` on a trackings night. */
function decide(f: LawsuitFacts, detail: LawsuitDetail, now: Date, trackings?: LawsuitTrackings): Decision {
  const missed = trackings?.missed.has(f.code) ?? false;
  if (f.level === 'whole' && !missed) return { read: false, why: 'whole' };
  if (detail === 'header') return { read: false, why: f.level === 'whole' ? 'whole' : 'depth' };
  if (detail === 'active' && ended(f)) return { read: false, why: f.level === 'whole' ? 'whole' : 'ended' };
  if (f.level === 'unavailable') {
    return f.nextReadAt !== null && f.nextReadAt.getTime() > now.getTime() ? { read: false, why: 'backoff' } : { read: true, why: 'retry' };
  }
  if (missed) return { read: true, why: 'tracking' };
  // Read the runs first, then plan: what a running tracking's run has not carried yet, its next run will.
  if (trackings?.running.has(f.code)) return { read: false, why: 'tracked' };
  if (f.level === 'stale') return f.readForHeader ? { read: false, why: 'lags' } : { read: true, why: 'moved' };
  return { read: true, why: f.newTonight ? 'new' : 'incomplete' };
}

/** One lawsuit_cnj search: every instance of the number that needs reading, the first reason met, and the basis. */
export interface LawsuitRead {
  code: string;
  instances: number[];
  why: ReadReason;
  basis: ReadBasis;
}

export interface LawsuitReadPlan {
  reads: LawsuitRead[];
  /** Lawsuit instances by what the plan decided for them. */
  counts: Record<ReadReason | LeaveReason, number>;
}

/** The night's lawsuit-level reads: one per number, in the order of the facts (the caller sorts them). */
export function planLawsuitReads(facts: readonly LawsuitFacts[], detail: LawsuitDetail, now: Date, trackings?: LawsuitTrackings): LawsuitReadPlan {
  const counts = Object.fromEntries([...READ_REASONS, ...LEAVE_REASONS].map((r) => [r, 0])) as LawsuitReadPlan['counts'];
  const byCode = new Map<string, LawsuitRead>();
  for (const f of facts) {
    const d = decide(f, detail, now, trackings);
    counts[d.why]++;
    if (!d.read) continue;
    const read = byCode.get(f.code) ?? { code: f.code, instances: [], why: d.why, basis: {} };
    read.instances.push(f.instance);
    read.basis[String(f.instance)] = { step_id: f.lastStepId, steps_count: f.stepsCount };
    byCode.set(f.code, read);
  }
  return { reads: [...byCode.values()], counts };
}
