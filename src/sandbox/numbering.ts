// The sequence (NNNNNNN) of every CNJ number, as its court would have issued it, and the way back from a number to
// the case. A unit's year of numbers is its band (court-systems.ts) plus its yearly volume (units.ts): the cases the
// universe files there (cells.ts: the q-th of the unit's year) are spread over the lower part of the volume in the
// order they came in, so a later case has a higher number; the cases that unit opens from another (an execution of
// judgment, embargos, distributed by dependency) take the upper part. An appellate body (OOOO 0000) numbers the
// agravos it receives, a superior court the appeals that reach it; each of those numbers is made from the case it
// comes from (its unit, year and place in the year) and from how many years later it came ("lane"), so that no two
// cases ever share a number and the number leads back to its case.

import { hash, unit as unitFloat } from './random.js';
import type { Slot, Slots } from './cells.js';
import { systemOf } from './court-systems.js';
import { DAY_MS } from './days.js';
import type { TribunalDef } from './tribunals.js';
import { appellateVolume, UNITS, type Unit } from './units.js';

/** Share of a unit's yearly volume its own cases are numbered in; the rest is for the cases opened from them. */
const OWN_SHARE = 0.85;
/**
 * Whether a case has a child, and which, is read off its place q in its unit's year, shifted by an offset of that
 * unit-year, modulo 64: an eighth of the places have one (TWIN_PLACES: the first 8 residues). A child numbered apart
 * is then identified among its unit-year's cases of its kind's residues only (one or two in 64), which keeps every
 * court's bucket of such numbers small next to its yearly volume; the other places of the eight have an appeal,
 * heard under the case's own number. The offset keeps a small universe, whose units hold a case or two a year (q
 * mostly 0), at an eighth too.
 */
const CHILD_GROUP = 64;
const TWIN_PLACES = 8;
/** Years between a case's distribution and its child's, at most (timeline.ts proves its lives keep within them). */
export const LANES = { interlocutory: 3, superior: 15, execution: 13, dependency: 2 } as const;

export type OwnNumberChild = keyof typeof LANES;

const CHILD_RESIDUES: Readonly<Record<OwnNumberChild, readonly number[]>> = {
  superior: [0], interlocutory: [1, 4], execution: [2], dependency: [3],
};


const SUPERIOR_FEEDERS: Readonly<Record<string, (t: TribunalDef) => boolean>> = {
  STJ: (t) => t.j === '8' || t.j === '4', TST: (t) => t.j === '5',
};

/** The identifiers of a court's bucket: where each feeding unit's begin (-1: the unit does not feed it), and their total. */
interface Bucket {
  prefix: Int32Array;
  total: number;
}

