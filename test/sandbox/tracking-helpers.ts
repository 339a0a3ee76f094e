// Helpers of the tracking tests: calls a client makes (over HTTP), and an oracle of what a run should send that
// reads the universe's public lawsuit objects and the sandbox's truth, never the tracking code under test.

import type { Sandbox } from '../../src/sandbox/server.js';
import { call, KEY } from './helpers.js';

export const HOUR = 3_600_000;
export const DAY = 86_400_000;

export type Search = { search_type: string; search_key: string };

/** POST /tracking; throws unless it was created. */
export async function track(sb: Sandbox, search: Search, recurrence: number, key = KEY): Promise<any> {
  const r = await call(sb, 'POST', '/tracking', { recurrence, search }, key);
  if (r.status !== 200) throw new Error(`POST /tracking ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** The runs of a tracking, oldest first, as the documented dialect lists them (origin and origin_id filters). */
export async function runsOf(sb: Sandbox, trackingId: string, key = KEY): Promise<any[]> {
  const r = await call(sb, 'GET', `/requests?origin=tracking&origin_id=${trackingId}&page_size=1000&orderDirection=asc`, undefined, key);
  if (r.status !== 200) throw new Error(`GET /requests ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.page_data;
}

/** Every response item of one request, all pages. */
export async function responsesOf(sb: Sandbox, requestId: string, key = KEY): Promise<any[]> {
  const items: any[] = [];
  for (let page = 1; ; page++) {
    const r = await call(sb, 'GET', `/responses?request_id=${requestId}&page=${page}&page_size=100`, undefined, key);
    if (r.status !== 200) throw new Error(`GET /responses ${r.status} ${JSON.stringify(r.body)}`);
    items.push(...r.body.page_data);
    if (page >= Number(r.body.all_pages_count)) return items;
  }
}

export const lawsuitKeys = (items: any[]): string[] => items.map((i) => `${i.response_data.code}#${i.response_data.instance}`).sort();

/** The runs of a tracking, oldest first, as the sandbox holds them (any dialect: no listing filter needed). */
export async function runsInside(sb: Sandbox, trackingId: string): Promise<Array<{ request_id: string; created_at: string }>> {
  const r = await call(sb, 'GET', `/_sandbox/tracking/${trackingId}`, undefined, null);
  if (r.status !== 200) throw new Error(`GET /_sandbox/tracking ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.runs;
}

/** The lawsuits changed between two sandbox days (/_sandbox/changes): new ones, with new steps, or both kinds. */
async function changedBetweenDays(sb: Sandbox, fromDay: number, toDay: number, limit: number, kind?: 'new' | 'steps'): Promise<any[]> {
  const r = await call(sb, 'GET', `/_sandbox/changes?from_day=${fromDay}&to_day=${toDay}&limit=${limit}`, undefined, null);
  if (r.status !== 200) throw new Error(`GET /_sandbox/changes ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.lawsuits.filter((l: any) => kind === undefined || l.change === kind);
}

/** lawsuit_cnj searches of lawsuits readable without a credential that moved (new steps) between two sandbox days. */
export async function movedNumbers(sb: Sandbox, fromDay: number, toDay: number, n: number): Promise<Search[]> {
  const moved = (await changedBetweenDays(sb, fromDay, toDay, 10 * n, 'steps')).filter((l) => l.secrecy_level < 3);
  return [...new Set(moved.map((l) => l.code as string))].slice(0, n).map((code) => ({ search_type: 'lawsuit_cnj', search_key: code }));
}

/**
 * Documents (CPF, CNPJ) of lawsuits whose content changed between two sandbox days, as /_sandbox/changes names them:
 * of any change, or only of lawsuits born (`new`) or moved (`steps`) in the window.
 */
export async function changedDocuments(sb: Sandbox, fromDay: number, toDay: number, n: number, kind?: 'new' | 'steps'): Promise<Search[]> {
  const out = new Map<string, Search>();
  for (const l of await changedBetweenDays(sb, fromDay, toDay, kind ? 10_000 : 4 * n, kind)) {
    if (l.secrecy_level >= 3) continue;
    const d = l.documents.find((x: any) => x.document_type === 'CPF' || x.document_type === 'CNPJ');
    if (d) out.set(d.document, { search_type: d.document_type.toLowerCase(), search_key: d.document });
    if (out.size === n) break;
  }
  return [...out.values()];
}

/** The lawsuit object of `code#instance` as the database view shows it at `at` (unmasked), or undefined. */
function payloadAt(sb: Sandbox, key: string, at: number): any {
  const [code, instance] = key.split('#');
  const i = sb.universe.lawsuitsOfCnj(code).find((x) => sb.universe.plan(x).instance === Number(instance));
  return i === undefined ? undefined : sb.universe.lawsuit(i, at, { onDemand: false, shape: 'full', privileged: true });
}

/**
 * What a run at `at` sends in the `changed` mode, by brute force: the lawsuits the search finds at `at` that it did
 * not find at `prev`, or whose steps, phase or status (as the database shows them) differ between the two instants.
 */
export function expectedChanged(sb: Sandbox, search: Search, prev: number, at: number): string[] {
  const key = (l: { code: string; instance: number }) => `${l.code}#${l.instance}`;
  const before = new Set(sb.truth(search, { at: prev }).map(key));
  return sb.truth(search, { at }).map(key).filter((k) => {
    if (!before.has(k)) return true;
    // A re-crawl rewrites every crawl_id: the steps themselves (ids, dates) and what they decide are compared.
    const content = (l: any) => JSON.stringify([l.steps.map((x: any) => [x.step_id, x.step_date, x.step_type]), l.phase, l.status]);
    return content(payloadAt(sb, k, prev)) !== content(payloadAt(sb, k, at));
  }).sort();
}

/** What a document tracking's run at `at` sends in two levels, by brute force: the lawsuits found at `at` and not at `prev`. */
export function expectedBorn(sb: Sandbox, search: Search, prev: number, at: number): string[] {
  const before = new Set(truthKeys(sb, search, prev));
  return truthKeys(sb, search, at).filter((k) => !before.has(k));
}

export const truthKeys = (sb: Sandbox, search: Search, at: number): string[] => sb.truth(search, { at }).map((l) => `${l.code}#${l.instance}`).sort();
