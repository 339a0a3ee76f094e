// The grouped summary of a search (POST /requests/create/grouped): how many of the lawsuits found share each
// value of the cover information. Pure: it reads the lawsuit objects as rendered and the searched party's
// roles, so it agrees by construction with what POST /lawsuits would list.

import type { NormalizedSearch } from '../search-validation.js';
import type { InternalParty } from '../parties.js';
import { normalizeDocument, normalizeName } from '../text.js';

export interface GroupedEntry { count: number; value: string | number }

export const GROUP_NAMES = ['classifications', 'subjects', 'areas', 'tribunals', 'justices', 'phases', 'states', 'instances', 'sides', 'person_types'] as const;
export type GroupName = (typeof GROUP_NAMES)[number];
export type GroupedResult = Record<GroupName, GroupedEntry[]> & { lawsuits_count: number };

/** Where and as what the searched party stands in one lawsuit (none for lawsuit_cnj / lawsuit_id searches). */
export function searchedRoles(s: NormalizedSearch, parties: InternalParty[]): Array<{ side: string; personType: string }> {
  const out: Array<{ side: string; personType: string }> = [];
  for (const q of parties) {
    switch (s.type) {
      case 'cpf': case 'cnpj':
        if (q.kind !== 'lawyer' && normalizeDocument(q.document) === s.key) out.push({ side: q.side, personType: q.personType });
        break;
      case 'oab':
        if (q.kind === 'lawyer' && q.document === s.key) out.push({ side: q.side, personType: 'Advogado' });
        for (const l of q.lawyers) if (l.oab === s.key) out.push({ side: l.side, personType: 'Advogado' });
        break;
      case 'name':
        if (normalizeName(q.name) === s.key) out.push({ side: q.side, personType: q.kind === 'lawyer' ? 'Advogado' : q.personType });
        break;
      default:
    }
  }
  return out;
}

export interface GroupInput {
  /** The lawsuit object with phase and status present. */
  lawsuit: Record<string, unknown>;
  roles: Array<{ side: string; personType: string }>;
}

const names = (v: unknown): string[] =>
  Array.isArray(v) ? v.map((x) => (x && typeof x === 'object' ? (x as { name?: unknown }).name : undefined)).filter((x): x is string => typeof x === 'string') : [];
const one = (v: unknown): string[] => (typeof v === 'string' && v !== '' ? [v] : []);

/**
 * Each lawsuit counts once per distinct value of a dimension (a lawsuit with two subjects counts in both).
 * Entries are ordered by count, largest first, then by value, so the answer is stable.
 */
export function groupLawsuits(items: readonly GroupInput[]): GroupedResult {
  const maps = Object.fromEntries(GROUP_NAMES.map((g) => [g, new Map<string | number, number>()])) as Record<GroupName, Map<string | number, number>>;
  const add = (g: GroupName, values: Array<string | number>) => {
    for (const v of new Set(values)) maps[g].set(v, (maps[g].get(v) ?? 0) + 1);
  };
  for (const { lawsuit: l, roles } of items) {
    add('classifications', names(l.classifications));
    add('subjects', names(l.subjects));
    add('areas', one(l.area));
    add('tribunals', one(l.tribunal_acronym));
    add('justices', one(l.justice_description));
    add('phases', one(l.phase));
    add('states', one(l.state));
    add('instances', typeof l.instance === 'number' ? [l.instance] : []);
    // The spec shows sides and person types in upper case in this summary only (e.g. PASSIVE).
    add('sides', roles.map((r) => r.side.toUpperCase()));
    add('person_types', roles.map((r) => r.personType.toUpperCase()));
  }
  const out = { lawsuits_count: items.length } as GroupedResult;
  for (const g of GROUP_NAMES) {
    out[g] = [...maps[g].entries()]
      .map(([value, count]) => ({ count, value }))
      .sort((a, b) => b.count - a.count || (String(a.value) < String(b.value) ? -1 : String(a.value) > String(b.value) ? 1 : 0));
  }
  return out;
}
