// The status a request shows. The documented dialect's provider reports states the spec does not name while a
// request runs (REFERENCE.md lists more than the spec's six); the sandbox shows one such state, `processing`,
// instead of `started` for a fixed share of requests, chosen by sequence number so that a run meets it the same
// way every time. The request still ends `completed` or `cancelled`, and the store keeps the spec's states.

import type { SandboxState } from './context.js';
import { hash } from './random.js';
import type { StoredRequest } from './request-store.js';

export function shownStatus(state: SandboxState, r: StoredRequest, status: string): string {
  const alias = state.dialect.runningAlias;
  if (!alias || status !== 'started') return status;
  return hash(state.options.seed, 965, r.seq) % alias.every === 0 ? alias.status : status;
}

/** Every status a request of this dialect can show (what a status filter accepts). */
export function showableStatuses(state: SandboxState, stored: readonly string[]): string[] {
  const alias = state.dialect.runningAlias;
  return alias ? [...stored, alias.status] : [...stored];
}
