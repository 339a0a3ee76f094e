import { searchIdentity } from '../spec/identifiers.js';
import type { Search } from '../spec/types.js';
import type { DocumentSpec } from '../input/documents.js';
import { searchFor } from '../input/search-body.js';
import { pagesFor } from './sweep/cost.js';

/** What the ledger already knows about a document's search, looked up before planning. */
export interface DocumentHistory {
  /** End of the last search of this document that completed and was fully loaded. */
  lastSuccessAt?: Date;
  /** A request submitted earlier (or its submission started) that has not been fully loaded yet. */
  outstandingRequestId?: string;
  /** Responses of the last fully loaded search (what tonight's answer is likely to hold). */
  lastResponses?: number;
}

export interface PlanOptions {
  now: Date;
  freshnessDays: number;
  force: boolean;
  /** Responses page size, to estimate the calls needed. */
  pageSize: number;
  /** How responses will be read (config `responsesStrategy`), to estimate the calls needed. Default per-request. */
  strategy?: 'sweep' | 'per-request';
}

export interface PlannedSearch {
  doc: DocumentSpec;
  search: Search;
  /** `with_attachments: true` at the top level of the request's body (a lawsuit_cnj search that asks for them). */
  withAttachments?: boolean;
  searchHash: string;
}

export interface RunPlan {
  /** Documents to submit a new request for. */
  submit: PlannedSearch[];
  /** Documents whose earlier request is still outstanding: polled and loaded, never submitted again. */
  resume: Array<PlannedSearch & { requestId: string }>;
  /** Documents searched recently enough (younger than freshnessDays) to be left alone. */
  fresh: Array<PlannedSearch & { lastSuccessAt: Date }>;
  onDemand: number;
  /**
   * Estimate of the API calls the plan costs: one submission each, one batched poll round per 100 outstanding
   * requests, and the response pages: per request, one page of each request per `pageSize` responses it had last
   * time (one for a search never answered before); swept across requests, one page per `pageSize` responses
   * in all. More poll rounds, and answers larger than last time, cost more.
   */
  expectedCalls: number;
}

// The search object a document becomes lives beside the list (input/search-body.ts); the plan and the trackings use it from here too.
export { searchFor };

/**
 * A stable identity for "the same search", used by the ledger to find a document's requests and by the submission
 * intents: a name in any spelling is one search, its filters written any way one (spec/search-identity.ts).
 */
export function searchHash(search: Search, withAttachments?: boolean): string {
  return searchIdentity(search, { withAttachments });
}

/** A document's planned search: its body and identity. */
export function plannedSearch(doc: DocumentSpec): PlannedSearch {
  const search = searchFor(doc);
  const planned: PlannedSearch = { doc, search, searchHash: searchHash(search, doc.withAttachments) };
  if (doc.withAttachments) planned.withAttachments = true;
  return planned;
}

/** Pure: decide what tonight's run does for each document. */
export function planRun(docs: DocumentSpec[], history: Map<string, DocumentHistory>, opts: PlanOptions): RunPlan {
  const plan: RunPlan = { submit: [], resume: [], fresh: [], onDemand: 0, expectedCalls: 0 };
  const freshMs = opts.freshnessDays * 86_400_000;
  for (const doc of docs) {
    const item = plannedSearch(doc);
    const h = history.get(item.searchHash) ?? {};
    if (h.outstandingRequestId) {
      plan.resume.push({ ...item, requestId: h.outstandingRequestId });
    } else if (!opts.force && h.lastSuccessAt && opts.now.getTime() - h.lastSuccessAt.getTime() < freshMs) {
      plan.fresh.push({ ...item, lastSuccessAt: h.lastSuccessAt });
    } else {
      plan.submit.push(item);
      if (doc.onDemand) plan.onDemand++;
    }
  }
  const reading = [...plan.submit, ...plan.resume].map((p) => history.get(p.searchHash)?.lastResponses ?? 0);
  const requests = reading.length;
  const pages = opts.strategy === 'sweep'
    ? pagesFor(reading.reduce((a, b) => a + b, 0), opts.pageSize)
    : reading.reduce((n, items) => n + pagesFor(items, opts.pageSize), 0);
  plan.expectedCalls = requests === 0 ? 0 : plan.submit.length + Math.ceil(requests / 100) + pages;
  return plan;
}
