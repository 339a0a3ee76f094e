// Two levels (REFERENCE.md, "Two levels"): a search by document or name discovers lawsuits and answers their
// headers (lawsuit-object.ts); a search by lawsuit number (lawsuit_cnj, lawsuit_id) is the lawsuit-level read. In
// the dialect of two levels that read answers the whole lawsuit with its instances most recent first (the
// documentation: "a lawsuit found in two instances comes as two objects, the most recent instance first"), and
// one application_error item instead of lawsuits when it finds nothing or when the provider cannot give the
// lawsuit (the `lawsuit_unavailable` fault, faults.ts). The dialect of one level answers as the spec shows: by
// tribunal, and nothing at all for a number it does not hold; only a name search that finds nothing has its
// error item there.

import type { Levels } from './dialect.js';
import type { Hit } from './search.js';
import type { NormalizedSearch, SearchType } from './search-validation.js';

/** The response_data of an application_error item. */
export interface AppError { code: number; message: string }

/** The spec's one error item (a name search that found nothing), also a lawsuit-level read's that found nothing. */
export const LAWSUIT_NOT_FOUND: AppError = { code: 2, message: 'LAWSUIT_NOT_FOUND' };
/**
 * A lawsuit the provider holds but will not give: under secrecy. The documentation names no such item; the code
 * and message are the sandbox's own, so a client must take any application_error of a lawsuit-level read as the
 * lawsuit being unavailable, keeping its message as the reason.
 */
export const LAWSUIT_SECRET: AppError = { code: 3, message: 'SECRET_LAWSUIT' };

/** Whether a search of this type is a lawsuit-level read (by number or id), answered whole. */
export function isLawsuitLevel(type: SearchType): boolean {
  return type === 'lawsuit_cnj' || type === 'lawsuit_id';
}

/** Hits in the order a read answers them: two levels list a number's instances most recent (highest) first. */
export function inAnswerOrder<T extends Pick<Hit, 'index' | 'instance' | 'tribunal'>>(levels: Levels, type: SearchType, hits: T[]): T[] {
  if (levels === 'one' || !isLawsuitLevel(type) || hits.length < 2) return hits;
  // One number is one tribunal's (its J.TR digits): within it, by instance, newest first, then as found.
  return [...hits].sort((a, b) => (a.tribunal < b.tribunal ? -1 : a.tribunal > b.tribunal ? 1 : b.instance - a.instance || a.index - b.index));
}

/**
 * What a request answers: its lawsuits, or one application_error item instead. `unavailable` tells, by CNJ number,
 * whether the provider refuses to give a lawsuit it holds (the fault); only lawsuit-level reads meet it.
 */
export function answerOf(levels: Levels, s: NormalizedSearch, hits: Hit[], unavailable?: (code: string) => AppError | undefined): { hits: Hit[]; error?: AppError } {
  const lawsuitLevel = isLawsuitLevel(s.type);
  if (lawsuitLevel && hits.length > 0) {
    const refused = unavailable?.(hits[0].code);
    if (refused) return { hits: [], error: refused };
  }
  if (hits.length === 0 && (s.type === 'name' || (lawsuitLevel && levels === 'two'))) return { hits, error: LAWSUIT_NOT_FOUND };
  return { hits: inAnswerOrder(levels, s.type, hits) };
}
