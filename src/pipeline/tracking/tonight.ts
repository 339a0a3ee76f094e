import type { Tracking } from '../../spec/types.js';
import type { LawsuitTrackings } from '../lawsuits/plan.js';

// What the trackings stage hands the stages after it on a trackings night, as one typed value rather than fields
// of the shared night object: the search stage buys only the searches it chose, the lawsuits stage leaves to a
// lawsuit's tracking what its runs will carry (and reads what a tracking may have missed), and the second pass
// (lawsuit-trackings) starts from the key's trackings as the reconciliation left them.

export interface TrackingsTonight {
  /** The documents the search stage may search tonight, by identity (identity.ts). */
  searchOnly: ReadonlySet<string>;
  /** The lawsuits' own trackings, for the lawsuits stage. */
  lawsuits: LawsuitTrackings;
  /** The key's trackings after tonight's reconciliation. */
  records: readonly Tracking[];
}

/** A value a stage hands the stages after it: set when it ends its work, read by the stages made with the same hand-off. */
export class HandOff<T> {
  private value: T | undefined;

  set(value: T): void {
    this.value = value;
  }

  get(): T | undefined {
    return this.value;
  }
}
