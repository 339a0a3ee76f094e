// The grouped summary of a search (POST /requests/create/grouped): how many of the lawsuits found share each
// value of the cover information. It reads each lawsuit's cover (coverOf: the same values the lawsuit object
// shows, from the plan and the last step, without building the object) and the searched party's roles, one
// lawsuit at a time into running counts: a party with tens of thousands of lawsuits costs the counts, not the
// lawsuits (1M universe, 28,500 lawsuits: the former array of whole lawsuits did not fit a 128 MB heap).

import type { NormalizedSearch } from '../search-validation.js';
import type { InternalParty } from '../parties.js';
import { normalizeDocument, normalizeName } from '../text.js';
import { phaseOf } from '../timeline.js';
import { tpuClass, tpuSubject } from '../tpu.js';
import type { Observation } from '../universe.js';

interface GroupedEntry { count: number; value: string | number }

const GROUP_NAMES = ['classifications', 'subjects', 'areas', 'tribunals', 'justices', 'phases', 'states', 'instances', 'sides', 'person_types'] as const;
type GroupName = (typeof GROUP_NAMES)[number];
type GroupedResult = Record<GroupName, GroupedEntry[]> & { lawsuits_count: number };

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

/** The cover values of one lawsuit the summary counts: what its lawsuit object shows under these names. */
interface Cover {
  classifications: string[];
  subjects: string[];
  area: string;
  tribunal: string;
  justice: string;
  phase: string;
  state: string;
  instance: number;
}

export function coverOf(o: Observation): Cover {
  const p = o.plan;
  return {
    classifications: [tpuClass(p.classCode).name],
    subjects: p.subjectCodes.map((c) => tpuSubject(c).name),
    area: p.kind.area,
    tribunal: p.tribunal.acronym,
    justice: p.tribunal.justiceDescription,
    phase: phaseOf(o.steps[o.steps.length - 1]),
    state: p.state,
    instance: p.instance,
  };
}

/**
 * Running counts: each lawsuit counts once per distinct value of a dimension (a lawsuit with two subjects counts
 * in both). Entries are ordered by count, largest first, then by value, so the answer is stable.
 */
export class GroupTally {
  private readonly maps = Object.fromEntries(GROUP_NAMES.map((g) => [g, new Map<string | number, number>()])) as Record<GroupName, Map<string | number, number>>;
  private count = 0;

  add(c: Cover, roles: ReadonlyArray<{ side: string; personType: string }>): void {
    this.count++;
    this.tally('classifications', c.classifications);
    this.tally('subjects', c.subjects);
    this.tally('areas', [c.area]);
    this.tally('tribunals', [c.tribunal]);
    this.tally('justices', [c.justice]);
    this.tally('phases', [c.phase]);
    this.tally('states', [c.state]);
    this.tally('instances', [c.instance]);
    // The spec shows sides and person types in upper case in this summary only (e.g. PASSIVE).
    this.tally('sides', roles.map((r) => r.side.toUpperCase()));
    this.tally('person_types', roles.map((r) => r.personType.toUpperCase()));
  }

  result(): GroupedResult {
    const out = { lawsuits_count: this.count } as GroupedResult;
    for (const g of GROUP_NAMES) {
      out[g] = [...this.maps[g].entries()]
        .map(([value, count]) => ({ count, value }))
        .sort((a, b) => b.count - a.count || (String(a.value) < String(b.value) ? -1 : String(a.value) > String(b.value) ? 1 : 0));
    }
    return out;
  }

  private tally(g: GroupName, values: ReadonlyArray<string | number>): void {
    for (const v of new Set(values)) if (v !== '') this.maps[g].set(v, (this.maps[g].get(v) ?? 0) + 1);
  }
}
