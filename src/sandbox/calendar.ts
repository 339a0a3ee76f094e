// The courts' calendar and clock: which days a court sits (no weekends, no national holidays, none of its state's,
// nor the forensic recess of 20 December to 6 January) and what hour it is there. Every court of the universe keeps
// Brasília time (UTC-3); the states of the South, Southeast and Centre-West kept summer time (UTC-2) until 2019,
// Bahia one summer only (2011-12). A court's own acts (orders, hearings, judgments, sessions, publications in the
// official journal) happen on its days within office hours; what parties file electronically may come any day, at
// hours people work (timeline.ts chooses which is which). Pure arithmetic on day numbers: a holiday table is built
// once per year and state, and a step costs a few integer operations.

import { DAY_MS } from './days.js';

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/**
 * Summer time in the states that kept it: [start, end) in UTC, from the decrees (clocks went forward at 00:00 local
 * standard time, 03:00 UTC, and back at 00:00 summer time, 02:00 UTC). Abolished from 2019 (Decree 9.772/2019).
 */
const SUMMER_TIME: ReadonlyArray<readonly [number, number]> = [
  ['2007-10-14', '2008-02-17'], ['2008-10-19', '2009-02-15'], ['2009-10-18', '2010-02-21'], ['2010-10-17', '2011-02-20'],
  ['2011-10-16', '2012-02-26'], ['2012-10-21', '2013-02-17'], ['2013-10-20', '2014-02-16'], ['2014-10-19', '2015-02-22'],
  ['2015-10-18', '2016-02-21'], ['2016-10-16', '2017-02-19'], ['2017-10-15', '2018-02-18'], ['2018-11-04', '2019-02-17'],
].map(([a, b]) => [Date.parse(`${a}T03:00:00Z`), Date.parse(`${b}T02:00:00Z`)] as const);
const SUMMER_STATES: ReadonlySet<string> = new Set(['SP', 'RJ', 'MG', 'ES', 'RS', 'PR', 'SC', 'DF', 'GO', 'MS', 'MT']);
/** Bahia kept summer time in 2011-12 only. */
const BAHIA_ONLY = [SUMMER_TIME[4]];
const NONE: typeof SUMMER_TIME = [];
const FIRST_SUMMER_START = SUMMER_TIME[0][0];
const LAST_SUMMER_END = SUMMER_TIME[SUMMER_TIME.length - 1][1];

/** Offset of the court's local time from UTC at instant `ms` (negative: behind UTC). */
function localOffsetMs(ms: number, uf: string): number {
  // Summer time ended in 2019: most instants need no search at all.
  if (ms >= LAST_SUMMER_END || ms < FIRST_SUMMER_START) return -3 * HOUR_MS;
  const periods = uf === 'BA' ? BAHIA_ONLY : SUMMER_STATES.has(uf) ? SUMMER_TIME : NONE;
  for (const [a, b] of periods) if (ms >= a && ms < b) return -2 * HOUR_MS;
  return -3 * HOUR_MS;
}

/** The local calendar day of instant `ms` (days since 1970-01-01 in the court's time zone). */
function localDay(ms: number, uf: string): number {
  return Math.floor((ms + localOffsetMs(ms, uf)) / DAY_MS);
}

/** The UTC instant of local time `minutes` past midnight on local day `day` (the offset taken at that moment). */
function instantOf(day: number, minutes: number, uf: string): number {
  const guess = day * DAY_MS + Math.floor(minutes * MINUTE_MS);
  if (guess >= LAST_SUMMER_END + DAY_MS) return guess + 3 * HOUR_MS;
  return guess - localOffsetMs(guess - localOffsetMs(guess, uf), uf);
}

/** Easter Sunday (anonymous Gregorian algorithm), as a day number. */
function easter(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return Date.UTC(year, month - 1, day) / DAY_MS;
}

/**
 * National holidays the courts keep: the fixed ones (Black Consciousness Day is national from 2024, Law
 * 14.759/2023), and those Easter moves (Carnival Monday and Tuesday, Good Friday, Corpus Christi), which the courts
 * close for. `[month, day]`.
 */
const FIXED: ReadonlyArray<readonly [number, number]> = [[1, 1], [4, 21], [5, 1], [9, 7], [10, 12], [11, 2], [11, 15], [12, 25]];
/** Each state's own holidays (its data magna and the like), kept by its courts. */
const STATE_HOLIDAYS: Readonly<Record<string, ReadonlyArray<readonly [number, number]>>> = {
  SP: [[7, 9]], RJ: [[4, 23], [11, 20]], RS: [[9, 20]], PR: [[12, 19]], BA: [[7, 2]], PE: [[3, 6]], CE: [[3, 25]], AL: [[9, 16]], DF: [[11, 30]],
};

