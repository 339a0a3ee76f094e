// The documents list's columns for the provider's documented search filters and options (CONTRACT.md, "The
// documents list"; REFERENCE.md, "Two levels"), read into the request's own shape: `search_params.filter` with
// numbers as numbers, dates as ISO dates and lists as arrays, `search_params.credential.customer_key`,
// `search_params.masked_response`, and `with_attachments` for the top level of the body. A value the provider
// cannot take is a reason the line is rejected, never a search sent on a guess; an option its search type does
// not use (attachments for a search by document, masked_response for a search by number) is left out and named.
// Pure.
import type { Filter } from '../spec/types.js';
import { quoted, tribunalAcronym } from '../spec/identifiers.js';
import { unsafeCharacter } from './text-safety.js';
import type { SearchType } from '../spec/types.js';

export const OPTION_COLUMNS = [
  'side', 'amount_gte', 'amount_lte', 'tribunals', 'subject_codes', 'classification_codes',
  'distribution_date_gte', 'distribution_date_lte', 'last_step_date_gte', 'last_step_date_lte',
  'customer_key', 'masked_response', 'with_attachments',
] as const;
type OptionColumn = (typeof OPTION_COLUMNS)[number];

/** What a line asks besides its key, in the request's shape; each field absent when the line leaves it empty. */
export interface SearchOptions {
  filter?: Filter;
  /** A stored credential: `search_params.credential.customer_key`. */
  customerKey?: string;
  /** `search_params.masked_response`: true asks the complete document search, false the simple one. Document searches only. */
  maskedResponse?: boolean;
  /** `with_attachments` at the top level of the body: lawsuit_cnj searches only. */
  withAttachments?: boolean;
}

interface OptionsReading {
  options: SearchOptions;
  /** Why the line cannot be searched (empty when it can). */
  reasons: string[];
  /** Columns filled in that the line's search type does not use: left out of the request. */
  unused: OptionColumn[];
}

/** The documented sides, and the Portuguese a Brazilian list may use for them. */
const SIDES: Readonly<Record<string, NonNullable<Filter['side']>>> = {
  active: 'Active', passive: 'Passive', interested: 'Interested', unknown: 'Unknown',
  ativo: 'Active', ativa: 'Active', passivo: 'Passive', passiva: 'Passive',
  interessado: 'Interested', interessada: 'Interested', desconhecido: 'Unknown',
};

const BY_DOCUMENT: readonly SearchType[] = ['cpf', 'cnpj', 'oab', 'name'];

/**
 * An amount in reais: `150000`, `150000.50`, `150000,50`, `150.000,50`, `150,000.50`, `R$ 150.000`. A single
 * separator followed by three digits (`150.000`, `150,000`) is a thousands separator in one convention and a
 * decimal one in the other: refused rather than read as a thousandth of what was meant. At most 2 decimals.
 */
function parseAmount(text: string): number | { reason: string } {
  const s = text.trim().replace(/^R\$/i, '').replace(/\s/g, '');
  const bad = { reason: `${quoted(text.trim())} is not an amount in reais (write 150000 or 150000.50)` };
  if (!/^\d[\d.,]*$/.test(s)) return bad;
  const seps = s.replace(/\d/g, '');
  const last = Math.max(s.lastIndexOf('.'), s.lastIndexOf(','));
  if (seps === '') return Number(s);
  const decimalSep = s[last];
  const groupSep = decimalSep === '.' ? ',' : '.';
  const decimals = s.slice(last + 1);
  const whole = s.slice(0, last);
  // One kind of separator only: a decimal one (1-2 digits after it, once) or thousands (groups of 3).
  if (!seps.includes(groupSep)) {
    if (seps.length === 1 && decimals.length <= 2 && decimals.length > 0) return Number(`${whole}.${decimals}`);
    if (seps.length === 1 && decimals.length === 3) {
      return { reason: `${quoted(text.trim())} could be read two ways (${decimalSep} as thousands or as decimals): write it without a thousands separator` };
    }
    const groups = new RegExp(`^\\d{1,3}(\\${decimalSep}\\d{3})+$`);
    return groups.test(s) ? Number(s.split(decimalSep).join('')) : bad;
  }
  const groups = new RegExp(`^\\d{1,3}(\\${groupSep}\\d{3})*$`);
  if (!groups.test(whole) || !/^\d{1,2}$/.test(decimals)) return bad;
  return Number(`${whole.split(groupSep).join('')}.${decimals}`);
}

/** A date written `2024-12-31` or `31/12/2024`, as the ISO date; a day that does not exist is a reason. */
function parseDate(text: string): string | { reason: string } {
  const s = text.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  const br = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s);
  const [y, m, d] = iso ? [iso[1], iso[2], iso[3]] : br ? [br[3], br[2].padStart(2, '0'), br[1].padStart(2, '0')] : [];
  const date = y === undefined ? '' : `${y}-${m}-${d}`;
  const day = new Date(`${date}T00:00:00Z`);
  if (y === undefined || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== date) {
    return { reason: `${quoted(s)} is not a date (write 2024-12-31 or 31/12/2024)` };
  }
  return date;
}

/** Items separated by `|`, trimmed, empty ones dropped, each once in the order first written. */
const items = (text: string): string[] => [...new Set(text.split('|').map((x) => x.trim()).filter((x) => x !== ''))];

