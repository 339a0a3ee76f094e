// The procedural system each tribunal keeps its cases in, year by year, and the band of sequence numbers
// (NNNNNNN) that system gives. Electronic systems number from a band of their own, so that a number tells which
// system a case lives in: TJSP's digital e-SAJ cases from 1000001 (its agravos at the court, OOOO 0000, from
// 2000001), PJe of the labour courts from 1000001 in the TRT2 and 0010001 in the TRT3 and TRT15, eproc from
// 5000001, PJe of TJBA from 8000001, of TJMG from 5000001, of TJDFT from 0700001, of TJRJ from 0800001, of the
// electoral courts from 0600001; the records kept before a court went electronic, and Projudi, from 0000001.

import type { TribunalDef } from './tribunals.js';

interface Era {
  /** First year the system numbers new cases. */
  from: number;
  system: string;
  /** The sequence the system's first case of a year takes is band + 1. */
  band: number;
  /** The band of cases that begin at the appellate body (OOOO 0000); the first-instance band when absent. */
  appellateBand?: number;
}

const era = (from: number, system: string, band: number, appellateBand?: number): Era => ({ from, system, band, appellateBand });

const ERAS: Readonly<Record<string, readonly Era[]>> = {
  TJSP: [era(2008, 'ESAJ', 0), era(2014, 'ESAJ', 1_000_000, 2_000_000)],
  TJRJ: [era(2008, 'DCP', 0), era(2017, 'PJe', 800_000, 0)],
  TJMG: [era(2008, 'SISCOM', 0), era(2016, 'PJe', 5_000_000, 0)],
  TJRS: [era(2008, 'Themis', 0), era(2020, 'eproc', 5_000_000)],
  TJPR: [era(2008, 'Projudi', 0)],
  TJBA: [era(2008, 'SAIPRO', 0), era(2016, 'PJe', 8_000_000)],
  TJPE: [era(2008, 'Judwin', 0), era(2015, 'PJe', 0)],
  TJDFT: [era(2008, 'SISTJ', 0), era(2016, 'PJe', 700_000)],
  TJCE: [era(2008, 'ESAJ', 0), era(2015, 'ESAJ', 200_000, 0)],
  TJAL: [era(2008, 'ESAJ', 0), era(2013, 'ESAJ', 700_000, 0)],
  TRT2: [era(2008, 'SAP1', 0), era(2014, 'PJe', 1_000_000)],
  TRT15: [era(2008, 'SAJ', 0), era(2014, 'PJe', 10_000)],
  TRT1: [era(2008, 'SAP', 0), era(2014, 'PJe', 100_000)],
  TRT3: [era(2008, 'SIAP', 0), era(2014, 'PJe', 10_000)],
  TRF3: [era(2008, 'SIAPRO', 0), era(2017, 'PJe', 5_000_000)],
  TRF1: [era(2008, 'Processual', 0), era(2018, 'PJe', 1_000_000)],
  TRF2: [era(2008, 'Apolo', 0), era(2018, 'eproc', 5_000_000)],
  TRF4: [era(2008, 'Processual', 0), era(2010, 'eproc', 5_000_000)],
  'TRE-SP': [era(2008, 'SADP', 0), era(2018, 'PJe', 600_000)],
  'TRE-RJ': [era(2008, 'SADP', 0), era(2018, 'PJe', 600_000)],
  'TRE-MG': [era(2008, 'SADP', 0), era(2018, 'PJe', 600_000)],
  TJMSP: [era(2008, 'eproc', 0)], TJMMG: [era(2008, 'eproc', 0)], TJMRS: [era(2008, 'eproc', 0)],
  STJ: [era(2008, 'e-STJ', 0)],
  TST: [era(2008, 'e-SIJ', 0), era(2019, 'PJe', 0)],
};

/** Units whose cases live in a system of their own whatever the tribunal's (TRF3's federal small-claims courts). */
const UNIT_SYSTEMS: Readonly<Record<string, Era>> = {
  'TRF3.6301': era(2008, 'SisJEF', 0), 'TRF3.6303': era(2008, 'SisJEF', 0),
};

function eraOf(t: TribunalDef, year: number, origin: string): Era {
  const own = UNIT_SYSTEMS[`${t.acronym}.${origin}`];
  if (own) return own;
  const eras = ERAS[t.acronym];
  let found = eras[0];
  for (const e of eras) if (e.from <= year) found = e;
  return found;
}

/** The system a case of unit `origin` (OOOO, 0000 for the appellate body) distributed in `year` lives in, and its band. */
export function systemOf(t: TribunalDef, year: number, origin: string): { system: string; band: number } {
  const e = eraOf(t, year, origin);
  return { system: e.system, band: origin === '0000' && !t.superior ? e.appellateBand ?? e.band : e.band };
}
