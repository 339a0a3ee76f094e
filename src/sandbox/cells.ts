// Where each case is filed, and its place in that unit's yearly numbering, as arithmetic on its index. A court
// numbers its cases one after the other within a year (CNJ Resolution 65/2008: the sequence restarts each year, per
// unit of origin); for the universe to give every case a number its unit could have issued, and to find a case again
// from its number without scanning, the unit and the year are not drawn at random but read off the index:
//
//   base b -> v = Perm(b) in [0, N) -> residue r = (v + shift) mod W and row k = floor(v / W)
//   residue r -> cell (a unit, and who brings the case there: a public entity, or private parties)
//   m = k * w(unit) + rank of r among the unit's residues   (the unit's m-th case, every year together)
//   year = (m + offset(unit)) mod years, q = floor(m / years) (the q-th case of the unit in that year)
//
// so that (unit, year, q) is unique, and b is found back from it. Each cell's share of the W residues is the share of
// cases the generator has always given that unit and party (computed below from the tribunals' and entities'
// weights, the kinds' weights, the rites and the places), so the mix of cases is what it was when units were drawn
// at random. An entity's cases are the residues of its cells: "which lawsuits name this entity" walks them only.

import { KINDS, PRIVATE_KINDS, type CaseKind } from './case-kinds.js';
import { minimumWageIn } from './minimum-wage.js';
import { ENTITIES, ENTITY_WEIGHT, type PublicEntity } from './public-entities.js';
import { hash, Perm, Rng } from './random.js';
import { placesFor, TRIBUNAL_BY_ACRONYM, TRIBUNALS, type TribunalDef } from './tribunals.js';
import { UNITS, unitOf, type Unit } from './units.js';

interface Cell {
  index: number;
  unit: Unit;
  /** The public entity that brings (or answers) the cases of this cell; undefined for cases between private parties. */
  entity: PublicEntity | undefined;
  /** The kinds of case filed there, with their weights (a rite already resolved where it decides the unit). */
  kinds: ReadonlyArray<readonly [CaseKind, number]>;
}

/** Share of cases with a public entity on one side (tax enforcement, criminal actions, social security...). */
const PUBLIC_SHARE = 0.3;
/** Residues are dealt out of about this many: cells with a share below 1/SCALE still get one. */
const SCALE = 60_000;

const isPrivate = (t: TribunalDef) => (t.j === '8' || t.j === '5') && !t.superior;
const FEDERAL_TRIBUNALS = TRIBUNALS.filter((t) => t.j === '4');
/** The electoral courts by their share of the electorate. */
const ELECTORAL: Array<[TribunalDef, number]> = [[TRIBUNAL_BY_ACRONYM.get('TRE-SP')!, 4], [TRIBUNAL_BY_ACRONYM.get('TRE-RJ')!, 2], [TRIBUNAL_BY_ACRONYM.get('TRE-MG')!, 2]];

/** The tribunals a case of this kind brought by (or against) this entity goes to, with their probabilities. */
function tribunalsFor(kind: CaseKind, entity: PublicEntity | undefined): Array<[TribunalDef, number]> {
  const norm = (list: Array<[TribunalDef, number]>) => { const s = list.reduce((a, [, w]) => a + w, 0); return list.map(([t, w]): [TribunalDef, number] => [t, w / s]); };
  if (kind.justice === '6') return norm(ELECTORAL);
  const own = entity?.tribunal;
  if (own && own.j === kind.justice) return [[own, 1]];
  // A state's military court hears the state prosecutor's cases against its military police.
  if (own) return [[TRIBUNALS.find((t) => t.j === kind.justice && t.uf === own.uf && !t.superior)!, 1]];
  if (kind.justice === '4') return norm(FEDERAL_TRIBUNALS.map((t) => [t, t.weight]));
  return norm(TRIBUNALS.filter(isPrivate).map((t) => [t, t.weight]));
}

