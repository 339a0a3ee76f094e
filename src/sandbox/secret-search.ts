// The documented dialect's 403 for one search: "a secret lawsuit without a credential" (REFERENCE.md, the
// provider's documented dialect, Errors). The sandbox refuses a search by lawsuit number (lawsuit_cnj,
// lawsuit_id) that finds a lawsuit the caller would see masked: secrecy level 3 and up, not lifted by the
// search's stored credential (which lifts up to 4; level 5 never). Only that POST is refused; the key's other
// searches go on. Searches by document or name are not refused: they would be for most big litigants, whose
// dozens of lawsuits nearly always include a secret one, and the spec's reading masks those instead.

import type { Reply, SandboxState } from './context.js';
import { levelSeen, MASKED_FROM_LEVEL } from './lawsuit-object.js';
import { runSearch } from './search.js';
import type { NormalizedSearch } from './search-validation.js';

export function refusedAsSecret(state: SandboxState, s: NormalizedSearch, now: number): boolean {
  if (!state.dialect.refuseSecretSearch || (s.type !== 'lawsuit_cnj' && s.type !== 'lawsuit_id')) return false;
  const privileged = s.customerKey !== undefined && state.options.credentialKeys.includes(s.customerKey);
  return runSearch(state.universe, s, now).some((h) => levelSeen(state.universe.plan(h.index).secrecy, privileged) >= MASKED_FROM_LEVEL);
}

export function secretRefusal(): Reply {
  return { status: 403, body: { error: { name: 'Forbidden', message: 'The lawsuit is under secrecy: a credential is required', data: ['SECRET_LAWSUIT_WITHOUT_CREDENTIAL'] } } };
}
