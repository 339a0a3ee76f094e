import type { SweepParams } from '../../shared/config.js';
import { codeOf, resolveFailure } from '../../shared/failure-policy.js';
import type { RunContext } from '../context.js';
import { listingParams, timeOf } from '../sweep/cursor.js';
import { untrustedPage } from '../sweep/verify.js';
import type { Count, ProofIo } from './proof.js';

// The counts a proof compares (proof.ts): the warehouse's, in SQL, and the provider's, one listing call each,
// asked for the page just past what the warehouse holds, one item a page. A call that fails in a way that reaches
// no further than itself (the upstream past its retries, a 404) makes its count untrusted: the requests it would
// have proved are listed instead. The key or the resource refused reaches the stage, as on any other call.

/** The created_at of a response as the warehouse stores it, bounded as the listing bounds it (whole ms, inclusive). */
const IN_RANGE = 'created_at >= $1::TIMESTAMPTZ AND created_at < $2::TIMESTAMPTZ';
const iso = (ms: number): string => new Date(ms).toISOString();

/** `params`: the listing's created_at names (the sweep's, learned or pinned), or null when none is known to work. */
export function proofIo(ctx: RunContext, params: SweepParams | null): Omit<ProofIo, 'settle'> {
  return {
    heldIn: async (from, until) => {
      // a bound is whole milliseconds, a created_at may be finer: everything within the last millisecond counts
      const [r] = await ctx.wh.all<{ n: bigint }>(`SELECT count(*) AS n FROM responses_raw WHERE ${IN_RANGE}`, [iso(from), iso(until + 1)]);
      return Number(r.n);
    },
    heldOf: async (ids) => {
      const rows = await ctx.wh.all<{ request_id: string; n: bigint }>(`SELECT request_id, count(*) AS n FROM responses_raw
        WHERE request_id IN (SELECT unnest(from_json($1::JSON, '["VARCHAR"]'))) GROUP BY ALL`, [JSON.stringify(ids)]);
      return new Map(rows.map((r) => [r.request_id, Number(r.n)]));
    },
    countIn: (from, until, held) => counted(async () => {
      if (!params) return { untrusted: 'the responses listing\'s created_at bounds are not known to work' };
      const q = { from, until, page: held + 1, size: 1 };
      const page = await ctx.api.responses.listAcross(listingParams(params, q));
      const doubt = untrustedPage(q, page.items.map((i) => timeOf(i.created_at)), page.items.map((i) => i.created_at));
      return doubt ? { untrusted: doubt.reason } : { count: page.allCount, more: page.items.length > 0 };
    }),
    countOf: (requestId, held) => counted(async () => {
      const page = await ctx.api.responses.list({ request_id: requestId, page: held + 1, page_size: 1, sort: null });
      return { count: page.allCount, more: page.items.length > 0 };
    }),
  };
}

async function counted(call: () => Promise<Count>): Promise<Count> {
  try {
    return await call();
  } catch (e) {
    if (resolveFailure(e).reach !== 'item') throw e;
    return { untrusted: `the count could not be read (${codeOf(e)}: ${(e as Error).message})` };
  }
}
