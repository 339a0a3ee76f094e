// What a tracking's run sends. The documentation does not say whether a run answers every lawsuit its search finds
// or only those that changed since the previous run; the sandbox does the second by default (`changed`) and the
// first on request (`every`), so that a client can be tried against both. A tracking's first run has nothing to
// compare with: it sends every lawsuit either way.
//
// What "changed" means depends on the dialect's levels (levels.ts, REFERENCE.md "Two levels"). One level: new to
// the search, or with new steps (changes.ts), whatever the search. Two levels: a document's (or name's) tracking
// announces only the lawsuits born to its search since its previous run, as headers, and never re-sends a known
// lawsuit that moved; a lawsuit's tracking (lawsuit_cnj, lawsuit_id) sends its lawsuit whole whenever it moved
// (new steps, and with them phase and status), each instance on its own.

import type { Levels } from '../dialect.js';
import { isLawsuitLevel } from '../levels.js';
import type { SearchType } from '../search-validation.js';

export const RUN_CONTENTS = ['changed', 'every'] as const;
export type RunContent = (typeof RUN_CONTENTS)[number];

/** What one run of a tracking sends: every lawsuit found, those changed (new or moved), or those born (new only). */
export type RunMode = 'every' | 'changed' | 'born';

/** The run mode of a tracking of this search type, under the switch and the dialect's levels. */
export function runMode(content: RunContent, levels: Levels, type: SearchType): RunMode {
  if (content === 'every') return 'every';
  return levels === 'two' && !isLawsuitLevel(type) ? 'born' : 'changed';
}

/** The run's content of a name, collecting a problem (not throwing) so that callers report every bad option at once. */
export function parseRunContent(value: unknown, field: string, problems: string[]): RunContent | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (RUN_CONTENTS as readonly string[]).includes(value)) return value as RunContent;
  problems.push(`${field} must be one of ${RUN_CONTENTS.join(', ')} (got ${JSON.stringify(value)})`);
  return undefined;
}
