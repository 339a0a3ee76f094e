// The courts' units as a CNJ number names them (J.TR.OOOO): every first-instance unit of the universe's tribunals
// with its city and state, and how many cases it numbers in a year. The yearly volume bounds the sequence
// (NNNNNNN) a unit can give: a Vara do Trabalho numbers about two or three thousand cases a year, São Paulo's
// Foro Central Cível well over a hundred thousand, its tax-enforcement forum several hundred thousand. A tribunal's
// appellate body (OOOO 0000) sits in its seat, the first city it lists; the superior courts in Brasília.

import { TRIBUNALS, type Place, type TribunalDef } from './tribunals.js';

export interface Unit {
  /** Position in UNITS. */
  index: number;
  tribunal: TribunalDef;
  origin: string;
  city: string;
  uf: string;
  /** The place the unit belongs to (which groups of cases it takes). */
  place: Place;
  /** Cases the unit numbers in a year. */
  volume: number;
}

/** Yearly volume by tribunal: its units' default, and units that differ (central and specialised forums). */
const VOLUMES: Readonly<Record<string, { all: number; by?: Readonly<Record<string, number>> }>> = {
  TJSP: {
    all: 40_000,
    by: {
      '0100': 150_000, '0050': 60_000, '0053': 60_000, '0090': 600_000, '0114': 100_000, '0562': 70_000, '0506': 70_000, '0602': 60_000, '0224': 80_000,
    },
  },
  TJRJ: { all: 50_000, by: { '0001': 200_000, '0002': 60_000 } },
  TJMG: { all: 40_000, by: { '0024': 150_000 } },
  TJRS: { all: 35_000, by: { '0001': 100_000 } },
  TJPR: { all: 35_000, by: { '0001': 100_000 } },
  TJBA: { all: 35_000, by: { '0001': 120_000 } },
  TJPE: { all: 30_000, by: { '0001': 100_000 } },
  TJDFT: { all: 40_000, by: { '0001': 100_000 } },
  TJCE: { all: 100_000 },
  TJAL: { all: 50_000 },
  // A Vara do Trabalho: a few thousand claims a year.
  TRT2: { all: 3_000 }, TRT15: { all: 3_000 }, TRT1: { all: 3_000 }, TRT3: { all: 3_000 },
  TRF3: { all: 30_000, by: { '6182': 60_000, '6301': 150_000, '6181': 10_000, '6105': 15_000, '6303': 40_000 } },
  TRF1: { all: 60_000 },
  TRF2: { all: 60_000, by: { '5151': 80_000 } },
  TRF4: { all: 50_000 },
  // An electoral zone and a military auditoria: hundreds of cases a year.
  'TRE-SP': { all: 1_000 }, 'TRE-RJ': { all: 1_000 }, 'TRE-MG': { all: 1_000 },
  TJMSP: { all: 1_000 }, TJMMG: { all: 1_000 }, TJMRS: { all: 1_000 },
};

/** What an appellate body (OOOO 0000) and a superior court number in a year: their original cases, agravos among them. */
const APPELLATE_VOLUMES: Readonly<Record<string, number>> = {
  TJSP: 900_000, TJRJ: 300_000, TJMG: 250_000, TJRS: 250_000, TJPR: 150_000, TJBA: 80_000, TJPE: 60_000, TJDFT: 80_000,
  TJCE: 50_000, TJAL: 20_000, TRF3: 200_000, TRF1: 200_000, TRF2: 80_000, TRF4: 150_000, STJ: 450_000, TST: 350_000,
};

const volumeOf = (t: TribunalDef, origin: string): number => {
  const v = VOLUMES[t.acronym];
  return v.by?.[origin] ?? v.all;
};

export const UNITS: readonly Unit[] = TRIBUNALS.filter((t) => !t.superior)
  .flatMap((t) => t.places.flatMap((place) => place.origins.map((origin) => ({
    tribunal: t, origin, city: place.city, uf: place.uf ?? t.uf, place, volume: volumeOf(t, origin),
  }))))
  .map((u, index) => ({ ...u, index }));

const BY_KEY = new Map(UNITS.map((u) => [`${u.tribunal.j}.${u.tribunal.tr}.${u.origin}`, u]));

/** The first-instance unit a number's J.TR.OOOO names, if the universe has it. */
export function unitByCode(j: string, tr: string, origin: string): Unit | undefined {
  return BY_KEY.get(`${j}.${tr}.${origin}`);
}

export function unitOf(t: TribunalDef, origin: string): Unit {
  return BY_KEY.get(`${t.j}.${t.tr}.${origin}`)!;
}

/** Yearly volume of a tribunal's appellate body, or of a superior court. */
export function appellateVolume(t: TribunalDef): number {
  return APPELLATE_VOLUMES[t.acronym] ?? 50_000;
}

/** Where a tribunal's appellate body sits (its OOOO 0000): the first city of its places. */
export function seatOf(t: TribunalDef): { city: string; uf: string } {
  return { city: t.places[0].city, uf: t.places[0].uf ?? t.uf };
}