/** A code of the CNJ's unified tables: digits, without leading zeros. */
function readCodes(column: string, text: string, reasons: string[]): string[] | undefined {
  const codes = items(text);
  const bad = codes.filter((c) => !/^\d{1,10}$/.test(c));
  if (bad.length > 0) {
    reasons.push(`${column} ${bad.map(quoted).join(', ')} ${bad.length === 1 ? 'is not a code' : 'are not codes'} of the CNJ tables (digits, separated by |)`);
    return undefined;
  }
  return codes.length === 0 ? undefined : [...new Set(codes.map((c) => c.replace(/^0+(?=\d)/, '')))];
}

function readTribunals(text: string, reasons: string[]): string[] | undefined {
  const given = items(text);
  const known = given.map((t) => tribunalAcronym(t));
  const unknown = given.filter((_, i) => known[i] === undefined);
  if (unknown.length > 0) {
    reasons.push(`tribunals: unknown acronym ${unknown.map(quoted).join(', ')} (written as TJSP, TRT2, TRF3, TRE-SP or STJ, separated by |)`);
    return undefined;
  }
  return given.length === 0 ? undefined : [...new Set(known as string[])];
}

const TRUE = new Set(['true', '1', 'yes', 'sim', 'y', 's']);
const FALSE = new Set(['false', '0', 'no', 'nao', 'não', 'n']);

function readFlag(column: string, text: string, reasons: string[]): boolean | undefined {
  const s = text.trim().toLowerCase();
  if (s === '') return undefined;
  if (TRUE.has(s)) return true;
  if (FALSE.has(s)) return false;
  reasons.push(`${column} ${quoted(text.trim())} is not true/false, 1/0, yes/no or sim/nao`);
  return undefined;
}

/** The two bounds of a range, read; `low > high` can match no lawsuit, and is a reason. */
function range<T extends number | string>(
  names: readonly [string, string], cells: readonly [string, string], read: (t: string) => T | { reason: string }, reasons: string[],
): [T | undefined, T | undefined] {
  const out = cells.map((c, i) => {
    if (c.trim() === '') return undefined;
    const v = read(c);
    if (typeof v === 'object') { reasons.push(`${names[i]} ${v.reason}`); return undefined; }
    return v;
  }) as [T | undefined, T | undefined];
  if (out[0] !== undefined && out[1] !== undefined && out[0] > out[1]) {
    reasons.push(`${names[0]} ${quoted(cells[0].trim())} is above ${names[1]} ${quoted(cells[1].trim())}: no lawsuit can match`);
  }
  return out;
}

/** The filter of a line: each column read, every problem a reason; undefined when the line filters nothing. */
function readFilter(get: (c: OptionColumn) => string, reasons: string[]): Filter | undefined {
  const f: Filter = {};
  const sideText = get('side').trim();
  if (sideText !== '') {
    const side = SIDES[sideText.toLowerCase()];
    if (side) f.side = side;
    else reasons.push(`side ${quoted(sideText)} is not Active, Passive, Interested or Unknown`);
  }
  [f.amount_gte, f.amount_lte] = range(['amount_gte', 'amount_lte'], [get('amount_gte'), get('amount_lte')], parseAmount, reasons);
  const tribunals = readTribunals(get('tribunals'), reasons);
  if (tribunals) f.tribunals = { keys: tribunals, not_equal: false };
  const subjects = readCodes('subject_codes', get('subject_codes'), reasons);
  if (subjects) f.subject_codes = { contains: subjects };
  const classes = readCodes('classification_codes', get('classification_codes'), reasons);
  if (classes) f.classification_codes = { keys: classes, not_equal: false };
  [f.distribution_date_gte, f.distribution_date_lte] = range(['distribution_date_gte', 'distribution_date_lte'],
    [get('distribution_date_gte'), get('distribution_date_lte')], parseDate, reasons);
  [f.last_step_date_gte, f.last_step_date_lte] = range(['last_step_date_gte', 'last_step_date_lte'],
    [get('last_step_date_gte'), get('last_step_date_lte')], parseDate, reasons);
  const set = Object.entries(f).filter(([, v]) => v !== undefined);
  return set.length === 0 ? undefined : Object.fromEntries(set) as Filter;
}

/**
 * The filter and options of one line for a search of `type` (undefined when the type is unknown: the line is
 * rejected for it already, and these columns add their own reasons).
 */
export function readSearchOptions(type: SearchType | undefined, get: (c: OptionColumn) => string): OptionsReading {
  const reasons: string[] = [];
  const unused: OptionColumn[] = [];
  const options: SearchOptions = {};
  const filter = readFilter(get, reasons);
  if (filter) options.filter = filter;
  const key = get('customer_key').trim();
  const unsafe = unsafeCharacter(key);
  if (unsafe !== undefined) reasons.push(`customer_key contains ${unsafe}: remove it`);
  else if (key !== '') options.customerKey = key;
  const masked = readFlag('masked_response', get('masked_response'), reasons);
  // masked_response chooses between the simple and the complete search by document; a search by number has neither.
  if (masked !== undefined && type !== undefined && !BY_DOCUMENT.includes(type)) unused.push('masked_response');
  else if (masked !== undefined) options.maskedResponse = masked;
  const attachments = readFlag('with_attachments', get('with_attachments'), reasons);
  // Attachments come with a lawsuit_cnj search only (REFERENCE.md, "Two levels"); `false` asks nothing of anyone.
  if (attachments === true && type !== undefined && type !== 'lawsuit_cnj') unused.push('with_attachments');
  else if (attachments === true) options.withAttachments = true;
  return { options, reasons, unused };
}
