// When is a request's reading done without listing it? When it has finished (the requests listing the night polls
// already shows its status: no call of its own) and the warehouse holds as many of its responses as the provider
// has. The provider's count is one call: `GET /responses` asked for the page just past what we hold, one item a
// page, answers with `all_count` and, if there is more than we hold, an item. Both must agree: `all_count` equal to
// what we hold and that page empty. A listing that answers nothing, or a count that lies low, never proves a request
// whose responses were delivered (we hold more than it says); one whose bounds are not honoured shows on the item.
//
// One call for a whole batch of requests: the responses of every request of the key created between the first
// one's creation and the last one's completion (the listing's created_at bounds, the sweep's own names), against
// what the warehouse holds in that range. A finished request's responses were all created within its life (the
// sweep's rule, sweep/members.ts), so the batch is proved when the two counts meet. When the provider counts more,
// its deliveries may still be on their way (the provider pushes as it makes them, and retries): the count is a
// target the warehouse is watched towards, without a call, while deliveries keep coming (ProofIo.settle), then
// counted again. When the counts still do not meet, the batch is halved and each half counted again, down to
// single requests, counted by request_id: a few deliveries dropped among thousands cost a few calls each. A batch short of as many responses as it has requests or more (the intake
// was down, the provider gave up on many) is not halved: listing it costs less, and it is handed back. A batch in
// which nothing was delivered is handed back too: proving a request empty is the listing's own job (the sweep
// samples such requests, sweep/empty-checks.ts).
//
// The algorithm is here, its calls and counts behind ProofIo (counts.ts), so that it is tested on a fake.

/** A finished request, on the provider's clock (epoch ms). */
export interface Finished { requestId: string; createdAt: number; doneAt: number }

/** What the provider counts, or why its answer cannot be trusted (a bound not honoured, a failed call). */
export type Count = { count: number; more: boolean } | { untrusted: string };

export interface ProofIo {
  /** Responses the warehouse holds created from `from` to `until` (inclusive, ms). */
  heldIn(from: number, until: number): Promise<number>;
  /** Responses the warehouse holds of each request. */
  heldOf(requestIds: readonly string[]): Promise<Map<string, number>>;
  /** The provider's count of the key's responses created in the range, and whether there is one past `held`. One call. */
  countIn(from: number, until: number, held: number): Promise<Count>;
  /** The provider's count of one request's responses, and whether there is one past `held`. One call. */
  countOf(requestId: string, held: number): Promise<Count>;
  /**
   * Waits for the warehouse to hold `count` responses in the range, loading what is delivered meanwhile; resolves
   * true once it does, false once deliveries stopped coming short of it.
   */
  settle(from: number, until: number, count: number): Promise<boolean>;
}

interface Proof {
  /** Requests proved complete, with the responses each has. */
  proven: Map<string, number>;
  /** Requests not proved: to list, or to wait for when `expected` says how many responses the provider has. */
  unproven: string[];
  /** Of the unproven single requests, the responses the provider counted (more than we hold). */
  expected: Map<string, number>;
  /** Calls made. */
  calls: number;
  /** Why counting by range was given up for the night (its bounds were not honoured), if it was. */
  rangesBroken?: string;
}

/** Proves what it can of `requests`; `ranges`: whether the listing's created_at bounds may be counted on. */
export async function prove(requests: readonly Finished[], io: ProofIo, opts: { ranges: boolean }): Promise<Proof> {
  const p: Proof = { proven: new Map(), unproven: [], expected: new Map(), calls: 0 };
  const sorted = [...requests].sort((a, b) => a.createdAt - b.createdAt || a.doneAt - b.doneAt);
  await group(sorted, io, p, { ranges: opts.ranges, top: true });
  return p;
}

async function group(rs: readonly Finished[], io: ProofIo, p: Proof, at: { ranges: boolean; top: boolean }): Promise<void> {
  if (rs.length === 0) return;
  if (rs.length === 1 || !at.ranges || p.rangesBroken !== undefined) {
    for (const r of rs) await single(r, io, p);
    return;
  }
  const from = Math.min(...rs.map((r) => r.createdAt));
  const until = Math.max(...rs.map((r) => r.doneAt));
  let held = await io.heldIn(from, until);
  if (held === 0 && !at.top) return void p.unproven.push(...rs.map((r) => r.requestId));
  let c = await io.countIn(from, until, held);
  p.calls++;
  // Deliveries still on their way: the whole batch's count is awaited once, then asked again.
  if (at.top && !('untrusted' in c) && c.count > held && await io.settle(from, until, c.count)) {
    held = await io.heldIn(from, until);
    c = await io.countIn(from, until, held);
    p.calls++;
  }
  if ('untrusted' in c) {
    p.rangesBroken = c.untrusted;
    return void p.unproven.push(...rs.map((r) => r.requestId));
  }
  if (held > 0 && c.count === held && !c.more) {
    for (const [id, n] of await io.heldOf(rs.map((r) => r.requestId))) p.proven.set(id, n);
    for (const r of rs) if (!p.proven.has(r.requestId)) p.proven.set(r.requestId, 0);
    return;
  }
  if (held === 0 || Math.max(1, c.count - held) >= rs.length) return void p.unproven.push(...rs.map((r) => r.requestId));
  const half = Math.ceil(rs.length / 2);
  await group(rs.slice(0, half), io, p, { ...at, top: false });
  await group(rs.slice(half), io, p, { ...at, top: false });
}

async function single(r: Finished, io: ProofIo, p: Proof): Promise<void> {
  const held = (await io.heldOf([r.requestId])).get(r.requestId) ?? 0;
  const c = await io.countOf(r.requestId, held);
  p.calls++;
  if (!('untrusted' in c) && c.count === held && !c.more) p.proven.set(r.requestId, held);
  else {
    p.unproven.push(r.requestId);
    if (!('untrusted' in c) && c.count > held) p.expected.set(r.requestId, c.count);
  }
}
