// Sample search keys that find lawsuits in the database view at a given time: a mix of the six search types,
// plus a name shared by several people (homonyms) and a valid document that finds nothing.

import { formatCnpj, formatCpf } from './check-digits.js';
import { hash } from './random.js';
import { normalizeName } from './text.js';
import type { Universe } from './universe.js';

export interface SampleDocument { search_type: string; search_key: string; label: string }

export function sampleDocuments(u: Universe, now: number, n: number, seedOffset = 0): SampleDocument[] {
  const out: SampleDocument[] = [];
  const seen = new Set<string>();
  const add = (d: SampleDocument) => { const k = `${d.search_type}:${d.search_key}`; if (!seen.has(k)) { seen.add(k); out.push(d); } };
  const special = n >= 3 ? 2 : 0;
  for (let tries = 0; out.length < n - special && tries < n * 50; tries++) {
    const i = hash(u.seed, 970 + seedOffset, tries) % u.count;
    const o = u.observe(i, now, false);
    if (!o || o.plan.secrecy >= 5) continue;
    const r = hash(u.seed, 971 + seedOffset, tries) % 100;
    const parties = o.parties;
    const q = parties[hash(u.seed, 972, tries) % parties.length];
    const punct = hash(u.seed, 973, tries) % 2 === 0;
    if (r < 35 && q.documentType === 'CPF') add({ search_type: 'cpf', search_key: punct ? formatCpf(q.document) : q.document, label: q.name });
    else if (r < 60 && q.documentType === 'CNPJ') add({ search_type: 'cnpj', search_key: punct ? formatCnpj(q.document) : q.document, label: q.name });
    else if (r >= 60 && r < 70 && q.lawyers.length > 0) add({ search_type: 'oab', search_key: q.lawyers[0].oab, label: q.lawyers[0].name });
    else if (r >= 70 && r < 78 && q.kind === 'individual') add({ search_type: 'name', search_key: q.name, label: q.name });
    else if (r >= 78 && r < 92) add({ search_type: 'lawsuit_cnj', search_key: o.plan.code, label: `lawsuit ${o.plan.code}` });
    else if (r >= 92) {
      // A lawsuit id is known only from a payload that shows it: look for a lawsuit of a tribunal that does.
      for (let k = 0; k < 60; k++) {
        const s = u.observe(hash(u.seed, 974 + seedOffset, tries, k) % u.count, now, false);
        if (!s || s.plan.secrecy >= 5 || !s.plan.tribunal.showsLawsuitId) continue;
        add({ search_type: 'lawsuit_id', search_key: s.plan.lawsuitId, label: `lawsuit id of ${s.plan.code}` });
        break;
      }
    }
  }
  if (special) {
    const h = homonymName(u, now);
    if (h) add({ search_type: 'name', search_key: h, label: 'homonyms' });
    // A valid CPF beyond the people of the universe: well-formed, found nowhere.
    add({ search_type: 'cpf', search_key: u.cast.individuals.document(u.cast.individuals.count + 7 + seedOffset), label: 'finds nothing' });
  }
  return out.slice(0, n);
}

/** A name held by at least two people who each have a lawsuit visible in the database at `now`. */
function homonymName(u: Universe, now: number): string | undefined {
  const ind = u.cast.individuals;
  for (let p = 0; p < Math.min(ind.count, 20000); p++) {
    const name = ind.name(p);
    const people = ind.withName(normalizeName(name));
    if (people.length < 2) continue;
    const withLawsuits = people.filter((x) => u.lawsuitsOfDocument(ind.document(x)).some((i) => u.observe(i, now, false)));
    if (withLawsuits.length >= 2) return name;
  }
  return undefined;
}
