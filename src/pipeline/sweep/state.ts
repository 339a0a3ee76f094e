import type { RequestObject } from '../../spec/types.js';
import type { MemberRead } from './cost.js';
import { coveredBefore, type SweepCursor } from './cursor.js';
import { SweepMembers } from './members.js';

// Everything the sweep knows, as data: where its cursor stands (cursor.ts), whom it reads for (members.ts), how
// far its pages have proved the listing honest, and its figures. The pure step (step.ts) reads and updates it;
// the shell (sweep.ts) performs the calls and commits the step asks for.

export interface SweepFigures {
  calls: number; pages: number; read: number; skipped: number; handedOver: number;
  /** 1 when the sweep stopped for the night (fallback or switch). */
  stopped: number;
  /** The largest page size a page showed the upstream serves (cursor.ts, pageSizeShown); 0: none showed one. */
  sizeShown: number;
}

/** The pages read since page 1 at one anchor and page size: at the range's end, as many as the listing counts. */
interface PageRun { from: number; size: number; ids: Set<string>; checkable: boolean }

export interface SweepState {
  /** Its row in response_sweeps: undefined until the first member joins (or the run resumes one). */
  sweepId?: string;
  cursor: SweepCursor;
  members: SweepMembers;
  /** Members seen finished, as the stage saw them: handed back to it when they leave the sweep unread. */
  finished: Map<string, RequestObject>;
  /** False once the sweep has ended for the night (fallback, switch, a refusal): its members are read per request. */
  on: boolean;
  /** The stage's wait budget was spent on a failing upstream: reading stops, the cursor waits in the ledger. */
  spent: boolean;
  /** The end of the night: read what is left, however little. */
  draining: boolean;
  /**
   * Every response created before this instant (provider clock) is read, as a range read to its end has shown:
   * members finished before it are complete. A member is never completed on the cursor alone, mid-range: a
   * listing that does not follow the order asked for may yet show that it skipped what the cursor passed.
   */
  verifiedTo: number;
  run?: PageRun;
  /** A page has shown one of our responses: the listing is not one that answers nothing. */
  verified: boolean;
  /** Members declared complete without a single response while the listing was not yet verified. */
  emptyMembers: number;
  /** Pages in a row that brought nothing new (a listing that does not follow its bounds or pages). */
  idlePages: number;
  /** What the last range read left unread (its all_count less what was read), and the range's end. */
  remainder: number;
  lastUntil: number;
  /** What was read of each member completed so far (what a member's answer weighs, and the cost comparison). */
  completed: MemberRead[];
  figures: SweepFigures;
}

/** A sweep a killed run left active: its id, its cursor, and how many of our responses it had read. */
export interface ResumedSweep { sweepId: string; cursor: SweepCursor; ours: number }

export function sweepState(resumed?: ResumedSweep): SweepState {
  return {
    sweepId: resumed?.sweepId,
    cursor: resumed?.cursor ?? { page: 1, seen: [] },
    members: new SweepMembers(resumed ? highOf(resumed.cursor) : undefined),
    finished: new Map(),
    on: true,
    spent: false,
    draining: false,
    verifiedTo: resumed ? coveredBefore(resumed.cursor) : Number.NEGATIVE_INFINITY,
    verified: (resumed?.ours ?? 0) > 0,
    emptyMembers: 0,
    idlePages: 0,
    remainder: 0,
    lastUntil: Number.NEGATIVE_INFINITY,
    completed: [],
    figures: { calls: 0, pages: 0, read: 0, skipped: 0, handedOver: 0, stopped: 0, sizeShown: 0 },
  };
}

/** Who may still join: a request created after every response the sweep has read, and after its bound. */
export function highOf(c: SweepCursor): number | undefined {
  const known = [c.high, c.from, c.last].filter((t): t is number => t !== undefined);
  return known.length === 0 ? undefined : Math.max(...known);
}
