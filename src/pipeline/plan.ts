import type { DocumentSpec } from '../input/documents.js';
import type { Search } from '../spec/types.js';
import { documentIdentity, searchFor } from '../input/search-body.js';
import type { ReadBasis } from '../warehouse/ledger.js';
import { documentUnits } from './cost.js';
import { pagesFor } from './sweep/cost.js';

/** What the ledger already knows about a document's search, looked up before planning. */
export interface DocumentHistory {
  /** End of the last search of this document that completed and was fully loaded. */
  lastSuccessAt?: Date;
  /** A request submitted earlier (or its submission started) that has not been fully loaded yet. */
  outstandingRequestId?: string;
  /** Responses of the last fully loaded search (what tonight's answer is likely to hold). */
  lastResponses?: number;
  /** How long the provider took to complete the last fully loaded search (its created_at to its completed_at), ms. */
  lastTookMs?: number;
}

interface PlanOptions {
  now: Date;
  freshnessDays: number;
  force: boolean;
  /** Responses page size, to estimate the calls needed. */
  pageSize: number;
  /** How responses will be read (config `responsesStrategy`), to estimate the calls needed. Default per-request. */
  strategy?: 'sweep' | 'per-request';
}

export interface PlannedSearch {
  search: Search;
  /** `with_attachments: true` at the top level of the request's body (a lawsuit_cnj search that asks for them). */
  withAttachments?: boolean;
  searchHash: string;
  /** What it is, for the operator: `line 12 (cpf)`, `lawsuit 0710802-55.2018.8.02.0001 (lawsuit_cnj)`. */
  where: string;
  /** The documents list's line it searches (requests.document_line); null for a lawsuit-level read the night chose. */
  line: number | null;
  /** The list's document, for a search of the documents list. */
  doc?: DocumentSpec;
  /** A lawsuit-level read: how far each instance's header said the lawsuit had gone (requests.basis). */
  basis?: ReadBasis;
  /** How long the provider took to answer this search whole the last time (DocumentHistory.lastTookMs): poll.ts waits for it. */
  tookMs?: number;
}

/** A planned search with how long its last answer took the provider (PlannedSearch.tookMs), when its history says. */
export function withTook<T extends PlannedSearch>(p: T, h: DocumentHistory | undefined): T {
  return h?.lastTookMs === undefined ? p : { ...p, tookMs: h.lastTookMs };
}

/** A search of the documents list, planned. */
export type DocumentSearch = PlannedSearch & { doc: DocumentSpec };

/** A document's planned search: its body (its filters and options as the list asks them) and its identity. */
export function plannedDocument(doc: DocumentSpec): DocumentSearch {
  const search = searchFor(doc);
  const planned: DocumentSearch = { doc, search, searchHash: documentIdentity(doc), where: `line ${doc.line} (${doc.searchType})`, line: doc.line };
  if (doc.withAttachments) planned.withAttachments = true;
  return planned;
}

export interface RunPlan {
  /** Documents to submit a new request for. */
  submit: DocumentSearch[];
  /** Documents whose earlier request is still outstanding: polled and loaded, never submitted again. */
  resume: Array<DocumentSearch & { requestId: string }>;
  /** Documents searched recently enough (younger than freshnessDays) to be left alone. */
  fresh: Array<DocumentSearch & { lastSuccessAt: Date }>;
  onDemand: number;
  /**
   * Estimate of the API calls the plan costs: one submission each, one batched poll round per 100 outstanding
   * requests, and the response pages: per request, one page of each request per `pageSize` responses it had last
   * time (one for a search never answered before); swept across requests, one page per `pageSize` responses
   * in all. More poll rounds, and answers larger than last time, cost more.
   */
  expectedCalls: number;
  /**
   * What the searches to submit are billed, at least (cost.ts): a search by document per 1,000 lawsuits it
   * returned last time (one for a search never answered), a lawsuit number of the list per search.
   */
  billed: { documentSearches: number; lawsuitSearches: number };
}

// The search object a document becomes lives beside the list (input/search-body.ts); the plan and the trackings use it from here too.
export { searchFor };

/**
 * Tonight's plan of the list, worked out once from one reading of the ledger (stages/documents.ts, planNight), and
 * the same plan for some of its searches (a trackings night buys only those its trackings stage chose).
 */
export interface NightPlan {
  plan: RunPlan;
  /** The identity of a listed document's search as the night buys it (PlannedSearch.searchHash). */
  identityOf(doc: DocumentSpec): string;
  /** The plan of the searches among `identities` alone, from the same history and options: pure. */
  only(identities: ReadonlySet<string>): RunPlan;
}

/** Searches by a lawsuit's number or id: billed per search, not per lawsuit returned. */
export const BY_NUMBER: ReadonlySet<string> = new Set(['lawsuit_cnj', 'lawsuit_id']);

/** Pure: decide what tonight's run does for each document. */
export function planRun(docs: DocumentSpec[], history: Map<string, DocumentHistory>, opts: PlanOptions): RunPlan {
  const plan: RunPlan = { submit: [], resume: [], fresh: [], onDemand: 0, expectedCalls: 0, billed: { documentSearches: 0, lawsuitSearches: 0 } };
  const freshMs = opts.freshnessDays * 86_400_000;
  for (const doc of docs) {
    const item = plannedDocument(doc);
    const h = history.get(item.searchHash) ?? {};
    if (h.outstandingRequestId) {
      plan.resume.push({ ...item, requestId: h.outstandingRequestId });
    } else if (!opts.force && h.lastSuccessAt && opts.now.getTime() - h.lastSuccessAt.getTime() < freshMs) {
      plan.fresh.push({ ...item, lastSuccessAt: h.lastSuccessAt });
    } else {
      plan.submit.push(withTook(item, h));
      if (doc.onDemand) plan.onDemand++;
      if (BY_NUMBER.has(doc.searchType)) plan.billed.lawsuitSearches++;
      else plan.billed.documentSearches += documentUnits(h.lastResponses ?? 0);
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
