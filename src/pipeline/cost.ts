import type { Prices } from '../shared/options/prices.js';

// What a night costs, or would cost, in what the provider bills (REFERENCE.md, "What is billed"): a search by
// document per 1,000 lawsuits it returns, a lawsuit-level read per request, a tracking per month, attachments per
// read that asks for them; listing responses is not billed. Counted from the stages' figures, so the plan's cost
// (a dry run) and the night's (the summary and report) are worked out the same way; money only where the
// operator set prices (LAWSUIT_PRICES).

/** The billed units of a night. */
export interface BilledUnits {
  /** Searches by document or name, in units of 1,000 lawsuits returned (at least one a search). */
  documentSearches: number;
  /** Lawsuit-level reads (lawsuit_cnj searches) bought. */
  lawsuitSearches: number;
  /** Trackings made, a month each. */
  trackingMonths: number;
  /** Lawsuit-level reads that asked for attachments. */
  attachmentReads: number;
}

/** A search by document's billed units: one per 1,000 lawsuits it returns, at least one. */
export function documentUnits(lawsuitsReturned: number): number {
  return Math.max(1, Math.ceil(lawsuitsReturned / 1000));
}

/**
 * A night's billed units from its stages' figures: what the searches, the lawsuit-level reads and the trackings
 * stages bought (`billed_*`, `trackings_created`, `lawsuit_trackings_created`). A dry run buys nothing: the
 * documents stage's expectation stands for its searches, and the other stages' figures are what they would buy.
 */
export function unitsOf(stages: ReadonlyArray<{ name: string; counts: Record<string, number> }>, dryRun: boolean): BilledUnits {
  const c = (stage: string, k: string): number => stages.find((s) => s.name === stage)?.counts[k] ?? 0;
  const searches = dryRun
    ? { documents: c('documents', 'expected_document_units'), lawsuits: c('documents', 'expected_lawsuit_searches') }
    : { documents: c('search', 'billed_document_units'), lawsuits: c('search', 'billed_lawsuit_searches') };
  return {
    documentSearches: searches.documents,
    lawsuitSearches: searches.lawsuits + c('lawsuits', 'billed_lawsuit_searches'),
    // both kinds: the documents' and the lawsuits', before the night's reads (trackings) and after them (lawsuit-trackings)
    trackingMonths: c('trackings', 'trackings_created') + c('trackings', 'lawsuit_trackings_created') + c('lawsuit-trackings', 'lawsuit_trackings_created'),
    attachmentReads: c('lawsuits', 'billed_attachment_reads'),
  };
}

const PARTS: ReadonlyArray<[keyof BilledUnits, keyof Prices, string]> = [
  ['documentSearches', 'documentSearch', 'document searches (per 1,000 lawsuits returned)'],
  ['lawsuitSearches', 'lawsuitSearch', 'lawsuit-level reads'],
  ['trackingMonths', 'trackingMonth', 'tracking-months'],
  ['attachmentReads', 'attachments', 'reads with attachments'],
];

export interface Money {
  total: number;
  /** Each priced part: what, how many units, the price of one, the amount. */
  parts: Array<{ what: string; units: number; price: number; amount: number }>;
}

/** The units in money at the operator's prices; undefined when none is set. Unpriced units are left out, not guessed. */
export function moneyOf(units: BilledUnits, prices: Prices | undefined): Money | undefined {
  if (!prices || Object.keys(prices).length === 0) return undefined;
  const parts = PARTS.filter(([, p]) => prices[p] !== undefined)
    .map(([u, p, what]) => ({ what, units: units[u], price: prices[p]!, amount: Math.round(units[u] * prices[p]! * 100) / 100 }));
  return { total: Math.round(parts.reduce((t, x) => t + x.amount, 0) * 100) / 100, parts };
}

/** The units and money in words: `12 document-search units, 40 lawsuit reads; 14.50 at the prices set`. */
export function formatCost(units: BilledUnits, money: Money | undefined): string {
  const u = `${units.documentSearches} document-search units, ${units.lawsuitSearches} lawsuit-level reads, ${units.trackingMonths} tracking-months`
    + (units.attachmentReads ? `, ${units.attachmentReads} reads with attachments` : '');
  if (!money) return `${u} (LAWSUIT_PRICES turns them into money)`;
  return `${u}: ${money.total.toFixed(2)} at the prices set (${money.parts.map((p) => `${p.units} x ${p.price} ${p.what}`).join(', ')})`;
}
