// The requests a sweep reads (its members), and the two rules that make reading across requests exact, on the
// provider's clock only:
//
// 1. Who may join. The sweep skips every response whose request is not a member (another client's on the
//    key, or one of ours read per request). A request therefore joins only if it was created after the newest
//    response the sweep has read (`high`): none of its responses can have been skipped. Otherwise it is read
//    per request.
// 2. How far the sweep may read. A response of a request still running may become visible after a newer one
//    (the provider commits court by court), so the sweep reads only up to just before the creation of the
//    oldest member still running, and of the oldest request whose creation is still unanswered (its floor: a
//    request created after any answer we had before sending it). Every member the range reaches has finished,
//    and a finished request's responses are all there (spec: "a request with request_status other than
//    completed is still processing").
//
// A member is complete when its completion was seen and the sweep has read past its completion time (its
// updated_at once completed: every one of its responses was created by then), or when a page that reached
// the newest response was asked for after its completion was seen.

export interface Member {
  id: string;
  /** The provider's created_at of the request (epoch ms). */
  createdAt: number;
  /** When this run registered it (our clock), to notice one that holds the sweep back for long. */
  since: number;
  /** Order in which its completion was seen (undefined: still running). */
  doneSeq?: number;
  /** Its completion instant on the provider's clock (updated_at once completed), when known. */
  doneAt?: number;
  /** Responses of it the sweep loaded. */
  items: number;
  /** The characters of their text. */
  bytes: number;
}

/** The range the sweep may read now: up to `until` (inclusive; undefined: to the newest), or nothing. */
type Reach = { open: true; until?: number } | { open: false };

export class SweepMembers {
  private readonly members = new Map<string, Member>();
  private readonly floors = new Map<number, number | undefined>();
  private seq = 0;
  private tokens = 0;
  /** Newest created_at of a request this run registered (member or not). */
  private newestRequest: number | undefined;

  /** @param high Newest created_at the sweep has read (a resumed sweep's, or undefined). */
  constructor(public high: number | undefined = undefined) {}

  get size(): number { return this.members.size; }
  has(id: string): boolean { return this.members.has(id); }
  get(id: string): Member | undefined { return this.members.get(id); }
  all(): IterableIterator<Member> { return this.members.values(); }

  /** A request was created (its id and created_at known): whether it joins the sweep. */
  admit(id: string, createdAt: number, now: number): boolean {
    if (!Number.isFinite(createdAt)) return false;
    this.newestRequest = Math.max(this.newestRequest ?? createdAt, createdAt);
    if (this.high !== undefined && createdAt <= this.high) return false;
    this.members.set(id, { id, createdAt, since: now, items: 0, bytes: 0 });
    return true;
  }

  /** A member from an earlier run (the ledger says it joined then). */
  resume(id: string, createdAt: number, now: number): void {
    this.members.set(id, { id, createdAt, since: now, items: 0, bytes: 0 });
    this.newestRequest = Math.max(this.newestRequest ?? createdAt, createdAt);
  }

  /** A submission is about to be sent: returns its token. Its request is created after every request registered so far. */
  submitting(): number {
    const token = ++this.tokens;
    this.floors.set(token, this.newestRequest);
    return token;
  }

  /** The submission of `token` was answered (or failed): its floor no longer holds the sweep. */
  settled(token: number): void {
    this.floors.delete(token);
  }

  /** A member's completion was seen. `doneAt`: its updated_at (NaN or undefined when not given). */
  finished(id: string, doneAt: number | undefined): void {
    const m = this.members.get(id);
    if (!m || m.doneSeq !== undefined) return;
    m.doneSeq = ++this.seq;
    if (doneAt !== undefined && Number.isFinite(doneAt) && doneAt >= m.createdAt) m.doneAt = doneAt;
  }

  /** Leaves the sweep (cancelled, lost, handed to per-request reading). */
  drop(id: string): Member | undefined {
    const m = this.members.get(id);
    this.members.delete(id);
    return m;
  }

  /** Marks the moment a query is sent: completions seen before it have a lower order. */
  issue(): number {
    return ++this.seq;
  }

  /** The range the sweep may read now (rule 2). */
  reach(): Reach {
    let until = Number.POSITIVE_INFINITY;
    for (const m of this.members.values()) if (m.doneSeq === undefined) until = Math.min(until, m.createdAt - 1);
    for (const floor of this.floors.values()) {
      if (floor === undefined) return { open: false };
      until = Math.min(until, floor - 1);
    }
    return until === Number.POSITIVE_INFINITY ? { open: true } : { open: true, until };
  }

  /** The members still running, oldest first. */
  running(): Member[] {
    return [...this.members.values()].filter((m) => m.doneSeq === undefined).sort((a, b) => a.createdAt - b.createdAt);
  }

  /** Newest created_at of a request registered so far (member or not). */
  newest(): number | undefined {
    return this.newestRequest;
  }

  /** Earliest created_at among the members (where a new sweep starts). */
  earliest(): number | undefined {
    let e: number | undefined;
    for (const m of this.members.values()) if (e === undefined || m.createdAt < e) e = m.createdAt;
    return e;
  }

  /**
   * Members complete now: finished, and either read past their completion (everything before `coveredBefore`
   * is read) or finished before a query (`endSeq`) that read to the newest response.
   */
  complete(coveredBefore: number, endSeq?: number): Member[] {
    const out: Member[] = [];
    for (const m of this.members.values()) {
      if (m.doneSeq === undefined) continue;
      if ((m.doneAt !== undefined && m.doneAt < coveredBefore) || (endSeq !== undefined && m.doneSeq < endSeq)) out.push(m);
    }
    return out;
  }

  /** Finished members created at or before `t` and after `after` (how many answers a range holds). */
  finishedBetween(after: number, t: number): number {
    let n = 0;
    for (const m of this.members.values()) if (m.doneSeq !== undefined && m.createdAt > after && m.createdAt <= t) n++;
    return n;
  }
}
