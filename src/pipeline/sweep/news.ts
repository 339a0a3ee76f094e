import type { RequestObject } from '../../spec/types.js';
import { timeOf } from './cursor.js';
import type { SweepState } from './state.js';

// What the search stage tells the sweep (a request joined, finished, left; a submission under way; the end of the
// night) and what the shell learns on its own (a refusal, the sweep's row named), as changes of the sweep's state.
// Like the step's answers to its calls (step.ts), these are the state's only writers: the shell (sweep.ts) hands
// each piece of news here and performs what follows (a ledger write, a run of its loop); it never sets a field.

/** A request created tonight: whether it joins the sweep (it can while the sweep is on and reaches it). */
export function joined(s: SweepState, req: RequestObject, now: number): boolean {
  return s.on && s.members.admit(req.request_id, timeOf(req.created_at), now);
}

/** A request of an earlier run: whether it stays a member (the ledger says it joined this very sweep). */
export function rejoined(s: SweepState, row: { request_id: string; created_at: Date | null; strategy: string | null; sweep_id: string | null }, now: number): boolean {
  if (!s.on || !s.sweepId || row.strategy !== 'sweep' || row.sweep_id !== s.sweepId || !row.created_at) return false;
  s.members.resume(row.request_id, row.created_at.getTime(), now);
  return true;
}

/** A submission is about to be sent: until `settled`, nothing created after the requests known now is read. */
export function submitting(s: SweepState): number {
  return s.members.submitting();
}

export function settled(s: SweepState, token: number): void {
  s.members.settled(token);
}

/** A request was seen finished (completed): whether it is a member (then the sweep has news to read for). */
export function finished(s: SweepState, req: RequestObject): boolean {
  if (!s.members.has(req.request_id)) return false;
  s.members.finished(req.request_id, timeOf(req.updated_at));
  s.finished.set(req.request_id, req);
  return true;
}

/** A member will not finish (cancelled, forgotten by the provider): whether it was one, and has left. */
export function left(s: SweepState, requestId: string): boolean {
  return s.members.drop(requestId) !== undefined;
}

/** The end of the night: what is left is read, however little. */
export function draining(s: SweepState): void {
  s.draining = true;
}

/** The sweep's row in response_sweeps, named once (by the first member, or the run resumed). */
export function named(s: SweepState, sweepId: string): string {
  s.sweepId ??= sweepId;
  return s.sweepId;
}

/** The provider refused the listing or the key: the sweep ends for the night, its ledger left for the next run. */
export function refused(s: SweepState): void {
  s.on = false;
}