/** Day numbers covered by the closed-days table: 1 January 2000 to the end of 2049 (outside it, computed by year). */
const TABLE_FROM = Date.UTC(2000, 0, 1) / DAY_MS;
const TABLE_TO = Date.UTC(2050, 0, 1) / DAY_MS;
const closedTables = new Map<string, Uint8Array>();

/** The days a court of state `uf` does not sit in `year`, weekends aside. */
function closedIn(year: number, uf: string): number[] {
  const out: number[] = [];
  const day = (m: number, d: number) => Date.UTC(year, m - 1, d) / DAY_MS;
  for (const [m, d] of [...FIXED, ...(STATE_HOLIDAYS[uf] ?? [])]) out.push(day(m, d));
  if (year >= 2024) out.push(day(11, 20));
  const e = easter(year);
  for (const offset of [-48, -47, -2, 60]) out.push(e + offset);
  // The forensic recess (CNJ Resolution 244/2016; the federal courts' Law 5.010/66 before it): 20 December to 6 January.
  for (let d = day(1, 1); d <= day(1, 6); d++) out.push(d);
  for (let d = day(12, 20); d <= day(12, 31); d++) out.push(d);
  return out;
}

/** One byte a day, 1 where the court of state `uf` is closed (a step asks for a day or two: a lookup, not a set). */
function closedTable(uf: string): Uint8Array {
  let t = closedTables.get(uf);
  if (!t) {
    t = new Uint8Array(TABLE_TO - TABLE_FROM);
    for (let y = 2000; y < 2050; y++) for (const d of closedIn(y, uf)) t[d - TABLE_FROM] = 1;
    closedTables.set(uf, t);
  }
  return t;
}

/** Whether local day `day` is one the court of state `uf` sits. */
function isCourtDay(day: number, uf: string): boolean {
  const weekday = (day + 4) % 7; // 1970-01-01 was a Thursday; 0 is Sunday
  if (weekday === 0 || weekday === 6) return false;
  if (day >= TABLE_FROM && day < TABLE_TO) return closedTable(uf)[day - TABLE_FROM] === 0;
  return !closedIn(new Date(day * DAY_MS).getUTCFullYear(), uf).includes(day);
}

/**
 * How a step's day and time are chosen: a court's own act; a hearing or a judgment session, which are not held while
 * deadlines are suspended (20 December to 20 January: CPC art. 220 §2, CLT art. 775-A); an electronic filing.
 */
export type Timing = 'court' | 'session' | 'filing';

/** Whether local day `day` falls in the suspension of 20 December to 20 January. */
function suspended(day: number): boolean {
  const d = new Date(day * DAY_MS);
  return (d.getUTCMonth() === 11 && d.getUTCDate() >= 20) || (d.getUTCMonth() === 0 && d.getUTCDate() <= 20);
}

/** Office hours, local minutes [from, to): a court acts from 9:00 to 19:00. */
const OFFICE: readonly [number, number] = [9 * 60, 19 * 60];
/** The hours electronic filings come at: mostly office hours, some early or late (7:00 to 23:00). */
const FILING: readonly [number, number] = [7 * 60, 23 * 60];
const FILING_BUSY: readonly [number, number] = [8 * 60 + 30, 19 * 60];

/**
 * The instant of a step meant for about `ms`, after `previous`: a court act moves to the first court day from that
 * day on (a hearing or session, out of the suspension too), at an office hour; a filing keeps its day, at a working hour. Either comes after `previous` (a later day
 * when that day's window is spent). `u` and `v` in [0, 1) choose the time within the window.
 */
export function placeStep(ms: number, previous: number, timing: Timing, uf: string, u: number, v: number): number {
  const window = timing === 'filing' ? (v < 0.8 ? FILING_BUSY : FILING) : OFFICE;
  let day = localDay(Math.max(ms, previous), uf);
  for (;;) {
    if (timing === 'filing' || (isCourtDay(day, uf) && !(timing === 'session' && suspended(day)))) {
      const from = instantOf(day, window[0], uf);
      const to = instantOf(day, window[1], uf);
      const start = Math.max(from, previous + MINUTE_MS);
      if (start < to) return start + Math.floor(u * (to - start));
    }
    day++;
  }
}



/**
 * The instant of a filing at local clock position `localMs` (a local day and a fraction of it): the day kept, the
 * fraction laid over the filing hours, so that a later position is a later instant (a court's numbers follow the
 * order cases came in).
 */
export function filingInstant(localMs: number, uf: string): number {
  const day = Math.floor(localMs / DAY_MS);
  const f = (localMs - day * DAY_MS) / DAY_MS;
  return instantOf(day, FILING[0] + f * (FILING[1] - FILING[0]), uf);
}

/** The year on the court's calendar at instant `ms`. */
export function localYear(ms: number, uf: string): number {
  return new Date(ms + localOffsetMs(ms, uf)).getUTCFullYear();
}
