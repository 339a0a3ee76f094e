import type { Page } from '../../api/paginate.js';
import type { SweepParams } from '../../shared/config.js';
import { resolveFailure } from '../../shared/failure-policy.js';
import type { ResponseItem } from '../../spec/types.js';
import type { RunContext } from '../context.js';
import type { PageSizer } from '../page-size.js';
import { listingParams, type SweepQuery } from './cursor.js';

// One page of the listing across requests (GET /responses without request_id), asked for both of its readers: the
// search stage's sweep (sweep.ts) and a trackings night's reading of its runs (tracking/read-runs.ts). They walk it
// differently (the sweep waits on its members, the trackings' reading reads a bounded range once), but a page is
// asked the same way: in the listing's names, at the size the sizer gives, and a page too large to read is asked
// again smaller, as the failure policy's shrink-page says. Only a first page at its anchor shrinks: page numbers
// hold at one size, and a cursor mid-way through pages keeps its size (cursor.ts).

/** Who reads, for the log: "the responses sweep", "the trackings' runs". */
interface AcrossReader { ctx: RunContext; sizer: PageSizer; params: SweepParams; what: string }

/**
 * The page `q` asks for; undefined when it was too large to read and the sizer now gives smaller pages (ask again
 * at the size it gives). Any other failure is thrown to the reader, who asks the policy how far it reaches. Not
 * once the stage's wait budget is spent: the reader halts then, its cursor waiting in the ledger.
 */
export async function readAcross(r: AcrossReader, q: SweepQuery): Promise<Page<ResponseItem> | undefined> {
  try {
    return await r.ctx.api.responses.listAcross(listingParams(r.params, q));
  } catch (e) {
    if (resolveFailure(e, { pageSized: q.page === 1 }).action !== 'shrink-page' || r.ctx.api.spentBudget() || !r.sizer.refused(q.size)) throw e;
    r.ctx.log.warn({ page_size: q.size }, `a page of ${r.what} was too large to read: reading it again in smaller pages`);
    return undefined;
  }
}
