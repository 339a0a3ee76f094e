// The tribunals a search may be filtered on (`search_params.filter.tribunals.keys`), by their acronyms, read one
// way for the documents list and for a search's identity. The list follows the court codes of the CNJ number
// (REFERENCE.md, "Court codes"): the superior courts, the federal regional courts TRF1-6, the labour courts TRT1-24,
// the state courts TJ<UF> (the Federal District's is TJDFT), the regional electoral courts TRE-<UF> and the three
// state military courts. An acronym written `trt02`, `TRT-2`, `tre sp` or `TJDF` is the same tribunal as `TRT2`,
// `TRE-SP` and `TJDFT`: one normal form, so that a filter written two ways is one search.
import { UFS } from './uf.js';

const SUPERIOR = ['STF', 'STJ', 'TST', 'TSE', 'STM', 'CNJ'];
const MILITARY = ['TJMMG', 'TJMSP', 'TJMRS'];

const range = (n: number, prefix: string): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);

/** Every acronym in its normal form. */
const ACRONYMS: ReadonlySet<string> = new Set([
  ...SUPERIOR, ...range(6, 'TRF'), ...range(24, 'TRT'), ...MILITARY,
  ...UFS.map((uf) => (uf === 'DF' ? 'TJDFT' : `TJ${uf}`)), ...UFS.map((uf) => `TRE-${uf}`),
]);

const MARKS = /[\u0300-\u036f]/g;

/**
 * A tribunal acronym in its normal form (`TJSP`, `TRT2`, `TRE-SP`, `TJDFT`), or undefined when it names no
 * tribunal the CNJ numbers: letters upper case, spaces, dots and hyphens dropped, a regional court's number
 * without leading zeros, an electoral court's UF after a hyphen, `TJDF` as `TJDFT`.
 */
export function tribunalAcronym(text: string): string | undefined {
  const s = text.normalize('NFD').replace(MARKS, '').toUpperCase().replace(/[\s.\-_/]/g, '');
  const regional = /^(TRF|TRT)0*(\d{1,2})$/.exec(s);
  const electoral = /^TRE([A-Z]{2})$/.exec(s);
  const normal = regional ? `${regional[1]}${regional[2]}` : electoral ? `TRE-${electoral[1]}` : s === 'TJDF' ? 'TJDFT' : s;
  return ACRONYMS.has(normal) ? normal : undefined;
}
