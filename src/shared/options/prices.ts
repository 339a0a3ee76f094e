import type { Kind } from './kinds.js';

/**
 * What the provider bills, in the key's currency, for the plan's cost in money (`LAWSUIT_PRICES`, e.g.
 * `document_search=0.25,lawsuit_search=0.25,tracking_month=1.50,attachments=3.50`). Each is optional: a night's
 * cost counts only what has a price. The provider publishes no price in its documentation; a public price list
 * shows these (REFERENCE.md, "What is billed").
 */
export interface Prices {
  /** A search by document (or name), per 1,000 lawsuits it returns (at least one such unit per search). */
  documentSearch?: number;
  /** A lawsuit-level read (a lawsuit_cnj search), per request. */
  lawsuitSearch?: number;
  /** A tracking, per month it is kept active. */
  trackingMonth?: number;
  /** Attachments asked for with a lawsuit-level read, per read. */
  attachments?: number;
}

const NAMES: Readonly<Record<string, keyof Prices>> = {
  document_search: 'documentSearch', lawsuit_search: 'lawsuitSearch', tracking_month: 'trackingMonth', attachments: 'attachments',
};
const FORM = '(form: document_search=0.25,lawsuit_search=0.25,tracking_month=1.50,attachments=3.50; each optional)';

/** `name=price` pairs, comma-separated; every bad pair is named at once. */
export function prices(): Kind<Prices | undefined> {
  return {
    parse: (v) => {
      if (v.trim() === '') return { value: undefined };
      const out: Prices = {};
      const why: string[] = [];
      for (const part of v.split(',').map((p) => p.trim()).filter(Boolean)) {
        const m = /^([a-z_]+)\s*=\s*(.+)$/.exec(part);
        const field = m ? NAMES[m[1]] : undefined;
        const price = m ? Number(m[2]) : NaN;
        if (!m) why.push(`: ${JSON.stringify(part.slice(0, 60))} is not name=price ${FORM}`);
        else if (!field) why.push(`: unknown price ${JSON.stringify(m[1])} (allowed: ${Object.keys(NAMES).join(', ')})`);
        else if (!Number.isFinite(price) || price < 0) why.push(`: ${m[1]} must be a non-negative number (got ${JSON.stringify(m[2].slice(0, 30))})`);
        else out[field] = price;
      }
      return why.length ? { why, shown: v.slice(0, 200) } : { value: out };
    },
    show: (p) => (p ? Object.entries(NAMES).filter(([, f]) => p[f] !== undefined).map(([n, f]) => `${n}=${p[f]}`).join(',') : ''),
  };
}
