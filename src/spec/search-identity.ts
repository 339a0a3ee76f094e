// When two searches are the same search. The keys of documents, CNJ numbers, OAB registrations and lawsuit ids
// already have one normal form each (the parsers give it); a name does not: "Ricardo Medeiros Viana",
// "ricardo medeiros viana" and "RICARDO  MEDEIROS VIANA" are written three ways and found alike, since the
// provider matches names without regard to case, accents or spacing. Each spelling bought once would cost
// three searches for the same lawsuits (measured: 3 searches, 2 lawsuits). So a name is folded for identity
// only — the list's duplicates, the plan, the ledger's history — and the search itself still sends the name
// as the list first wrote it.
import type { SearchType } from './types.js';

// Combining diacritical marks: what NFD splits off "José", "Conceição", "Müller".
const MARKS = /[\u0300-\u036f]/g;

/** A name's identity: letters without accents, lower case, one space between words, no space at the ends. */
export function foldName(name: string): string {
  return name.normalize('NFD').replace(MARKS, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * A search key's identity for its type: a name folded (foldName); any other key is its normal form already
 * (the documents list's parsers gave it) and is its own identity.
 */
export function keyIdentity(searchType: SearchType | string, key: string): string {
  return searchType === 'name' ? foldName(key) : key;
}
