// How a stage hands the stages after it what they need: a typed value made with the stages it joins
// (pipeline/commands.ts), set by the one stage that owns it, read by the others. Nothing is written into another
// stage's state: the documents stage hands its plan to the search and trackings stages, the trackings stage hands
// what it chose tonight to the search and lawsuits stages.

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
