// The proof that a request's deliveries are all in (src/pipeline/delivered/proof.ts), on a fake provider and
// warehouse: it never calls a request complete while a response of it is missing, proves a night whose deliveries
// all came in one call, awaits deliveries on their way, halves a batch down to the requests short of responses,
// and hands back without halving a batch short of many.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prove, type Count, type Finished, type ProofIo } from '../../src/pipeline/delivered/proof.js';

interface Response { id: string; request: string; at: number }

/** A provider holding `responses`, a warehouse holding `held` of them; `late` arrive when the proof settles. */
function world(responses: readonly Response[], held: ReadonlySet<string>, opts: { late?: ReadonlySet<string>; broken?: boolean } = {}) {
  const inWarehouse = new Set(held);
  const calls: string[] = [];
  const io: ProofIo = {
    heldIn: async (from, until) => responses.filter((r) => inWarehouse.has(r.id) && r.at >= from && r.at <= until).length,
    heldOf: async (ids) => new Map(ids.map((id) => [id, responses.filter((r) => r.request === id && inWarehouse.has(r.id)).length])),
    countIn: async (from, until, past): Promise<Count> => {
      calls.push(`range ${from}-${until}`);
      if (opts.broken) return { untrusted: 'a response outside the bounds' };
      const n = responses.filter((r) => r.at >= from && r.at <= until).length;
      return { count: n, more: n > past };
    },
    countOf: async (id, past): Promise<Count> => {
      calls.push(`request ${id}`);
      const n = responses.filter((r) => r.request === id).length;
      return { count: n, more: n > past };
    },
    settle: async () => {
      for (const id of opts.late ?? []) inWarehouse.add(id);
      return (opts.late?.size ?? 0) > 0;
    },
  };
  return { io, calls, inWarehouse };
}

/** `n` requests, one after the other, request i with `sizes[i]` responses made during its life. */
function night(sizes: readonly number[]): { requests: Finished[]; responses: Response[] } {
  const requests: Finished[] = [];
  const responses: Response[] = [];
  let t = 1_000;
  sizes.forEach((size, i) => {
    const createdAt = t;
    for (let k = 0; k < size; k++) responses.push({ id: `r${i}-${k}`, request: `q${i}`, at: ++t });
    requests.push({ requestId: `q${i}`, createdAt, doneAt: ++t });
    t += 2;
  });
  return { requests, responses };
}

const all = (rs: readonly Response[]): Set<string> => new Set(rs.map((r) => r.id));

describe('proving requests complete by their deliveries', () => {
  it('proves a night whose deliveries all came in one call, with each request\'s responses', async () => {
    const { requests, responses } = night([3, 0, 5, 1, 2]);
    const w = world(responses, all(responses));
    const p = await prove(requests, w.io, { ranges: true });
    expect(w.calls).toHaveLength(1);
    expect([...p.proven]).toEqual([['q0', 3], ['q1', 0], ['q2', 5], ['q3', 1], ['q4', 2]]);
    expect(p.unproven).toEqual([]);
  });

  it('awaits the deliveries still on their way, then asks once more', async () => {
    const { requests, responses } = night([3, 4, 2]);
    const late = new Set(['r0-2', 'r1-0', 'r2-1']);
    const w = world(responses, new Set([...all(responses)].filter((id) => !late.has(id))), { late });
    const p = await prove(requests, w.io, { ranges: true });
    expect(w.calls).toHaveLength(2);
    expect(p.proven.size).toBe(3);
  });

  it('halves a batch down to the requests short of a response, and counts how many each lacks', async () => {
    const { requests, responses } = night(Array.from({ length: 16 }, (_, i) => 1 + (i % 4)));
    const missing = new Set(['r5-1']);
    const w = world(responses, new Set([...all(responses)].filter((id) => !missing.has(id))));
    const p = await prove(requests, w.io, { ranges: true });
    expect(p.unproven).toEqual(['q5']);
    expect(p.expected).toEqual(new Map([['q5', 2]]));
    expect(p.proven.size).toBe(15);
    expect(w.calls.length).toBeLessThanOrEqual(2 * Math.log2(16) + 1);
  });

  it('hands a batch short of as many responses as it has requests back whole, without halving it', async () => {
    const { requests, responses } = night([2, 2, 2, 2]);
    const w = world(responses, new Set(['r0-0', 'r1-0']));
    const p = await prove(requests, w.io, { ranges: true });
    expect(w.calls).toHaveLength(1);
    expect(p.unproven).toEqual(['q0', 'q1', 'q2', 'q3']);
  });

  it('gives up counting by range when its bounds are not honoured, and counts nothing proved', async () => {
    const { requests, responses } = night([1, 2]);
    const w = world(responses, all(responses), { broken: true });
    const p = await prove(requests, w.io, { ranges: true });
    expect(p.rangesBroken).toMatch(/outside the bounds/);
    expect(p.proven.size).toBe(0);
    expect(p.unproven).toEqual(['q0', 'q1']);
  });

  it('counts request by request where ranges cannot be counted on', async () => {
    const { requests, responses } = night([1, 0, 3]);
    const w = world(responses, new Set([...all(responses)].filter((id) => id !== 'r2-2')));
    const p = await prove(requests, w.io, { ranges: false });
    expect(w.calls).toEqual(['request q0', 'request q1', 'request q2']);
    expect([...p.proven.keys()]).toEqual(['q0', 'q1']);
    expect(p.expected).toEqual(new Map([['q2', 3]]));
  });

  it('never calls a request complete while one of its responses is missing, whatever is missing', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 24 }),
      fc.array(fc.nat(), { maxLength: 10 }),
      fc.boolean(),
      async (sizes, drops, ranges) => {
        const { requests, responses } = night(sizes);
        const dropped = new Set(responses.length ? drops.map((d) => responses[d % responses.length].id) : []);
        const w = world(responses, new Set([...all(responses)].filter((id) => !dropped.has(id))));
        const p = await prove(requests, w.io, { ranges });
        for (const [id, n] of p.proven) {
          const own = responses.filter((r) => r.request === id);
          expect(own.every((r) => w.inWarehouse.has(r.id)), id).toBe(true);
          expect(n).toBe(own.length);
        }
        expect(new Set([...p.proven.keys(), ...p.unproven])).toEqual(new Set(requests.map((r) => r.requestId)));
        if (dropped.size === 0 && responses.length > 0 && ranges) expect(p.proven.size).toBe(requests.length);
      },
    ), { numRuns: 200 });
  });
});