export class Numbering {
  private readonly perYear: Int32Array;
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly seed: number, private readonly slots: Slots) {
    this.perYear = Int32Array.from(UNITS, (u) => slots.perYear(u));
  }

  /** Most identifiers a unit gives one kind of child in a year: its cases of that kind's residues. */
  private childIds(kind: OwnNumberChild, u: Unit): number {
    return Math.ceil(this.perYear[u.index] / CHILD_GROUP + 1) * CHILD_RESIDUES[kind].length;
  }

  /** The shift of a unit-year's places before they are read modulo 64. */
  private shift(u: Unit, year: number): number {
    return hash(this.seed, 97, u.index, year) % CHILD_GROUP;
  }

  /** The child a case filed in `s` may have: one numbered apart, an appeal, or none. */
  childAt(s: Slot): OwnNumberChild | 'appeal' | undefined {
    const r = (s.q + this.shift(s.unit, s.year)) % CHILD_GROUP;
    if (r >= TWIN_PLACES) return undefined;
    return (Object.keys(CHILD_RESIDUES) as OwnNumberChild[]).find((k) => CHILD_RESIDUES[k].includes(r)) ?? 'appeal';
  }

  /** A court's bucket of agravos (its own tribunal's units feed it) or of appeals (STJ: state and federal courts; TST: labour). */
  private courtBucket(kind: 'interlocutory' | 'superior', court: TribunalDef): Bucket {
    let b = this.buckets.get(court.acronym);
    if (!b) {
      const feeds = kind === 'superior' ? SUPERIOR_FEEDERS[court.acronym] : (t: TribunalDef) => t === court;
      const prefix = new Int32Array(UNITS.length).fill(-1);
      let total = 0;
      for (const u of UNITS) if (feeds(u.tribunal)) { prefix[u.index] = total; total += this.childIds(kind, u); }
      this.buckets.set(court.acronym, (b = { prefix, total }));
    }
    return b;
  }

  private gap(u: Unit): number {
    return Math.max(1, Math.floor((u.volume * OWN_SHARE) / this.perYear[u.index]));
  }

  /** Where a unit's children's numbers begin, past its own cases' (offset from the band). */
  private childStart(u: Unit): number {
    return Math.max(Math.floor(u.volume * OWN_SHARE), this.perYear[u.index] * this.gap(u));
  }

  /** The sequence of base b filed in `slot`, and where in its year (or election season) it was distributed, in [0, 1). */
  base(b: number, s: Slot): { sequence: number; fraction: number } {
    const g = this.gap(s.unit);
    const step = s.q * g + (hash(this.seed, 91, b) % g);
    const { band } = systemOf(s.unit.tribunal, s.year, s.unit.origin);
    return { sequence: band + 1 + step, fraction: (step + unitFloat(hash(this.seed, 92, b))) / (this.perYear[s.unit.index] * g) };
  }

  /**
   * The bucket a child of `kind` of a case of unit u is numbered in: where it starts past the band and how many
   * numbers it has, and its slots (one per identifier and lane): where the slots of u's children of that kind begin,
   * and how many the bucket holds. A unit's executions take the first slots of its children's part, its embargos
   * the next ones; a court's slots run unit after unit.
   */
  private bucketOf(kind: OwnNumberChild, u: Unit, court: TribunalDef): { start: number; space: number; first: number; slots: number } {
    if (kind === 'execution' || kind === 'dependency') {
      const start = this.childStart(u);
      const executions = this.childIds('execution', u) * LANES.execution;
      return { start, space: u.volume - start, first: kind === 'dependency' ? executions : 0, slots: executions + this.childIds('dependency', u) * LANES.dependency };
    }
    const b = this.courtBucket(kind, court);
    return { start: 0, space: appellateVolume(court), first: b.prefix[u.index] * LANES[kind], slots: b.total * LANES[kind] };
  }

  /** The sequence of the child of `kind` that base b (filed in `s`) has, distributed in `year` at `court`. */
  child(kind: OwnNumberChild, b: number, s: Slot, year: number, court: TribunalDef, origin: string): number {
    const lanes = LANES[kind];
    const lane = year - s.year;
    if (lane < 0 || lane >= lanes) throw new Error(`a ${kind} ${lane} years after its case: outside its lanes`);
    const { start, space, first, slots } = this.bucketOf(kind, s.unit, court);
    const g = Math.max(1, Math.floor(space / slots));
    const residues = CHILD_RESIDUES[kind];
    const shifted = s.q + this.shift(s.unit, s.year);
    const id = Math.floor(shifted / CHILD_GROUP) * residues.length + residues.indexOf(shifted % CHILD_GROUP);
    const z = first + id * lanes + lane;
    const { band } = systemOf(court, year, origin);
    return band + start + 1 + z * g + (hash(this.seed, 96, b) % g);
  }

  /**
   * The index a number would be the case (or the child) of, if any: the caller checks the whole number.
   * `court` is the number's tribunal; `u` its unit (undefined for OOOO 0000).
   */
  indexOf(court: TribunalDef, u: Unit | undefined, year: number, sequence: number, origin: string): number | undefined {
    const { band } = systemOf(court, year, origin);
    const s0 = sequence - band - 1;
    if (s0 < 0) return undefined;
    if (u) {
      const g = this.gap(u);
      if (s0 < this.perYear[u.index] * g) return this.slots.baseAt(u, year, Math.floor(s0 / g));
      const { start, space, slots } = this.bucketOf('execution', u, court);
      if (s0 < start) return undefined;
      const z = Math.floor((s0 - start) / Math.max(1, Math.floor(space / slots)));
      const executions = this.childIds('execution', u) * LANES.execution;
      if (z >= slots) return undefined;
      const [kind, y] = z < executions ? ['execution', z] as const : ['dependency', z - executions] as const;
      return this.childOf(kind, u, Math.floor(y / LANES[kind]), year - (y % LANES[kind]));
    }
    const kind = court.superior ? 'superior' : 'interlocutory';
    const b = this.courtBucket(kind, court);
    const lanes = LANES[kind];
    const z = Math.floor(s0 / Math.max(1, Math.floor(appellateVolume(court) / (b.total * lanes))));
    const x = Math.floor(z / lanes);
    if (x >= b.total) return undefined;
    // The feeding unit whose identifiers hold x: the last one starting at or before it.
    let found: Unit | undefined;
    for (const cand of UNITS) if (b.prefix[cand.index] >= 0 && b.prefix[cand.index] <= x) found = cand;
    return found && this.childOf(kind, found, x - b.prefix[found.index], year - (z % lanes));
  }

  /** The index of the child whose case has identifier `id` among unit u's cases of `baseYear`. */
  private childOf(kind: OwnNumberChild, u: Unit, id: number, baseYear: number): number | undefined {
    const residues = CHILD_RESIDUES[kind];
    const q = Math.floor(id / residues.length) * CHILD_GROUP + residues[id % residues.length] - this.shift(u, baseYear);
    const b = q < 0 ? undefined : this.slots.baseAt(u, baseYear, q);
    return b === undefined ? undefined : b + 1;
  }
}

/** The instant of a local year (or an election season) at `fraction` of its span, before the hour is chosen. */
export function localInstantOf(u: Unit, year: number, fraction: number): number {
  if (u.tribunal.j === '6') return Date.UTC(year, 7, 16) + Math.floor(fraction * ELECTION_SEASON_DAYS * DAY_MS);
  const from = Date.UTC(year, 0, 1);
  return from + Math.floor(fraction * (Date.UTC(year + 1, 0, 1) - from));
}

/** Electoral cases come from mid-August to early December of an election year. */
const ELECTION_SEASON_DAYS = 110;

