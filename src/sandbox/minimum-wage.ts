// The national minimum wage, the unit of the rites' value ceilings (labour sumaríssimo up to 40, state small claims
// up to 40, federal small claims up to 60 minimum wages at filing). The value in force on 1 January of each year
// (2020 and 2023 changed again later in the year, upwards): a claim kept under the January ceiling is under the
// ceiling all year. Years past the table keep its last value.

const JANUARY: Record<number, number> = {
  2008: 380, 2009: 415, 2010: 510, 2011: 540, 2012: 622, 2013: 678, 2014: 724, 2015: 788, 2016: 880, 2017: 937,
  2018: 954, 2019: 998, 2020: 1039, 2021: 1100, 2022: 1212, 2023: 1302, 2024: 1412, 2025: 1518, 2026: 1621,
};
const FIRST = 2008;
const LAST = 2026;

/** The minimum wage (R$) in force on 1 January of `year`. */
export function minimumWageIn(year: number): number {
  return JANUARY[Math.min(LAST, Math.max(FIRST, year))];
}
