// Whether the pages of a listing read so far came newest first. The provider documents no default order (its
// examples list oldest first) and an upstream may ignore the sort asked for: a walk may stop at the first item
// older than what it looks for only once the items themselves have shown they descend, never on an order assumed.

export class NewestFirstWatch {
  private last: number | undefined;
  private nonIncreasing = true;
  private decreased = false;

  /** Takes the creation times (epoch ms) of the next items read, in the listing's order. */
  saw(times: Iterable<number>): void {
    for (const t of times) {
      if (Number.isNaN(t)) continue;
      if (this.last !== undefined) {
        if (t > this.last) this.nonIncreasing = false;
        else if (t < this.last) this.decreased = true;
      }
      this.last = t;
    }
  }

  /** Never increasing so far, and decreasing at least once: newest first, as shown. */
  shown(): boolean {
    return this.nonIncreasing && this.decreased;
  }
}
