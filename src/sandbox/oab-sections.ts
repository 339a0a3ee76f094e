// The Ordem dos Advogados do Brasil's sections (one per state): how far each has numbered its registrations.
// A lawyer's OAB number is below their section's figure; São Paulo's roll passed half a million while Acre's
// is a few thousand, so an analyst spots a number no section has issued.

/** Approximate highest registration number each section had issued by 2025. */
export const OAB_ISSUED: Readonly<Record<string, number>> = {
  SP: 520_000, RJ: 250_000, MG: 230_000, RS: 125_000, PR: 115_000, BA: 80_000, PE: 62_000, DF: 72_000, CE: 52_000,
  GO: 68_000, SC: 68_000, ES: 36_000, PA: 36_000, MA: 27_000, MT: 31_000, MS: 27_000, PB: 31_000, RN: 22_000,
  AL: 19_000, PI: 22_000, SE: 14_000, AM: 19_000, RO: 13_000, TO: 10_000, AP: 6_000, RR: 3_500, AC: 6_000,
};

/** The lowest number the universe gives: four digits at least, as the payloads of the tribunals show them. */
export const OAB_LOWEST = 1000;