/**
 * Share of social-security claims within the federal small-claims courts' ceiling (60 minimum wages), over the years
 * of the universe: a claim above it goes to a Vara Previdenciária (another unit where the TRF has one).
 */
function withinSmallClaims(): number {
  const range = KINDS.socialSecurity.amountLog10;
  let s = 0;
  for (let y = 2008; y <= 2027; y++) {
    const limit = Math.log10(60 * minimumWageIn(y));
    s += Math.min(1, Math.max(0, (limit - range[0]) / (range[1] - range[0])));
  }
  return 1 / 25 + (24 / 25) * (s / 20);
}

/** The kinds a drawn kind resolves to by its rite where the rite decides the unit, with their probabilities. */
function ritesOf(kind: CaseKind): Array<[CaseKind, number]> {
  if (kind !== KINDS.socialSecurity) return [[kind, 1]];
  const p = withinSmallClaims();
  return [[KINDS.socialSecurity, p], [KINDS.socialSecurityOrdinary, 1 - p]];
}

/** Every (unit, entity or private, kind) the generator files cases in, with the share of all cases it gets. */
function masses(): Map<string, { unit: Unit; entity: PublicEntity | undefined; kinds: Map<CaseKind, number> }> {
  const out = new Map<string, { unit: Unit; entity: PublicEntity | undefined; kinds: Map<CaseKind, number> }>();
  const add = (t: TribunalDef, entity: PublicEntity | undefined, kind: CaseKind, mass: number) => {
    const places = placesFor(t, kind.group, entity?.city);
    for (const place of places) {
      for (const origin of place.origins) {
        const unit = unitOf(t, origin);
        const key = `${unit.index}|${entity?.index ?? ''}`;
        let cell = out.get(key);
        if (!cell) out.set(key, (cell = { unit, entity, kinds: new Map() }));
        cell.kinds.set(kind, (cell.kinds.get(kind) ?? 0) + mass / places.length / place.origins.length);
      }
    }
  };
  for (const e of ENTITIES) {
    const total = e.kinds.reduce((s, [, w]) => s + w, 0);
    for (const [kind, w] of e.kinds) {
      for (const [t, pt] of tribunalsFor(kind, e)) {
        for (const [resolved, pr] of ritesOf(kind)) add(t, e, resolved, PUBLIC_SHARE * (e.weight / ENTITY_WEIGHT) * (w / total) * pt * pr);
      }
    }
  }
  for (const [t, pt] of tribunalsFor({ justice: '8' } as CaseKind, undefined)) {
    const kinds = PRIVATE_KINDS[t.j as '8' | '5'];
    const total = kinds.reduce((s, [, w]) => s + w, 0);
    for (const [kind, w] of kinds) add(t, undefined, kind, (1 - PUBLIC_SHARE) * pt * (w / total));
  }
  return out;
}

function buildCells() {
  const cells: Cell[] = [];
  const weights: number[] = [];
  for (const c of masses().values()) {
    const mass = [...c.kinds.values()].reduce((s, x) => s + x, 0);
    cells.push({ index: cells.length, unit: c.unit, entity: c.entity, kinds: [...c.kinds.entries()] });
    weights.push(Math.max(1, Math.round(mass * SCALE)));
  }
  const total = weights.reduce((s, w) => s + w, 0);
  // Residues are dealt to cells at random (a fixed shuffle): a small universe, whose indexes use only the first
  // residues, still has every kind of case at its share.
  const order = Array.from({ length: total }, (_, r) => r);
  const rng = new Rng(0x5eed_ce11);
  for (let r = total - 1; r > 0; r--) { const x = rng.int(r + 1); [order[r], order[x]] = [order[x], order[r]]; }
  const residueCell = new Uint16Array(total);
  const unitResidues: number[][] = UNITS.map(() => []);
  let next = 0;
  cells.forEach((c, k) => {
    for (let n = 0; n < weights[k]; n++) {
      const r = order[next++];
      residueCell[r] = c.index;
      // A unit's residues in the shuffled order, not by value: a small universe (fewer indexes than residues) uses
      // the residues of one window of values, and its cases must still fall anywhere in their unit's years.
      unitResidues[c.unit.index].push(r);
    }
  });
  const residueRank = new Uint16Array(total);
  for (const list of unitResidues) list.forEach((r, j) => { residueRank[r] = j; });
  const cellResidues: number[][] = cells.map(() => []);
  for (let r = 0; r < total; r++) cellResidues[residueCell[r]].push(r);
  return {
    cells, total, residueCell, residueRank,
    unitResidues: unitResidues.map((l) => Uint16Array.from(l)), cellResidues: cellResidues.map((l) => Uint16Array.from(l)),
  };
}

