import type { Tracking } from '../../spec/types.js';
import type { LawsuitTrackings } from '../lawsuits/plan.js';
import type { RunPlan } from '../plan.js';

// What the trackings stage hands the stages after it on a trackings night, as one typed value rather than fields
// of the shared night object: the search stage buys only the searches it chose, the lawsuits stage leaves to a
// lawsuit's tracking what its runs will carry (and reads what a tracking may have missed), and the second pass
// (lawsuit-trackings) starts from the key's trackings as the reconciliation left them.

export interface TrackingsTonight {
  /** The searches of the list the search stage may buy tonight, by the search's identity (PlannedSearch.searchHash). */
  searchOnly: ReadonlySet<string>;
  /**
   * The documents stage's plan narrowed to them and to the requests to resume: what the search stage buys and
   * reads, and what a dry run says it would.
   */
  searches: RunPlan;
  /** The lawsuits' own trackings, for the lawsuits stage. */
  lawsuits: LawsuitTrackings;
  /** The key's trackings after tonight's reconciliation. */
  records: readonly Tracking[];
}
