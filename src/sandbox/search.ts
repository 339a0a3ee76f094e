// A search and its filters over the universe, as seen at a given time: the lookups give the candidate
// lawsuits, the filters of the spec then apply to each one's observed state.

import { normalizeDocument, normalizeName } from './text.js';
import type { IncludeExclude, NormalizedFilter, NormalizedSearch } from './search-validation.js';
import type { Observation, Universe } from './universe.js';
import type { InternalParty } from './parties.js';

export interface Hit { index: number; code: string; instance: number; tribunal: string }

/** Sides where the searched party stands in this lawsuit (empty for lawsuit_cnj / lawsuit_id searches). */
function searchedSides(s: NormalizedSearch, parties: InternalParty[]): Set<string> {
  const sides = new Set<string>();
  for (const q of parties) {
    switch (s.type) {
      case 'cpf': case 'cnpj':
        if (q.kind !== 'lawyer' && normalizeDocument(q.document) === s.key) sides.add(q.side);
        break;
      case 'oab':
        if (q.kind === 'lawyer' && q.document === s.key) sides.add(q.side);
        for (const l of q.lawyers) if (l.oab === s.key) sides.add(l.side);
        break;
      case 'name':
        if (normalizeName(q.name) === s.key) sides.add(q.side);
        break;
      default:
    }
  }
  return sides;
}

function passesCodes(ie: IncludeExclude | undefined, codes: string[]): boolean {
  if (!ie) return true;
  const up = codes.map((c) => c.toUpperCase());
  if (ie.include.length > 0 && !up.some((c) => ie.include.includes(c))) return false;
  if (ie.exclude.length > 0 && up.some((c) => ie.exclude.includes(c))) return false;
  return true;
}

/** Whether an observed lawsuit passes the search's filters (lawsuit_instance included). */
function passesFilters(s: NormalizedSearch, o: Observation): boolean {
  const f: NormalizedFilter = s.filter;
  const p = o.plan;
  if (s.instance !== undefined && p.instance !== s.instance) return false;
  if (f.distributionGte !== undefined && p.distributionMs < f.distributionGte) return false;
  if (f.distributionLte !== undefined && p.distributionMs > f.distributionLte) return false;
  if (f.amountGte !== undefined && p.amount < f.amountGte) return false;
  if (f.amountLte !== undefined && p.amount > f.amountLte) return false;
  if (!passesCodes(f.tribunals, [p.tribunal.acronym])) return false;
  if (!passesCodes(f.subjects, p.subjectCodes)) return false;
  if (!passesCodes(f.classes, [p.classCode])) return false;
  if (f.lastStepGte !== undefined || f.lastStepLte !== undefined) {
    const last = o.steps[o.steps.length - 1];
    if (!last) return false;
    if (f.lastStepGte !== undefined && last.dateMs < f.lastStepGte) return false;
    if (f.lastStepLte !== undefined && last.dateMs > f.lastStepLte) return false;
  }
  // The spec's rule: `side` restricts only where the searched party stands, never the parties named in
  // party_names / party_documents, which may stand anywhere.
  if (f.side !== undefined && (s.type !== 'lawsuit_cnj' && s.type !== 'lawsuit_id') && !searchedSides(s, o.parties).has(f.side)) return false;
  if (f.partyNames && !o.parties.some((q) => f.partyNames!.includes(normalizeName(q.name)))) return false;
  if (f.partyDocuments && !o.parties.some((q) => f.partyDocuments!.includes(normalizeDocument(q.document)))) return false;
  return true;
}

/** Whether the search returns this observed candidate: it passes the filters, and a level-5 secret lawsuit is
 * reachable only by its number or id. */
export function finds(s: NormalizedSearch, o: Observation): boolean {
  const byNumber = s.type === 'lawsuit_cnj' || s.type === 'lawsuit_id';
  return (byNumber || o.plan.secrecy < 5) && passesFilters(s, o);
}

export function candidates(u: Universe, s: NormalizedSearch): number[] {
  switch (s.type) {
    case 'cpf': case 'cnpj': return u.lawsuitsOfDocument(s.key);
    case 'oab': return u.lawsuitsOfOab(s.key);
    case 'name': return u.lawsuitsOfName(s.key);
    case 'lawsuit_cnj': return u.lawsuitsOfCnj(s.key);
    case 'lawsuit_id': return u.lawsuitsOfId(s.key);
  }
}

/**
 * The lawsuits a search returns at time t, grouped by tribunal (the service works court by court) and
 * in index order inside each group. Level-5 secret lawsuits are only reachable by their number or id.
 * `among` are the search's candidates when the caller kept them (they do not depend on time, and finding them
 * is most of a document search's cost: a tracking re-runs its search from them).
 */
export function runSearch(u: Universe, s: NormalizedSearch, t: number, among: Iterable<number> = candidates(u, s)): Hit[] {
  const hits: Hit[] = [];
  for (const i of among) {
    const o = u.observe(i, t, s.onDemand);
    if (!o || !finds(s, o)) continue;
    hits.push({ index: i, code: o.plan.code, instance: o.plan.instance, tribunal: o.plan.tribunal.acronym });
  }
  hits.sort((a, b) => (a.tribunal < b.tribunal ? -1 : a.tribunal > b.tribunal ? 1 : a.index - b.index));
  return hits;
}