const LAYOUT = buildCells();

/** The years a unit files cases in: every year of the universe, or the election years for an electoral zone. */
const YEARS = Array.from({ length: 20 }, (_, k) => 2008 + k);
const ELECTION_YEARS = YEARS.filter((y) => y % 2 === 0);
const yearsOf = (u: Unit): readonly number[] => (u.tribunal.j === '6' ? ELECTION_YEARS : YEARS);

/** Where base b is filed and its place in the unit's numbering of that year. */
export interface Slot {
  cell: Cell;
  unit: Unit;
  year: number;
  /** The case's position among the unit's cases of that year in the universe (0 first). */
  q: number;
}

/** The cells of one universe (seed, size): the index arithmetic above, and its inverse. */
export class Slots {
  private readonly perm: Perm;
  private readonly shift: number;
  /** Upper bound of m for each unit: (rows + 1) * its residues. */
  private readonly rows: number;

  constructor(private readonly seed: number, readonly count: number) {
    this.perm = new Perm(count, hash(seed, 94));
    this.shift = hash(seed, 93) % LAYOUT.total;
    this.rows = Math.floor((count - 1) / LAYOUT.total) + 1;
  }

  private offset(u: Unit): number {
    return hash(this.seed, 95, u.index) % yearsOf(u).length;
  }

  slotOf(b: number): Slot {
    const v = this.perm.forward(b);
    const r = ((v % LAYOUT.total) + this.shift) % LAYOUT.total;
    const cell = LAYOUT.cells[LAYOUT.residueCell[r]];
    const unit = cell.unit;
    const m = Math.floor(v / LAYOUT.total) * LAYOUT.unitResidues[unit.index].length + LAYOUT.residueRank[r];
    const years = yearsOf(unit);
    return { cell, unit, year: years[(m + this.offset(unit)) % years.length], q: Math.floor(m / years.length) };
  }

  /** Most cases a unit has in one year of this universe (its slots; some hold no case). */
  perYear(u: Unit): number {
    return Math.ceil((this.rows * LAYOUT.unitResidues[u.index].length) / yearsOf(u).length);
  }

  /** The base filed as the q-th case of unit u in `year`, if the universe has one. */
  baseAt(u: Unit, year: number, q: number): number | undefined {
    const years = yearsOf(u);
    const y = years.indexOf(year);
    if (y < 0 || q < 0 || !Number.isInteger(q)) return undefined;
    const m = q * years.length + ((y - this.offset(u)) % years.length + years.length) % years.length;
    const residues = LAYOUT.unitResidues[u.index];
    const k = Math.floor(m / residues.length);
    const r = residues[m % residues.length];
    const v = k * LAYOUT.total + ((r - this.shift) % LAYOUT.total + LAYOUT.total) % LAYOUT.total;
    return v < this.count ? this.perm.backward(v) : undefined;
  }

  /** Every index filed in a cell of entity e (twins' slots among them: the caller keeps the bases). */
  indexesOfEntity(e: number): number[] {
    const out: number[] = [];
    const total = LAYOUT.total;
    for (const c of LAYOUT.cells) {
      if (c.entity?.index !== e) continue;
      for (const r of LAYOUT.cellResidues[c.index]) {
        for (let v = ((r - this.shift) % total + total) % total; v < this.count; v += total) out.push(this.perm.backward(v));
      }
    }
    return out;
  }
}
